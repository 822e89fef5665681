import Foundation
import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymLibrary

@Suite struct GoodreadsImportTests {
  static func store() throws -> Store {
    let directory = NSTemporaryDirectory() + "gym-library-" + UUID().uuidString
    return try Store(path: directory + "/gym.sqlite", modules: [libraryModule])
  }

  let now = Timestamp(parsing: "2026-11-21T12:00:00Z")!
  let later = Timestamp(parsing: "2026-11-22T08:00:00Z")!

  func load(_ store: Store, _ text: String, at time: Timestamp? = nil, strict: Bool = false) throws
    -> LibraryImportCounts
  {
    var job = ExportFileImport<GoodreadsFormat>(path: try GoodreadsFixture.file(text))
    job.strict = strict
    return try job.run(openStore: { store }, progress: ProgressLine("test", enabled: false), now: time ?? now)
  }

  /// Every table's rows, in key order, as text: two equal dumps are two equal databases.
  func dump(_ store: Store) throws -> [String] {
    try store.read { db in
      try ["work", "author", "work_author", "edition", "library_entry"].flatMap { table in
        try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid").map { "\(table) \($0)" }
      }
    }
  }

  /// Into an empty library the search index is built once after the rows; into one with a work, by
  /// the triggers row by row. Both give every work the same title, series and authors in order, and
  /// the triggers are back exactly as the migration made them.
  @Test func theSearchIndexBuiltAfterABulkLoadIsTheOneTheTriggersKeep() throws {
    let text = GoodreadsFixture.csv(GoodreadsFixture.quirkRows + GoodreadsFixture.generatedRows(200))
    let bulk = try Self.store()
    let triggers = { (store: Store) in
      try store.read { db in
        try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
      }
    }
    let before = try triggers(bulk)
    _ = try load(bulk, text)
    #expect(try triggers(bulk) == before && before.count >= 6)
    let rowByRow = try Self.store()
    try rowByRow.write { db in
      try db.execute(sql: "INSERT INTO work (title, lastModified) VALUES ('Already here', '2026-01-01T00:00:00.000Z')")
    }
    _ = try load(rowByRow, text)
    let index = { (store: Store) in
      try store.read { db in
        try Row.fetchAll(
          db,
          sql: """
            SELECT s.title, coalesce(s.series, '-'), s.authors FROM work_search s
            WHERE s.title <> 'Already here' ORDER BY s.title, s.authors
            """
        ).map { "\($0[0] as String) | \($0[1] as String) | \($0[2] as String)" }
      }
    }
    let built = try index(bulk)
    let works = try bulk.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM work") }
    #expect(built.count == works && works ?? 0 > 200)
    #expect(built == (try index(rowByRow)))
    #expect(built.contains { $0.hasPrefix("Generated Book 7 | - | Writer 7") })
    // Searching finds by title and by author.
    let hits = try bulk.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM work_search WHERE work_search MATCH 'writer'")
    }
    #expect(hits == 200)
  }

  @Test(arguments: [false, true]) func everyQuirkImports(newer: Bool) throws {
    let store = try Self.store()
    let counts = try load(store, GoodreadsFixture.csv(GoodreadsFixture.quirkRows, newer: newer))
    #expect(counts.added == 5 && counts.updated == 0 && counts.unchanged == 0)
    // "Tamsyn Muir" and "tamsyn muir" are one author; Homer has two co-authors.
    #expect(counts.authorsAdded == 6)
    #expect(counts.warnings == 1)
    #expect(counts.shelves == ["read": 2, "owned-unread": 1, "currently-reading": 1, "to-read": 1])
    #expect(
      counts.summary(verb: "imported", isOwnShelf: GoodreadsFormat.isOwnShelf).contains(
        "owned-unread 1 (kept as a tag)"))
    try store.read { db in
      let gideon = try Row.fetchOne(
        db,
        sql: """
          SELECT w.title, w.series, w.seriesPosition, e.readingStatus, e.rating, e.dateAdded, e.review,
            (SELECT group_concat(r.status || ' ' || coalesce(r.finished, '-'), '; ') FROM reading r
              WHERE r.workId = w.id) AS readings,
            d.isbn10, d.isbn13, d.pageCount, d.publisher
          FROM work w JOIN library_entry e ON e.workId = w.id JOIN edition d ON d.workId = w.id
          WHERE w.goodreadsId = 42944564
          """)!
      #expect(gideon["title"] == "Gideon the Ninth (The Locked Tomb #1)")
      #expect(gideon["series"] == "The Locked Tomb" && gideon["seriesPosition"] == "1")
      #expect(gideon["readingStatus"] == "read" && gideon["rating"] == 5)
      // One read (Read Count 1), on its Date Read.
      #expect(gideon["readings"] == "read 2020-01-15" && gideon["dateAdded"] == "2019-12-01")
      #expect(gideon["review"] == GoodreadsFixture.review)
      #expect(gideon["isbn10"] == "1250313198" && gideon["isbn13"] == "9781250313195")
      #expect(gideon["pageCount"] == 448 && gideon["publisher"] == "Tor.com")

      let odyssey = try Row.fetchOne(
        db,
        sql: """
          SELECT l.authors, l.status, l.rating, l.dateFinished, l.shelves, l.isbn, l.firstPublished,
            (SELECT isbn13 FROM edition WHERE workId = l.id) AS isbn13
          FROM library_list l WHERE l.title = 'The Odyssey'
          """)!
      #expect(odyssey["authors"] == "Homer, Robert Fagles, Bernard Knox")
      #expect(odyssey["status"] == "toRead")
      #expect(odyssey["rating"] == nil as Int?)
      #expect(odyssey["dateFinished"] == nil as String?)
      #expect(odyssey["shelves"] == "classics, owned-unread")
      #expect(odyssey["isbn"] == "0140268863" && odyssey["isbn13"] == nil as String?)
      #expect(odyssey["firstPublished"] == -700)
      #expect(try String.fetchOne(db, sql: "SELECT sortName FROM author WHERE name = 'Homer'") == "Homer")

      let harrow = try Row.fetchOne(db, sql: "SELECT * FROM library_list WHERE title LIKE 'Harrow%'")!
      #expect(harrow["series"] == "The Locked Tomb" && harrow["seriesPosition"] == "2")
      #expect(harrow["status"] == "reading" && harrow["authors"] == "Tamsyn Muir")

      let bad = try Row.fetchOne(db, sql: "SELECT * FROM library_list WHERE title LIKE 'A Book%'")!
      #expect(bad["isbn"] == nil as String?)
      #expect(bad["readCount"] == 2)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM author WHERE name = 'Tamsyn Muir'") == 1)
    }
  }

  /// The export saved again by a spreadsheet that separates with `;`: read as the original is,
  /// the same books with the same values.
  @Test func aSemicolonSeparatedExportReadsAsTheOriginal() throws {
    let rows = GoodreadsFixture.quirkRows
    func quoted(_ value: String) -> String {
      guard value.contains(where: { ";\"\n=,".contains($0) }) else { return value }
      return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    let header = GoodreadsFixture.newerHeader
    let semicolons =
      ([header.joined(separator: ";")] + rows.map { row in header.map { quoted(row[$0] ?? "") }.joined(separator: ";") })
      .joined(separator: "\n") + "\n"
    let original = try Self.store()
    let resaved = try Self.store()
    let counts = try load(original, GoodreadsFixture.csv(rows))
    #expect(try load(resaved, semicolons).added == counts.added)
    let sql =
      "SELECT title, authors, status, rating, dateFinished, ownedCopies, shelves, isbn FROM library_list ORDER BY title"
    let expected = try original.read { try Row.fetchAll($0, sql: sql) }
    #expect(!expected.isEmpty)
    #expect(try resaved.read { try Row.fetchAll($0, sql: sql) } == expected)
  }

  @Test func importingTheSameExportTwiceChangesNothing() throws {
    let store = try Self.store()
    let text = GoodreadsFixture.csv(GoodreadsFixture.quirkRows + GoodreadsFixture.generatedRows(200))
    _ = try load(store, text)
    let before = try dump(store)
    let again = try load(store, text, at: later)
    #expect(again.added == 0 && again.updated == 0 && again.unchanged == 205 && again.authorsAdded == 0)
    #expect(try dump(store) == before)
  }

  /// A newer export updates rows in place: the same work, edition and entry ids, new values, a
  /// new `lastModified` only where something changed.
  @Test func aNewerExportUpdatesInPlace() throws {
    let store = try Self.store()
    var rows = GoodreadsFixture.quirkRows
    _ = try load(store, GoodreadsFixture.csv(rows))
    let ids = try store.read { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT w.id AS work, e.id AS entry, d.id AS edition FROM work w JOIN library_entry e ON e.workId = w.id
          JOIN edition d ON d.workId = w.id WHERE w.goodreadsId = 1381
          """)!
    }
    rows[1]["My Rating"] = "4"
    rows[1]["Exclusive Shelf"] = "read"
    rows[1]["Date Read"] = "2026/11/01"
    rows[1]["Additional Authors"] = "Emily Wilson"
    rows.append(["Book Id": "9", "Title": "New Arrival", "Author": "Robert Fagles", "Exclusive Shelf": "to-read"])
    let counts = try load(store, GoodreadsFixture.csv(rows), at: later)
    #expect(counts.added == 1 && counts.updated == 1 && counts.unchanged == 4)
    // Emily Wilson, and Robert Fagles again: he went with his last link (the Odyssey's row comes
    // first) and came back with New Arrival.
    #expect(counts.authorsAdded == 2)
    try store.read { db in
      let after = try Row.fetchOne(
        db,
        sql: """
          SELECT w.id AS work, e.id AS entry, d.id AS edition, e.readingStatus, e.rating, w.lastModified,
            (SELECT group_concat(r.status || ' ' || coalesce(r.finished, '-'), '; ') FROM reading r
              WHERE r.workId = w.id) AS readings,
            (SELECT authors FROM library_list WHERE id = w.id) AS authors
          FROM work w JOIN library_entry e ON e.workId = w.id JOIN edition d ON d.workId = w.id
          WHERE w.goodreadsId = 1381
          """)!
      for key in ["work", "entry", "edition"] { #expect(after[key] as Int64 == ids[key] as Int64) }
      #expect(after["readingStatus"] == "read")
      #expect(after["rating"] == 4)
      // It was on to-read: now one reading, finished on its Date Read.
      #expect(after["readings"] == "read 2026-11-01")
      #expect(after["lastModified"] == later.canonical)
      #expect(after["authors"] == "Homer, Emily Wilson")
      // Bernard Knox is no longer named by any work, so he is gone; Robert Fagles still is.
      #expect(
        try String.fetchAll(db, sql: "SELECT name FROM author WHERE name IN ('Bernard Knox', 'Robert Fagles')") == [
          "Robert Fagles"
        ])
      #expect(
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM work WHERE lastModified = ?", arguments: [later.canonical])
          == 2)
    }
  }

  /// Real exports: a spreadsheet's byte-order mark before quoted header names, one author written
  /// with a run of spaces in one row and one space in another, a review whose trailing space is
  /// part of what the person wrote.
  @Test func realExportQuirksKeepOnePersonAndTheReviewAsWritten() throws {
    let store = try Self.store()
    let header = GoodreadsFixture.olderHeader
    let rows: [[String: String]] = [
      [
        "Book Id": "11", "Title": "The Book", "Author": "Elisabeth  Jaquette", "Author l-f": "Jaquette,  Elisabeth",
        "Exclusive Shelf": "read", "My Review": "Loved it. ",
      ],
      [
        "Book Id": "12", "Title": "Another", "Author": "Someone Else", "Additional Authors": "Elisabeth Jaquette",
        "Exclusive Shelf": "to-read",
      ],
    ]
    var text = "\u{FEFF}" + header.map { "\"\($0)\"" }.joined(separator: ",") + "\r\n"
    for row in rows { text += header.map { "\"\(row[$0] ?? "")\"" }.joined(separator: ",") + "\r\n" }
    let counts = try load(store, text + "\r\n")
    #expect(counts.added == 2)
    #expect(counts.authorsAdded == 2)
    let names = try store.read { try String.fetchAll($0, sql: "SELECT name FROM author ORDER BY name") }
    #expect(names == ["Elisabeth Jaquette", "Someone Else"])
    let review = try store.read {
      try String.fetchOne($0, sql: "SELECT review FROM library_entry WHERE review IS NOT NULL")
    }
    #expect(review == "Loved it. ")
    #expect(try load(store, text).unchanged == 2)
  }

  @Test func aFileThatIsNotAGoodreadsExportIsRefusedNamingTheMissingColumns() throws {
    let store = try Self.store()
    do {
      _ = try load(store, "Title,Author,Rating\nDune,Frank Herbert,5\n")
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.status == .dataError)
      #expect(error.message.contains(":1: not a Goodreads export: missing column(s) Book Id, Exclusive Shelf"))
    }
    #expect(try dump(store).isEmpty)
  }

  @Test(arguments: [
    ("My Rating", "7", "column 'My Rating': '7' is not a whole number from 0 to 5"),
    ("Date Read", "2020/13/45", "column 'Date Read': '2020/13/45' is not a date (YYYY/MM/DD)"),
    ("Book Id", "-3", "column 'Book Id': '-3' is not a positive whole number"),
    ("Number of Pages", "many", "column 'Number of Pages': 'many' is not a whole number"),
  ])
  func aMalformedRowImportsNothingWhenStrict(column: String, value: String, message: String) throws {
    let store = try Self.store()
    _ = try load(store, GoodreadsFixture.csv(GoodreadsFixture.generatedRows(3)))
    let before = try dump(store)
    var rows = GoodreadsFixture.quirkRows + GoodreadsFixture.generatedRows(5)
    rows[2][column] = value
    do {
      _ = try load(store, GoodreadsFixture.csv(rows), at: later, strict: true)
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.status == .dataError)
      // The header is line 1 and the first row's review spans two lines: row 3 starts on line 5.
      #expect(error.message.contains(".csv:5: \(message)"), "\(error.message)")
      #expect(error.message.hasSuffix("; nothing was imported"))
    }
    #expect(try dump(store) == before)
  }

  @Test func anUnclosedQuoteIsAnErrorWithItsLine() throws {
    let store = try Self.store()
    let text = GoodreadsFixture.csv(GoodreadsFixture.generatedRows(2)) + "5,\"Unclosed,Someone,,,,,0\n"
    do {
      _ = try load(store, text)
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.message.contains(".csv:4: a quoted field is not closed"))
    }
    #expect(try dump(store).isEmpty)
  }

  @Test func isbnCheckDigits() {
    #expect(ISBN.parse("0-14-044913-2")! == ("0140449132", nil))
    #expect(ISBN.parse("=\"9781250313195\"")! == (nil, "9781250313195"))
    #expect(ISBN.parse("080442957X")! == ("080442957X", nil))
    #expect(ISBN.parse("0140449133") == nil)
    #expect(ISBN.parse("9781250313196") == nil)
    #expect(ISBN.parse("=\"\"") == nil)
    #expect(ISBN.parse("12345") == nil)
    #expect(ISBN.otherForm("0441013597") == "9780441013593")
    #expect(ISBN.otherForm("9780441013593") == "0441013597")
    #expect(ISBN.otherForm("9780804429573") == "080442957X")
    #expect(ISBN.otherForm("9791032305690") == nil)
    for n in [1, 42, 123_456_789] { #expect(ISBN.isValid13(LibraryBenchmarks.isbn13(n))) }
  }

  @Test func seriesComesFromTheTitleInBothSpellings() {
    #expect(LibraryBook.series(inTitle: "Gideon the Ninth (The Locked Tomb #1)")! == ("The Locked Tomb", "1"))
    #expect(LibraryBook.series(inTitle: "Harrow the Ninth (The Locked Tomb, #2)")! == ("The Locked Tomb", "2"))
    #expect(LibraryBook.series(inTitle: "Dune (Dune Chronicles, #1-3)")! == ("Dune Chronicles", "1-3"))
    #expect(LibraryBook.series(inTitle: "The Hobbit (Annotated Edition)") == nil)
    #expect(LibraryBook.series(inTitle: "Plain") == nil)
  }
}
