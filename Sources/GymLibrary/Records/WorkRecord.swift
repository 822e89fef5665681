import GRDB
import GymCLI
import GymCore

/// One work as a list or show record gives it: only what the record says (a field it leaves out is
/// `nil` here and keeps its value in the database), each value checked as `library add` checks it.
struct WorkRecord {
  var id: Int64?
  var goodreadsId: Int64?
  var title: String?
  /// `work` columns the record gives, with their values (null included).
  var work: [(column: String, value: DatabaseValue)] = []
  /// `library_entry` columns the record gives.
  var entry: [(column: String, value: DatabaseValue)] = []
  var authors: [LibraryBook.Author]?
  var editions: [LibraryBook.Edition]?
  /// The editions are `show`'s, every detail given; a list's `isbn` names an edition and no more.
  var editionsInFull = false
  /// What a list record says about the readings (its `dateStarted`, `dateFinished`, `readCount`), for
  /// `Readings.record`; nil when it says nothing.
  var readingClaim: (started: String?, finished: String?, readCount: Int?)?
  /// `show`'s readings, each one as it is.
  var readings: [LibraryBook.Reading] = []
  let line: Int

  init(_ values: RecordValues, nested: [[RecordValues]], line: Int) throws(InputError) {
    self.line = line
    let row = Fields(values: values, line: line)
    id = try row.integer("id", in: 1...Int64.max)
    goodreadsId = try row.integer("goodreadsId", in: 1...Int64.max)
    if row.given("title") {
      guard let title = row.text("title"), !title.trimmed.isEmpty else {
        throw InputError(line: line, message: "field 'title' is empty; a work needs its title")
      }
      self.title = title
    }
    for column in ["title", "subtitle", "series", "seriesPosition", "coverImageURL", "originalLanguage"]
    where row.given(column) {
      work.append((column, row.text(column).databaseValue))
    }
    if row.given("firstPublished") {
      work.append(("firstPublished", try row.integer("firstPublished", in: -5000...9999).databaseValue))
    }
    if row.given("goodreadsId") { work.append(("goodreadsId", goodreadsId.databaseValue)) }
    try readEntry(row, status: "status")
    if row.given("authors") {
      authors =
        row.text("authors").map { $0.components(separatedBy: ", ").map { LibraryBook.Author(name: $0.trimmed) } } ?? []
    }
    if row.given("isbn") {
      if let text = row.text("isbn") {
        guard let isbn = ISBN.parse(text) else { throw row.fail("isbn", text, expected: "a valid ISBN-10 or ISBN-13") }
        editions = [LibraryBook.Edition(isbn10: isbn.isbn10, isbn13: isbn.isbn13)]
      } else {
        editions = []
      }
    }
    // `show`'s arrays: the work's authors, editions, (first) entry and readings.
    if nested.count == 4 {
      if !nested[0].isEmpty {
        authors = try nested[0].map { author throws(InputError) in
          let fields = Fields(values: author, line: line)
          guard let name = fields.text("name"), !name.trimmed.isEmpty else {
            throw InputError(line: line, message: "an author's 'name' is empty")
          }
          return LibraryBook.Author(name: name.trimmed, sortName: fields.text("sortName"))
        }
      }
      if !nested[1].isEmpty {
        editionsInFull = true
        editions = try nested[1].map { edition throws(InputError) in
          let fields = Fields(values: edition, line: line)
          return LibraryBook.Edition(
            isbn10: fields.text("isbn10"), isbn13: fields.text("isbn13"), publisher: fields.text("publisher"),
            binding: fields.text("binding"),
            pageCount: try fields.integer("pageCount", in: LibraryBounds.pages).map(Int.init),
            year: try fields.integer("year", in: LibraryBounds.year).map(Int.init), source: fields.text("source"))
        }
      }
      if let first = nested[2].first { try readEntry(Fields(values: first, line: line), status: "readingStatus") }
      readings = try nested[3].map { reading throws(InputError) in
        let fields = Fields(values: reading, line: line)
        guard let status = fields.text("status"), ReadingSchema.statuses.contains(status) else {
          throw fields.fail(
            "status", fields.text("status") ?? "", expected: "one of " + ReadingSchema.statuses.joined(separator: ", "))
        }
        let reading = LibraryBook.Reading(
          started: try fields.date("started"), finished: try fields.date("finished"), status: status,
          pages: try fields.integer("pages", in: LibraryBounds.pages).map(Int.init),
          percent: try fields.percent("percent"))
        if status == "reading" && reading.finished != nil {
          throw fields.fail("finished", reading.finished!, expected: "empty for a reading in progress")
        }
        if let started = reading.started, let finished = reading.finished, started > finished {
          throw fields.fail("started", started, expected: "on or before the finish \(finished)")
        }
        return reading
      }
    }
  }

