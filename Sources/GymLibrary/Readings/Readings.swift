import GRDB
import GymCLI
import GymCore

/// Writes a work's readings. Every path that records reading (`start`, `finish`, `abandon`,
/// `progress`, `add`, `set`, the Goodreads and gym imports) comes through here, so the rules are
/// one: a reading is never removed by what a source leaves out, and a source that says again what
/// gym has (the same export imported twice) adds nothing. Docs/Library/Readings.md.
enum Readings {
  /// The most reads a source may claim for one work (a bound on the rows one line can add).
  static let maximumReads = 10_000

  /// The order in which the latest of a work's readings comes first: one in progress, then by its
  /// last date, then the last recorded. The list's `dateStarted` and `set`'s corrections use it.
  static let latestFirst = "status = 'reading' DESC, coalesce(finished, started) DESC, id DESC"

  /// The reading in progress, if any (at most one: `start` refuses a second).
  static func open(_ db: Database, work: Int64) throws -> (id: Int64, started: String?)? {
    try Row.fetchOne(
      db.cachedStatement(
        sql: "SELECT id, started FROM reading WHERE workId = ? AND status = 'reading' ORDER BY id DESC LIMIT 1"),
      arguments: [work]
    ).map { ($0[0], $0[1]) }
  }

  static func count(_ db: Database, work: Int64, status: String) throws -> Int {
    try Int.fetchOne(
      db.cachedStatement(sql: "SELECT COUNT(*) FROM reading WHERE workId = ? AND status = ?"),
      arguments: [work, status]) ?? 0
  }

  /// A new reading by a command, refused once the work has `maximumReads` (what Goodreads' Read Count
  /// and every import take), so what gym writes always imports back.
  static func checkRoom(_ db: Database, work: Int64) throws {
    let held =
      try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM reading WHERE workId = ?"), arguments: [work])
      ?? 0
    guard held < maximumReads else {
      throw GymError.data("work \(work) has \(held) readings, the most gym keeps (\(maximumReads)); nothing was added")
    }
  }

  @discardableResult
  static func insert(
    _ db: Database, work: Int64, started: String?, finished: String?, status: String, pages: Int? = nil,
    percent: Double? = nil
  ) throws -> Int64 {
    let key = try LibraryKeys.reading(db, work: work, status: status, started: started, finished: finished)
    try db.cachedStatement(
      sql: "INSERT INTO reading (id, workId, started, finished, status, pages, percent) VALUES (?, ?, ?, ?, ?, ?, ?)"
    ).execute(arguments: [key, work, started, finished, status, pages, percent])
    return key
  }

  /// Ends a reading: read or abandoned, on `finished` (nil: not known), its start filled when unknown.
  static func end(_ db: Database, reading: Int64, status: String, finished: String?, started: String? = nil) throws {
    try db.cachedStatement(
      sql: "UPDATE reading SET status = ?, finished = ?, started = coalesce(started, ?) WHERE id = ?"
    ).execute(arguments: [status, finished, started, reading])
  }

