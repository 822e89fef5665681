import GRDB
import GymCLI
import GymCore

/// Writes books through cached statements in the caller's transaction: upserts that leave an
/// unchanged row untouched (`ON CONFLICT … DO UPDATE … WHERE` something differs), so importing the
/// same file twice writes nothing and a newer file updates rows in place.
final class LibraryWriter {
  enum Outcome { case added, updated, unchanged }

  let db: Database
  let now: Timestamp
  /// Author ids by name (any case), for this transaction: most rows name a known author.
  private var authorIds: [String: Int64] = [:]
  private(set) var authorsAdded = 0
  /// Whether a work without a Goodreads id exists: read once, then kept as this writer adds works.
  private var worksWithoutGoodreadsId: Bool?

  init(_ db: Database, now: Timestamp) {
    self.db = db
    self.now = now
  }

  /// Adds the book, or with a Goodreads id that exists, updates what differs. Returns the work id.
  /// `importing`: the book is a row of an export, whose edition is the one the import maintains for
  /// the work (one per source: `edition.source`). A book not found by its Goodreads id is the work
  /// another service's export or gym's own brought (`sameWork`), so one person's Goodreads and
  /// StoryGraph exports, in either order, make one work of each book, and a file gym wrote imports
  /// again without duplicating its works.
  func save(_ book: LibraryBook, importing: Bool = false) throws -> (id: Int64, outcome: Outcome) {
    var existing: Int64?
    if let goodreadsId = book.goodreadsId {
      existing = try Int64.fetchOne(
        db.cachedStatement(sql: "SELECT id FROM work WHERE goodreadsId = ?"), arguments: [goodreadsId])
    }
    // A row with a Goodreads id can only be a work without one: none, the common case of a first
    // import, is one query for the whole import instead of three per row.
    var foundElsewhere = existing == nil && importing
    if foundElsewhere && book.goodreadsId != nil { foundElsewhere = try hasWorksWithoutGoodreadsId() }
    if foundElsewhere { existing = try sameWork(as: book) }
    var inserted: Int64?
    if let existing, book.goodreadsId == nil || foundElsewhere {
      // A work found by ISBN or title takes the Goodreads id the row gives, when it has none.
      try db.cachedStatement(
        sql: """
          UPDATE work SET goodreadsId = coalesce(goodreadsId, ?6), series = coalesce(?1, series),
            seriesPosition = coalesce(?2, seriesPosition), firstPublished = coalesce(?3, firstPublished),
            lastModified = ?4
          WHERE id = ?5 AND (goodreadsId, series, seriesPosition, firstPublished)
            IS NOT (coalesce(goodreadsId, ?6), coalesce(?1, series), coalesce(?2, seriesPosition),
              coalesce(?3, firstPublished))
          """
      ).execute(arguments: [
        book.series, book.seriesPosition, book.firstPublished, now.canonical, existing, book.goodreadsId,
      ])
    } else {
      let key =
        try existing
        ?? LibraryKeys.work(
          db, goodreadsId: book.goodreadsId, title: book.title, authors: book.authors.map(\.name))
      inserted = key
      try db.cachedStatement(
        sql: """
          INSERT INTO work (id, goodreadsId, title, subtitle, series, seriesPosition, coverImageURL, originalLanguage,
            firstPublished, lastModified)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT(goodreadsId) WHERE goodreadsId IS NOT NULL DO UPDATE SET title = excluded.title,
            series = coalesce(excluded.series, work.series),
            seriesPosition = coalesce(excluded.seriesPosition, work.seriesPosition),
            firstPublished = coalesce(excluded.firstPublished, work.firstPublished),
            lastModified = excluded.lastModified
          WHERE (work.title, work.series, work.seriesPosition, work.firstPublished)
            IS NOT (excluded.title, coalesce(excluded.series, work.series),
              coalesce(excluded.seriesPosition, work.seriesPosition),
              coalesce(excluded.firstPublished, work.firstPublished))
          """
      ).execute(arguments: [
        key, book.goodreadsId, book.title, book.subtitle, book.series, book.seriesPosition, book.coverImageURL,
        book.originalLanguage, book.firstPublished, now.canonical,
      ])
    }
    guard let id = existing ?? inserted else { throw DatabaseError(message: "no work was written") }
    if existing == nil && book.goodreadsId == nil { worksWithoutGoodreadsId = true }
    var changed = existing == nil || db.changesCount > 0
    changed = try link(work: id, to: book.authors) || changed
    if !book.edition.isEmpty {
      changed = try saveEdition(work: id, book.edition, imported: importing) || changed
    }
    changed = try saveEntry(work: id, book.entry) || changed
    guard existing != nil else { return (id, .added) }
    guard changed else { return (id, .unchanged) }
    try db.cachedStatement(sql: "UPDATE work SET lastModified = ? WHERE id = ?").execute(arguments: [now.canonical, id])
    return (id, .updated)
  }