  private mutating func readEntry(_ row: Fields, status: String) throws(InputError) {
    if row.given(status) {
      guard let value = row.text(status), LibrarySchema.statuses.contains(value) else {
        throw row.fail(
          status, row.text(status) ?? "", expected: "one of " + LibrarySchema.statuses.joined(separator: ", "))
      }
      entry.append(("readingStatus", value.databaseValue))
    }
    if row.given("rating") { entry.append(("rating", try row.stars("rating").databaseValue)) }
    if row.given("dateAdded") { entry.append(("dateAdded", try row.date("dateAdded").databaseValue)) }
    if row.given("dateStarted") || row.given("dateFinished") || row.given("readCount") {
      readingClaim = (
        try row.date("dateStarted"), try row.date("dateFinished"),
        try row.integer("readCount", in: 0...Int64(Readings.maximumReads)).map(Int.init)
      )
    }
    if row.given("ownedCopies") {
      entry.append(("ownedCopies", (try row.integer("ownedCopies", in: LibraryBounds.ownedCopies) ?? 0).databaseValue))
    }
    for column in ["shelves", "review"] where row.given(column) {
      entry.append((column, row.text(column).databaseValue))
    }
  }

  /// Adds the work or updates the one the record names.
  func apply(_ writer: LibraryWriter) throws -> LibraryWriter.Outcome {
    let db = writer.db
    var found: Int64?
    if let id, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM work WHERE id = ?)", arguments: [id])! {
      found = id
    }
    if found == nil, let goodreadsId {
      found = try Int64.fetchOne(db, sql: "SELECT id FROM work WHERE goodreadsId = ?", arguments: [goodreadsId])
    }
    if found == nil, let title {
      found = try LibraryAdd.sameWork(db, title: title.trimmed, authors: authors?.map(\.name) ?? [])
    }
    guard let workId = found else { return try add(writer) }
    var changed = false
    if !work.isEmpty {
      try update("work", set: work, where: "id", workId, db)
      changed = db.changesCount > 0
    }
    if let authors { changed = try writer.link(work: workId, to: authors) || changed }
    for edition in editions ?? [] { changed = try save(edition, of: workId, db) || changed }
    if !entry.isEmpty {
      try db.execute(
        sql:
          "INSERT INTO library_entry (id, workId) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM library_entry WHERE workId = ?)",
        arguments: [LibraryKeys.entry(work: workId), workId, workId])
      changed = db.changesCount > 0 || changed
      try update("library_entry", set: entry, where: "workId", workId, db)
      changed = db.changesCount > 0 || changed
    }
    changed = try saveReadings(of: workId, db) || changed
    guard changed else { return .unchanged }
    try db.execute(sql: "UPDATE work SET lastModified = ? WHERE id = ?", arguments: [writer.now.canonical, workId])
    return .updated
  }

  private func add(_ writer: LibraryWriter) throws -> LibraryWriter.Outcome {
    let db = writer.db
    guard let title else {
      throw InputError(
        line: line, message: "no work has id \(id.map(String.init) ?? "?"), and a new work needs its title")
    }
    // The id a record gives is kept when it is a key (a file gym wrote, read back: the same work on
    // every device); a smaller one is a number local to an older database, and the work gets its key.
    let keyGiven = id.flatMap { $0 >= LibraryKeys.smallestKept ? $0 : nil }
    let workId =
      try keyGiven ?? LibraryKeys.work(db, goodreadsId: goodreadsId, title: title, authors: authors?.map(\.name) ?? [])
    let columns = ["id", "title"] + work.map(\.column).filter { $0 != "title" } + ["lastModified"]
    let values =
      [workId.databaseValue, title.databaseValue] + work.filter { $0.column != "title" }.map(\.value)
      + [writer.now.canonical.databaseValue]
    try db.execute(
      sql:
        "INSERT INTO work (\(columns.map(SQL.quote).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
      arguments: StatementArguments(values))
    _ = try writer.link(work: workId, to: authors ?? [])
    for edition in editions ?? [] { _ = try save(edition, of: workId, db) }
    var given = entry
    if !given.contains(where: { $0.column == "dateAdded" }) {
      given.append(("dateAdded", String(writer.now.canonical.prefix(10)).databaseValue))
    }
    try db.execute(
      sql:
        "INSERT INTO library_entry (id, workId, \(given.map { SQL.quote($0.column) }.joined(separator: ", "))) VALUES (?, ?\(String(repeating: ", ?", count: given.count)))",
      arguments: StatementArguments(
        [LibraryKeys.entry(work: workId).databaseValue, workId.databaseValue] + given.map(\.value)))
    _ = try saveReadings(of: workId, db)
    return .added
  }

  /// `show`'s readings (`Readings.merge`), then what a list record says (`Readings.record`).
  private func saveReadings(of work: Int64, _ db: Database) throws -> Bool {
    let before = db.totalChangesCount
    _ = try Readings.merge(db, work: work, readings)
    if let claim = readingClaim {
      let shelf = try String.fetchOne(
        db, sql: "SELECT readingStatus FROM library_entry WHERE workId = ?", arguments: [work])
      _ = try Readings.record(
        db, work: work, started: claim.started, finished: claim.finished, shelf: shelf, readCount: claim.readCount)
    }
    return db.totalChangesCount != before
  }

  /// `UPDATE table SET (a, b) = (?, ?) WHERE key = ? AND (a, b) IS NOT (?, ?)`: untouched when equal.
  private func update(
    _ table: String, set given: [(column: String, value: DatabaseValue)], where key: String, _ id: Int64, _ db: Database
  ) throws {
    let columns = given.map { SQL.quote($0.column) }.joined(separator: ", ")
    let marks = given.map { _ in "?" }.joined(separator: ", ")
    try db.execute(
      sql: "UPDATE \(table) SET (\(columns)) = (\(marks)) WHERE \(key) = ? AND (\(columns)) IS NOT (\(marks))",
      arguments: StatementArguments(given.map(\.value) + [id.databaseValue] + given.map(\.value)))
  }

  /// An edition the work has (same ISBN, or with none the same details) is updated; another is added.
  private func save(_ edition: LibraryBook.Edition, of work: Int64, _ db: Database) throws -> Bool {
    let existing = try Int64.fetchOne(
      db,
      sql: """
        SELECT id FROM edition WHERE workId = ?1 AND (
          (?2 IS NOT NULL AND isbn13 = ?2) OR (?3 IS NOT NULL AND isbn10 = ?3)
          OR (?2 IS NULL AND ?3 IS NULL AND isbn13 IS NULL AND isbn10 IS NULL
            AND (publisher, binding, pageCount, year) IS (?4, ?5, ?6, ?7)))
        ORDER BY id LIMIT 1
        """,
      arguments: [
        work, edition.isbn13, edition.isbn10, edition.publisher, edition.binding, edition.pageCount, edition.year,
      ])
    let details: [(column: String, value: DatabaseValue)] = [
      ("isbn10", edition.isbn10.databaseValue), ("isbn13", edition.isbn13.databaseValue),
      ("publisher", edition.publisher.databaseValue), ("binding", edition.binding.databaseValue),
      ("pageCount", edition.pageCount.databaseValue), ("year", edition.year.databaseValue),
      ("source", edition.source.databaseValue),
    ]
    guard let existing else {
      try db.execute(
        sql: """
          INSERT INTO edition (id, workId, isbn10, isbn13, publisher, binding, pageCount, year, source)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: StatementArguments(
          [
            try LibraryKeys.edition(
              db, work: work, source: edition.source, isbn13: edition.isbn13, isbn10: edition.isbn10
            ).databaseValue, work.databaseValue,
          ] + details.map(\.value)))
      return true
    }
    guard editionsInFull else { return false }
    try update("edition", set: details, where: "id", existing, db)
    return db.changesCount > 0
  }
}

/// A record's fields by name: given or not, and each value checked.
private struct Fields {
  let values: RecordValues
  let line: Int

  func index(_ name: String) -> Int? { values.fieldNames.firstIndex(of: name) }

  /// The record names the field (null included).
  func given(_ name: String) -> Bool { index(name).map { values.kinds[$0] != .missing } ?? false }

  /// The value as text; nil when null or empty.
  func text(_ name: String) -> String? {
    guard let i = index(name), values.kinds[i] != .missing, values.kinds[i] != .null else { return nil }
    let text = values.string(i)
    return text.isEmpty ? nil : text
  }

  func integer(_ name: String, in range: ClosedRange<Int64>) throws(InputError) -> Int64? {
    guard let text = text(name) else { return nil }
    guard let value = Int64(text), range.contains(value) else {
      throw fail(name, text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  func fail(_ name: String, _ value: String, expected: String) -> InputError {
    InputError(line: line, message: "field '\(name)': '\(value.prefix(60))' is not \(expected)")
  }

  /// A calendar date (`YYYY-MM-DD`, a day that exists), or nil when null or empty.
  func date(_ name: String) throws(InputError) -> String? {
    guard let value = text(name) else { return nil }
    guard CalendarDay(value)?.text == value else {
      throw fail(name, value, expected: "a date (YYYY-MM-DD)")
    }
    return value
  }

  /// A rating, 0.25 to 5 in quarter stars, or nil when null or empty.
  func stars(_ name: String) throws(InputError) -> Double? {
    guard let value = text(name) else { return nil }
    guard let number = DecimalNumber.parse(value), Stars.isValid(number) else {
      throw fail(name, value, expected: "a rating from 0.25 to 5 in quarter stars")
    }
    return number
  }

  /// A percentage from 0 to 100, or nil when null or empty.
  func percent(_ name: String) throws(InputError) -> Double? {
    guard let value = text(name) else { return nil }
    guard let number = DecimalNumber.parse(value), (0...100).contains(number) else {
      throw fail(name, value, expected: "a percentage from 0 to 100")
    }
    return number
  }
}