  /// Readings a source gives in full: each matched to one gym has with the same dates and status (one
  /// the source has in progress, to any from the same start; a finished one, to one with the same
  /// finish whose start either side does not know, the start then filled in), its progress updated,
  /// else added. None is removed. Returns whether anything changed.
  static func merge(_ db: Database, work: Int64, _ readings: [LibraryBook.Reading]) throws -> Bool {
    let before = db.totalChangesCount
    var matched: Set<Int64> = []
    for reading in readings {
      // A reading the source has in progress may have been ended in gym since: any from its start matches.
      let open = reading.status == "reading" && reading.finished == nil
      // The same finish is the same reading though one side does not know when it began (Goodreads
      // exports no start); one with the very same start is taken first.
      let candidates = try Int64.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT id FROM reading WHERE workId = ?1
              AND (started IS ?2 OR (NOT ?5 AND ?3 IS NOT NULL AND (started IS NULL OR ?2 IS NULL)))
              AND (?5 OR (finished IS ?3 AND status = ?4)) ORDER BY started IS NOT ?2, id
            """),
        arguments: [work, reading.started, reading.finished, reading.status, open])
      if let id = candidates.first(where: { !matched.contains($0) }) {
        matched.insert(id)
        if let started = reading.started {
          try db.cachedStatement(sql: "UPDATE reading SET started = ? WHERE id = ? AND started IS NULL")
            .execute(arguments: [started, id])
        }
        guard reading.pages != nil || reading.percent != nil else { continue }
        try db.cachedStatement(
          sql: "UPDATE reading SET pages = ?, percent = ? WHERE id = ? AND (pages, percent) IS NOT (?, ?)"
        ).execute(arguments: [reading.pages, reading.percent, id, reading.pages, reading.percent])
      } else {
        matched.insert(
          try insert(
            db, work: work, started: reading.started, finished: reading.finished, status: reading.status,
            pages: reading.pages, percent: reading.percent))
      }
    }
    return db.totalChangesCount != before
  }

  /// What a source says about a work's reading — an export row, `add` or `set`: the last start and
  /// finish dates, the shelf, how many times it was read — recorded against the readings gym has.
  /// - A finish date gym has on a finished reading adds nothing (its start is filled when unknown);
  ///   else it finishes the reading in progress (when that started on or before it); else it is a
  ///   reading of its own. On the abandoned shelf it is the day the book was put down: an abandoned
  ///   reading (the one in progress, ended so), unless one ended that day is there.
  /// - The reading shelf starts a reading when none is in progress, unless one from the same start
  ///   (undated matching undated) ended after the source's finish date — it was ended in gym since
  ///   the source was made; the abandoned shelf records an abandoned reading when none is in progress
  ///   and none is abandoned. A reading in progress is only ended by a finish date on or after its
  ///   start — an older export never ends a reading begun in gym since — or, with
  ///   `endsReadingInProgress` (`set --status`), by the shelf: read or abandoned, undated.
  /// - Reads beyond those gym has (`readCount` above them, at most `maximumReads`; at least one on
  ///   the read shelf) are undated readings.
  /// Returns whether anything changed.
  static func record(
    _ db: Database, work: Int64, started: String?, finished: String?, shelf: String?, readCount: Int?,
    endsReadingInProgress: Bool = false
  ) throws -> Bool {
    let before = db.totalChangesCount
    var inProgress = try open(db, work: work)
    if let finished {
      let same = try Int64.fetchOne(
        db.cachedStatement(sql: "SELECT id FROM reading WHERE workId = ? AND status = 'read' AND finished = ?"),
        arguments: [work, finished])
      if let same {
        if let started {
          try db.cachedStatement(sql: "UPDATE reading SET started = ? WHERE id = ? AND started IS NULL")
            .execute(arguments: [started, same])
        }
      } else if shelf == "abandoned" {
        // On the abandoned shelf (Goodreads' `dnf`) the date is when the book was put down.
        let recorded = try Bool.fetchOne(
          db.cachedStatement(
            sql: "SELECT EXISTS (SELECT 1 FROM reading WHERE workId = ? AND status = 'abandoned' AND finished = ?)"),
          arguments: [work, finished])!
        if !recorded, let current = inProgress, (current.started ?? finished) <= finished {
          try end(db, reading: current.id, status: "abandoned", finished: finished, started: started)
          inProgress = nil
        } else if !recorded {
          try insert(db, work: work, started: started, finished: finished, status: "abandoned")
        }
      } else if let current = inProgress, (current.started ?? finished) <= finished, shelf != "reading" {
        try end(db, reading: current.id, status: "read", finished: finished, started: started)
        inProgress = nil
      } else {
        try insert(db, work: work, started: shelf == "reading" ? nil : started, finished: finished, status: "read")
      }
    }
    switch shelf {
    case "reading" where inProgress == nil:
      let startedNow = finished == nil ? started : nil
      // Already ended in gym since the source was made: a reading from the same start, ended after
      // anything the source says was finished.
      let seen = try Bool.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT EXISTS (SELECT 1 FROM reading WHERE workId = ? AND started IS ? AND finished > coalesce(?, ''))
            """), arguments: [work, startedNow, finished])!
      if !seen { try insert(db, work: work, started: startedNow, finished: nil, status: "reading") }
    case "abandoned":
      if let current = inProgress {
        if endsReadingInProgress {
          try end(db, reading: current.id, status: "abandoned", finished: nil, started: started)
        }
      } else if try count(db, work: work, status: "abandoned") == 0 {
        try insert(db, work: work, started: started, finished: nil, status: "abandoned")
      }
    case "read":
      if let current = inProgress, endsReadingInProgress {
        try end(db, reading: current.id, status: "read", finished: nil)
      }
    default: break
    }
    let reads = min(max(readCount ?? 0, shelf == "read" ? 1 : 0), maximumReads)
    let have = try count(db, work: work, status: "read")
    if reads > have {
      for _ in have..<reads { try insert(db, work: work, started: nil, finished: nil, status: "read") }
    }
    return db.totalChangesCount != before
  }
}