  /// The author's id, adding the author when the name is new (names match in any case of ASCII
  /// letters, as the table compares them: `Émile` and `émile` are two names, as in the work's key).
  func authorId(_ author: LibraryBook.Author) throws -> Int64 {
    let key = GlobalKey.lowered(author.name)
    if let id = authorIds[key] { return id }
    try db.cachedStatement(sql: "INSERT INTO author (id, name, sortName) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING")
      .execute(arguments: [LibraryKeys.author(author.name), author.name, author.sortName])
    if db.changesCount > 0 { authorsAdded += 1 }
    let id = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM author WHERE name = ?"), arguments: [author.name])!
    authorIds[key] = id
    return id
  }

  /// Makes the work's authors exactly these, in this order; true when a link changed.
  func link(work: Int64, to authors: [LibraryBook.Author]) throws -> Bool {
    let ids = try authors.map(authorId)
    let current = try Int64.fetchAll(
      db.cachedStatement(sql: "SELECT authorId FROM work_author WHERE workId = ? ORDER BY position"),
      arguments: [work])
    guard current != ids else { return false }
    let gone = current.filter { !ids.contains($0) }
    if !gone.isEmpty {
      let marks = Array(repeating: "?", count: gone.count).joined(separator: ", ")
      try db.execute(
        sql: "DELETE FROM work_author WHERE workId = ? AND authorId IN (\(marks))",
        arguments: StatementArguments([work] + gone))
      // An author no work names any more was deleted with the link (work_author_orphan).
      authorIds.removeAll()
    }
    let upsert = try db.cachedStatement(
      sql: """
        INSERT INTO work_author (id, workId, authorId, position) VALUES (?, ?, ?, ?)
        ON CONFLICT(authorId, workId) DO UPDATE SET position = excluded.position
        WHERE work_author.position IS NOT excluded.position
        """)
    for (position, author) in ids.enumerated() {
      try upsert.execute(arguments: [LibraryKeys.authorship(work: work, author: author), work, author, position])
    }
    return true
  }

