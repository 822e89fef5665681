import GRDB
import GymCore
import Testing

@testable import GymLibrary

/// The year's figures are kept by triggers as the library is written. After every kind of write
/// (readings added, finished, moved, removed; editions and ratings changed; authors added and
/// removed), in random order, they equal the figures worked out from the tables from scratch
/// (the fill statements run into empty copies), and a hand-made case gives the values expected.
@Suite struct ReadingFiguresTests {
  /// Both derived tables as rows, sorted.
  static func figures(_ db: Database, books: String = "reading_book", authors: String = "reading_author_year") throws
    -> [String]
  {
    try String.fetchAll(
      db,
      sql: """
        SELECT 'b ' || readingId || ' ' || finished || ' ' || workId || ' ' || quote(pages) || ' ' || quote(rating)
          || ' ' || isReread FROM \(books)
        UNION ALL SELECT 'a ' || year || ' ' || authorId || ' ' || books FROM \(authors)
        ORDER BY 1
        """)
  }

  /// The figures worked out from the tables as they are now.
  static func recomputed(_ db: Database) throws -> [String] {
    try db.execute(
      sql: """
        CREATE TEMP TABLE fresh_book AS SELECT * FROM reading_book WHERE 0;
        CREATE TEMP TABLE fresh_author AS SELECT * FROM reading_author_year WHERE 0;
        """)
    defer { try? db.execute(sql: "DROP TABLE temp.fresh_book; DROP TABLE temp.fresh_author") }
    try db.execute(
      sql: ReadingFigures.fillBooks.replacingOccurrences(of: "INSERT INTO reading_book", with: "INSERT INTO fresh_book")
    )
    try db.execute(
      sql: ReadingFigures.fillAuthors.replacingOccurrences(
        of: "INSERT INTO reading_author_year", with: "INSERT INTO fresh_author"))
    return try figures(db, books: "fresh_book", authors: "fresh_author")
  }

  @Test func everyWriteKeepsTheFiguresAsTheTablesSay() throws {
    let store = try LibraryQueryTests.store(works: 60)
    var random = UInt64(42)
    func next(_ n: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(n))
    }
    try store.write { db in
      #expect(try Self.figures(db) == Self.recomputed(db))
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM reading_book")! > 20)
      for step in 0..<400 {
        let work = 1 + next(60)
        let day = "20\(20 + next(6))-0\(1 + next(9))-1\(next(9))"
        switch next(10) {
        case 0:
          try db.execute(
            sql: "INSERT INTO reading (workId, finished, status) VALUES (?, ?, 'read')", arguments: [work, day])
        case 1:
          try db.execute(
            sql:
              "UPDATE reading SET status = 'read', finished = ? WHERE id = (SELECT min(id) FROM reading WHERE workId = ?)",
            arguments: [day, work])
        case 2:
          try db.execute(
            sql: "DELETE FROM reading WHERE id = (SELECT max(id) FROM reading WHERE workId = ?)", arguments: [work])
        case 3:
          try db.execute(
            sql: "UPDATE reading SET workId = ? WHERE id = (SELECT min(id) FROM reading WHERE workId = ?)",
            arguments: [1 + next(60), work])
        case 4:
          try db.execute(
            sql: "INSERT INTO edition (workId, pageCount) VALUES (?, ?)",
            arguments: [work, next(3) == 0 ? nil : 50 + next(900)])
        case 5:
          try db.execute(
            sql: "UPDATE edition SET pageCount = ? WHERE id = (SELECT min(id) FROM edition WHERE workId = ?)",
            arguments: [next(1000), work])
        case 6:
          try db.execute(
            sql: "DELETE FROM edition WHERE id = (SELECT max(id) FROM edition WHERE workId = ?)", arguments: [work])
        case 7:
          try db.execute(
            sql: "UPDATE library_entry SET rating = ? WHERE workId = ?",
            arguments: [next(2) == 0 ? nil : 1 + next(5), work])
        case 8:
          try db.execute(
            sql: "INSERT OR IGNORE INTO work_author (workId, authorId, position) VALUES (?, ?, ?)",
            arguments: [work, 1 + next(18), 5 + next(5)])
        default:
          try db.execute(
            sql:
              "DELETE FROM work_author WHERE id = (SELECT max(id) FROM work_author WHERE workId = ?) AND (SELECT count(*) FROM work_author WHERE workId = ?) > 1",
            arguments: [work, work])
        }
        if step % 20 == 19 { #expect(try Self.figures(db) == Self.recomputed(db), "after step \(step)") }
      }
    }
  }

  /// One author, one work of 300 and 420 pages rated 4, read in 2023 and twice in 2024: 2024 has
  /// two books (the second a re-read, and the 2023 one makes the first a re-read too), 420 pages
  /// each, the author with 2; a second author added later counts for 2024's two as well.
  @Test func aHandMadeYear() throws {
    let store = try GoodreadsImportTests.store()
    try store.write { db in
      try db.execute(
        sql: """
          INSERT INTO author (id, name, sortName) VALUES (1, 'Ann Leckie', 'Leckie, Ann'), (2, 'Co Author', 'Author, Co');
          INSERT INTO work (id, title, lastModified) VALUES (1, 'Ancillary Justice', '2024-01-01T00:00:00.000Z');
          INSERT INTO work_author (workId, authorId, position) VALUES (1, 1, 0);
          INSERT INTO edition (workId, pageCount) VALUES (1, 300), (1, 420);
          INSERT INTO library_entry (workId, readingStatus, rating) VALUES (1, 'read', 4);
          INSERT INTO reading (id, workId, finished, status) VALUES (1, 1, '2024-03-01', 'read'), (2, 1, '2023-05-05', 'read'),
            (3, 1, '2024-09-09', 'read'), (4, 1, '2024-10-10', 'abandoned');
          INSERT INTO work_author (workId, authorId, position) VALUES (1, 2, 1);
          """)
      let year = try ReadingYear.compute(db, year: 2024, goal: nil, today: "2026-01-01")
      #expect(year.books.map(\.finished) == ["2024-03-01", "2024-09-09"])
      #expect(year.books.map(\.isReread) == [true, true])
      #expect(year.pages == 420 + 420)
      #expect(year.averageRating == 4)
      #expect(year.abandoned == 1)
      #expect(year.authors.map(\.name) == ["Co Author", "Ann Leckie"])  // 2 each: by sort name
      #expect(year.authors.map(\.books) == [2, 2])
      let earlier = try ReadingYear.compute(db, year: 2023, goal: nil, today: "2026-01-01")
      #expect(earlier.books.map(\.isReread) == [false])
    }
  }
}