  private func hasWorksWithoutGoodreadsId() throws -> Bool {
    if let known = worksWithoutGoodreadsId { return known }
    let found = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM work WHERE goodreadsId IS NULL)") ?? false
    worksWithoutGoodreadsId = found
    return found
  }

  /// The work an imported book is when its Goodreads id finds none: the work of an edition with its
  /// ISBN-13, else its ISBN-10, each also in the other form (one service writes `0441013597`, another
  /// `9780441013593` for the same edition), else a work of the same title and authors, a
  /// `(Series, #n)` suffix on either title aside (Goodreads writes one, StoryGraph not). For a row
  /// with a Goodreads id, a work with another Goodreads id is another book.
  func sameWork(as book: LibraryBook) throws -> Int64? {
    let (isbn13, isbn10) = (book.edition.isbn13, book.edition.isbn10)
    let isbns = [
      ("isbn13", isbn13 ?? isbn10.flatMap(ISBN.otherForm)), ("isbn10", isbn10 ?? isbn13.flatMap(ISBN.otherForm)),
    ]
    for (column, isbn) in isbns {
      guard let isbn else { continue }
      let found = try Int64.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT e.workId FROM edition e JOIN work w ON w.id = e.workId
            WHERE e.\(column) = ?1 AND (?2 IS NULL OR w.goodreadsId IS NULL OR w.goodreadsId = ?2)
            ORDER BY e.workId LIMIT 1
            """), arguments: [isbn, book.goodreadsId])
      if let found { return found }
    }
    let title = Self.titleWithoutSeries(book.title)
    let wanted = Set(book.authors.map { $0.name.lowercased() })
    // The title itself, or one followed by ` (`: a range of the NOCASE index ('(' sorts before ')').
    let candidates = try Row.fetchAll(
      db.cachedStatement(
        sql: """
          SELECT id, title FROM work
          WHERE (title = ?1 COLLATE NOCASE
              OR (title >= (?1 || ' (') COLLATE NOCASE AND title < (?1 || ' )') COLLATE NOCASE))
            AND (?2 IS NULL OR goodreadsId IS NULL OR goodreadsId = ?2)
          ORDER BY id
          """), arguments: [title, book.goodreadsId])
    for candidate in candidates {
      guard Self.titleWithoutSeries(candidate[1]).lowercased() == title.lowercased() else { continue }
      let names = try String.fetchAll(
        db.cachedStatement(
          sql: "SELECT a.name FROM work_author wa JOIN author a ON a.id = wa.authorId WHERE wa.workId = ?"),
        arguments: [candidate[0] as Int64])
      if Set(names.map { $0.lowercased() }) == wanted { return candidate[0] }
    }
    return nil
  }

  /// `Gideon the Ninth (The Locked Tomb, #1)` → `Gideon the Ninth`; a title without a series as it is.
  static func titleWithoutSeries(_ title: String) -> String {
    guard LibraryBook.series(inTitle: title) != nil, let open = title.lastIndex(of: "(") else { return title }
    return title[..<open].trimmed
  }

  /// A new edition for `add`; for an import, the work's one edition from that source, updated in place.
  private func saveEdition(work: Int64, _ edition: LibraryBook.Edition, imported: Bool) throws -> Bool {
    let source = imported ? edition.source ?? "goodreads" : nil
    if let source, source != "goodreads" {
      return try saveSourceEdition(work: work, edition, source: source)
    }
    try db.cachedStatement(
      sql: """
        INSERT INTO edition (id, workId, isbn10, isbn13, publisher, binding, pageCount, year, source)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(workId) WHERE source = 'goodreads' DO UPDATE SET isbn10 = excluded.isbn10,
          isbn13 = excluded.isbn13, publisher = excluded.publisher, binding = excluded.binding,
          pageCount = excluded.pageCount, year = excluded.year
        WHERE (edition.isbn10, edition.isbn13, edition.publisher, edition.binding, edition.pageCount, edition.year)
          IS NOT (excluded.isbn10, excluded.isbn13, excluded.publisher, excluded.binding, excluded.pageCount,
            excluded.year)
        """
    ).execute(arguments: [
      try existingGoodreadsEdition(work: work, source: source)
        ?? LibraryKeys.edition(db, work: work, source: source, isbn13: edition.isbn13, isbn10: edition.isbn10),
      work, edition.isbn10, edition.isbn13, edition.publisher, edition.binding, edition.pageCount, edition.year,
      source,
    ])
    return db.changesCount > 0
  }

  /// The key of the work's Goodreads edition, which the upsert updates in place (its key stays).
  private func existingGoodreadsEdition(work: Int64, source: String?) throws -> Int64? {
    guard source == "goodreads" else { return nil }
    return try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM edition WHERE workId = ? AND source = 'goodreads'"), arguments: [work])
  }

  /// The edition another service's export maintains for the work (one per source), as the
  /// Goodreads one is kept but without a unique index of its own: found by work and source.
  private func saveSourceEdition(work: Int64, _ edition: LibraryBook.Edition, source: String) throws -> Bool {
    let values: [(any DatabaseValueConvertible)?] = [
      edition.isbn10, edition.isbn13, edition.publisher, edition.binding, edition.pageCount, edition.year,
    ]
    if let id = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM edition WHERE workId = ? AND source = ? ORDER BY id LIMIT 1"),
      arguments: [work, source])
    {
      try db.cachedStatement(
        sql: """
          UPDATE edition SET isbn10 = ?1, isbn13 = ?2, publisher = ?3, binding = ?4, pageCount = ?5, year = ?6
          WHERE id = ?7 AND (isbn10, isbn13, publisher, binding, pageCount, year) IS NOT (?1, ?2, ?3, ?4, ?5, ?6)
          """
      ).execute(arguments: StatementArguments(values + [id]))
      return db.changesCount > 0
    }
    let key = try LibraryKeys.edition(db, work: work, source: source, isbn13: edition.isbn13, isbn10: edition.isbn10)
    try db.cachedStatement(
      sql: """
        INSERT INTO edition (isbn10, isbn13, publisher, binding, pageCount, year, workId, source, id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(arguments: StatementArguments(values + [work, source, key]))
    return true
  }

  /// The work's entry, then its readings from what the entry says about them (`Readings.record`).
  /// `endsReadingInProgress`: the shelf given by the user (`set --status`), which ends a reading in
  /// progress; an import's shelf never does (`Readings.record`).
  func saveEntry(work: Int64, _ entry: LibraryBook.Entry, endsReadingInProgress: Bool = false) throws -> Bool {
    try db.cachedStatement(
      sql: """
        INSERT INTO library_entry (id, workId, readingStatus, rating, dateAdded, review, ownedCopies, shelves)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(workId) DO UPDATE SET readingStatus = excluded.readingStatus, rating = excluded.rating,
          dateAdded = excluded.dateAdded, review = excluded.review, ownedCopies = excluded.ownedCopies,
          shelves = excluded.shelves
        WHERE (library_entry.readingStatus, library_entry.rating, library_entry.dateAdded, library_entry.review,
            library_entry.ownedCopies, library_entry.shelves)
          IS NOT (excluded.readingStatus, excluded.rating, excluded.dateAdded, excluded.review, excluded.ownedCopies,
            excluded.shelves)
        """
    ).execute(arguments: [
      LibraryKeys.entry(work: work), work, entry.status, entry.rating, entry.dateAdded, entry.review, entry.ownedCopies,
      entry.shelves,
    ])
    var changed = db.changesCount > 0
    changed = try Readings.merge(db, work: work, entry.readings) || changed
    // A source that gives its reading in progress in full has said all there is about it: the shelf
    // starts no other (that one may have been ended in gym since).
    let givesOpenReading = entry.readings.contains { $0.status == "reading" }
    return try Readings.record(
      db, work: work, started: entry.dateStarted, finished: entry.dateFinished,
      shelf: givesOpenReading && entry.status == "reading" ? nil : entry.status,
      readCount: entry.readCount, endsReadingInProgress: endsReadingInProgress) || changed
  }
}
