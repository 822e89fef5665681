import Foundation
import GRDB
import GymCore
import GymModules
import Testing

/// The library module's evolutions, each from the version before it.
@Suite struct LibraryEvolutionTests {
  /// library/006: every row's key becomes one that means the same row on every device, worked out
  /// here from its definition (Docs/Sync.md, "Keys"); references, the full-text index and the
  /// year's figures follow; a year's goal is keyed by its year.
  @Test func keysBecomeGlobalAndReferencesFollow() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "library/006-global-keys"))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO author (id, name, sortName) VALUES (1, 'Frank Herbert', 'Herbert, Frank'), (2, 'Ann Leckie', 'Leckie, Ann'),
            (3, 'Brian Herbert', 'Herbert, Brian');
          INSERT INTO work (id, goodreadsId, title, lastModified) VALUES (1, NULL, 'Dune', '2026-01-01T00:00:00.000Z'),
            (2, 12345, 'Ancillary Justice', '2026-01-01T00:00:00.000Z');
          INSERT INTO work_author (id, workId, authorId, position) VALUES (1, 1, 3, 1), (2, 1, 1, 0), (3, 2, 2, 0);
          INSERT INTO edition (id, workId, isbn13, pageCount, source) VALUES (1, 1, '9780441013593', 412, NULL),
            (2, 1, '9780441013593', 896, NULL), (3, 2, NULL, 386, 'goodreads');
          INSERT INTO library_entry (id, workId, readingStatus, rating) VALUES (1, 1, 'read', 5), (2, 2, 'toRead', NULL);
          INSERT INTO reading (id, workId, started, finished, status) VALUES (1, 1, NULL, '2024-02-01', 'read'),
            (2, 1, NULL, NULL, 'read'), (3, 1, NULL, NULL, 'read'), (4, 2, '2025-04-01', NULL, 'reading'),
            (5, 1, NULL, 'spring 2025', 'read');
          INSERT INTO reading_goal (year, books) VALUES (2025, 12);
          """)
    }
    try before.close()
    let after = try Store(path: path, modules: registeredModules)
    // Dune has no Goodreads id: its title and both authors, lowered and sorted bytewise ("brian
    // herbert" < "frank herbert"), joined by U+001F. Ancillary Justice: its Goodreads id.
    let dune = GlobalKey.derived("work", "dune", "brian herbert\u{1F}frank herbert")
    let justice = GlobalKey.derived("work", "goodreads", "12345")
    let frank = GlobalKey.derived("author", "frank herbert")
    let leckie = GlobalKey.derived("author", "ann leckie")
    let brian = GlobalKey.derived("author", "brian herbert")
    // A reading: days since 1900-01-01 in the high bits. 2024-02-01: 124 years of 365 days, 30 leap
    // days (1904 … 2020; 2024's is after 1 February) and the 31 days of January → 45260 + 30 + 31 = 45321.
    let mask: Int64 = (1 << 36) - 1
    let read2024 = (45321 << 36) | (GlobalKey.derived("reading", String(dune), "read", "", "2024-02-01") & mask)
    // The two undated reads of Dune are told apart by an ordinal: the second's key has a last part "1".
    let undated = GlobalKey.derived("reading", String(dune), "read", "", "") & mask
    let undatedAgain = GlobalKey.derived("reading", String(dune), "read", "", "", "1") & mask
    // 2025-04-01: 125 years of 365 days, 31 leap days (1904 … 2024), 31 + 28 + 31 days of the year
    // before it → 45625 + 31 + 90 = 45746.
    let started = (45746 << 36) | (GlobalKey.derived("reading", String(justice), "reading", "2025-04-01", "") & mask)
    // 'spring 2025' is no day: day 0.
    let spring = GlobalKey.derived("reading", String(dune), "read", "", "spring 2025") & mask
    try after.read { db in
      #expect(try Int64.fetchAll(db, sql: "SELECT id FROM work ORDER BY title") == [justice, dune])
      #expect(try Int64.fetchAll(db, sql: "SELECT id FROM author ORDER BY name") == [leckie, brian, frank])
      let links = try Row.fetchAll(
        db, sql: "SELECT id, workId, authorId, position FROM work_author ORDER BY workId, position")
      #expect(
        Set(links.map { $0[0] as Int64 })
          == Set([
            GlobalKey.derived("work_author", String(dune), String(frank)),
            GlobalKey.derived("work_author", String(dune), String(brian)),
            GlobalKey.derived("work_author", String(justice), String(leckie)),
          ]))
      #expect(
        Set(links.map { "\($0[1] as Int64) \($0[2] as Int64) \($0[3] as Int)" })
          == ["\(dune) \(frank) 0", "\(dune) \(brian) 1", "\(justice) \(leckie) 0"])
      // Two editions of Dune with one ISBN and no source: the second takes the ordinal 1.
      let editions = try Row.fetchAll(db, sql: "SELECT id, workId, pageCount FROM edition ORDER BY pageCount")
      #expect(
        editions.map { $0[0] as Int64 } == [
          GlobalKey.derived("edition", String(justice), "goodreads"),
          GlobalKey.derived("edition", String(dune), "", "9780441013593", ""),
          GlobalKey.derived("edition", String(dune), "", "9780441013593", "", "1"),
        ])
      #expect(editions.map { $0[1] as Int64 } == [justice, dune, dune])
      #expect(
        try Int64.fetchAll(db, sql: "SELECT id FROM library_entry ORDER BY rating IS NULL")
          == [GlobalKey.derived("library_entry", String(dune)), GlobalKey.derived("library_entry", String(justice))])
      #expect(
        Set(try Int64.fetchAll(db, sql: "SELECT id FROM reading"))
          == [read2024, undated, undatedAgain, started, spring])
      #expect(try Int64.fetchOne(db, sql: "SELECT workId FROM reading WHERE id = ?", arguments: [started]) == justice)
      // The full-text index and the year's figures are the moved rows' own.
      #expect(
        try Int64.fetchAll(db, sql: "SELECT rowid FROM work_search WHERE work_search MATCH 'herbert'") == [dune])
      #expect(
        try Row.fetchAll(db, sql: "SELECT readingId, workId, pages, rating FROM reading_book ORDER BY readingId")
          .map { "\($0[0] as Int64) \($0[1] as Int64) \($0[2] as Int) \($0[3] as Int)" }
          == ["\(min(read2024, spring)) \(dune) 896 5", "\(max(read2024, spring)) \(dune) 896 5"])
      #expect(
        try Row.fetchAll(db, sql: "SELECT year, authorId, books FROM reading_author_year ORDER BY authorId")
          .map { "\($0[0] as Int) \($0[1] as Int64) \($0[2] as Int)" }
          == ["2024 \(min(frank, brian)) 1", "2024 \(max(frank, brian)) 1"])
      #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
      // The figures' triggers, dropped while the keys moved, are back: three on each of five tables.
      #expect(
        try Int.fetchOne(
          db,
          sql: """
            SELECT count(*) FROM sqlite_master WHERE type = 'trigger'
              AND (name LIKE 'reading\\_book\\_%' ESCAPE '\\' OR name LIKE 'reading\\_author\\_%' ESCAPE '\\')
            """) == 15)
      #expect(
        try Row.fetchAll(db, sql: "SELECT year, books FROM reading_goal").map { "\($0[0] as Int) \($0[1] as Int)" } == [
          "2025 12"
        ])
      #expect(
        try Bool.fetchOne(db, sql: "SELECT pk FROM pragma_table_info('reading_goal') WHERE name = 'year'") == true)
    }
  }

  /// library/005: the year's figures are worked out from the library the version before held: each
  /// read reading with a finish day a book with its work's longest edition, its rating and whether
  /// it is a re-read; each author's books per year. Then the triggers keep them.
  @Test func yearFiguresAreFilledFromTheLibrary() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(
      path: path, modules: HistoryEvolutionTests.modules(before: "library/005-reading-year-figures"))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO author (id, name, sortName) VALUES (1, 'Frank Herbert', 'Herbert, Frank'), (2, 'Ann Leckie', 'Leckie, Ann');
          INSERT INTO work (id, title, lastModified) VALUES (1, 'Dune', '2026-01-01T00:00:00.000Z'),
            (2, 'Ancillary Justice', '2026-01-01T00:00:00.000Z');
          INSERT INTO work_author (workId, authorId, position) VALUES (1, 1, 0), (2, 2, 0);
          INSERT INTO edition (workId, pageCount) VALUES (1, 412), (1, 896), (2, NULL);
          INSERT INTO library_entry (workId, readingStatus, rating) VALUES (1, 'read', 5), (2, 'read', NULL);
          INSERT INTO reading (id, workId, finished, status) VALUES (1, 1, '2024-02-01', 'read'), (2, 1, '2025-03-01', 'read'),
            (3, 2, '2025-04-01', 'read'), (4, 2, NULL, 'read'), (5, 2, 'spring 2025', 'read'), (6, 1, '2025-06-01', 'abandoned');
          """)
    }
    try before.close()
    let after = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "library/006-global-keys"))
    try after.read { db in
      // Readings 1, 2, 3 and 5 are read with a finish; Dune's longest edition is 896 pages, rated 5.
      // Reading 2 re-reads Dune (1 came first); 3 and 5 come after the undated read reading 4 of the
      // same work, so they are re-reads too.
      let books = try Row.fetchAll(
        db, sql: "SELECT readingId, finished, workId, pages, rating, isReread FROM reading_book ORDER BY readingId")
      #expect(books.map { $0[0] as Int64 } == [1, 2, 3, 5])
      #expect(books.map { $0[3] as Int? } == [896, 896, nil, nil])
      #expect(books.map { $0[4] as Double? } == [5, 5, nil, nil])
      #expect(books.map { $0[5] as Bool } == [false, true, true, true])
      // Per year and author: 2024 Herbert 1; 2025 Herbert 1 (the abandoned one is no book), Leckie 1
      // ('spring 2025' is not a day: it counts in no year).
      let authors = try Row.fetchAll(
        db, sql: "SELECT year, authorId, books FROM reading_author_year ORDER BY year, authorId"
      ).map { "\($0[0] as Int) \($0[1] as Int) \($0[2] as Int)" }
      #expect(authors == ["2024 1 1", "2025 1 1", "2025 2 1"])
    }
  }

  /// library/004: the goals table arrives empty beside the works and readings of the version before,
  /// which stay; a year's goal is then one row a year.
  @Test func readingGoalsArriveEmpty() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "library/004-reading-goal"))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO work (id, title, lastModified) VALUES (1, 'Dune', '2026-01-01T00:00:00.000Z');
          INSERT INTO reading (workId, finished, status) VALUES (1, '2025-03-01', 'read');
          """)
    }
    try before.close()
    let after = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "library/006-global-keys"))
    let (readings, goals) = try after.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reading"),
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reading_goal")
      )
    }
    #expect(readings == 1 && goals == 0)
    try after.write { db in try db.execute(sql: "INSERT INTO reading_goal (year, books) VALUES (2025, 12)") }
    let twice = try? after.write { db in try db.execute(sql: "INSERT INTO reading_goal (year, books) VALUES (2025, 5)")
    }
    #expect(twice == nil)  // one goal a year
  }

  /// Three authors: one on two works, one on one, one on none (kept by the author table alone).
  @Test func authorsViewCountsEachAuthorsWorks() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "library/002-authors-view"))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO author (id, name, sortName) VALUES (1, 'Ann Leckie', 'Leckie, Ann'), (2, 'Homer', 'Homer'),
            (3, 'Nobody Yet', 'Yet, Nobody');
          INSERT INTO work (id, title, lastModified) VALUES (1, 'Ancillary Justice', '2026-01-01T00:00:00.000Z'),
            (2, 'Ancillary Sword', '2026-01-01T00:00:00.000Z'), (3, 'The Odyssey', '2026-01-01T00:00:00.000Z');
          INSERT INTO work_author (workId, authorId, position) VALUES (1, 1, 0), (2, 1, 0), (3, 2, 0);
          """)
    }
    try before.close()
    let after = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "library/006-global-keys"))
    let rows = try after.read { db in
      try Row.fetchAll(db, sql: "SELECT id, name, sortName, works FROM library_authors ORDER BY id").map {
        "\($0["id"] as Int64) \($0["name"] as String) \($0["sortName"] as String) \($0["works"] as Int64)"
      }
    }
    #expect(rows == ["1 Ann Leckie Leckie, Ann 2", "2 Homer Homer 1", "3 Nobody Yet Yet, Nobody 0"])
    // Every table's rows are as they were.
    let counts = try after.read { db in
      try ["author", "work", "work_author"].map { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") }
    }
    #expect(counts == [3, 3, 3])
  }

  /// library/003: entries become readings, losing nothing.
  /// - 1, read three times, last from 2024-01-02 to 2024-02-03: one dated reading and two undated.
  /// - 2, on the read shelf with no dates and readCount 0: one undated read (the shelf says it was).
  /// - 3, being read since 2026-11-01: one reading in progress.
  /// - 4, abandoned, no dates: one abandoned reading.
  /// - 5, to read, no dates, readCount 0: none.
  /// - 6, being read, no dates, read once before: one undated reading in progress and one undated read.
  /// - 7, being read again after a read from 2024-01-01 to 2024-02-01: that read, and one in progress.
  /// - 8, read, a start alone written 2025/03/01: a read reading from 2025-03-01.
  /// - 9, read, `2024-05-01 10:00:00` to `spring 2019`, rated 4.3: the start as a date, the finish kept as
  ///   written, the rating as it is.
  /// - 10, to read, a start alone: abandoned (started, not finished, not being read).
  /// - 11, being read, started 2026-02-01 after a finish on 2025-12-01: a read finished then, and the reading
  ///   in progress from the start.
  /// The entries keep their shelf, rating (now a number of stars, 5 → 5.0), review, dateAdded, copies and tags.
  @Test func entriesBecomeReadings() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "library/003-readings"))
    try before.write { db in
      for id in 1...11 {
        try db.execute(
          sql: "INSERT INTO work (id, title, lastModified) VALUES (?, ?, '2026-01-01T00:00:00.000Z')",
          arguments: [id, "Work \(id)"])
      }
      try db.execute(
        sql: """
          INSERT INTO library_entry (workId, readingStatus, rating, dateAdded, dateStarted, dateFinished, review,
            readCount, ownedCopies, shelves)
          VALUES (1, 'read', 5, '2023-12-24', '2024-01-02', '2024-02-03', 'Again, and again.', 3, 1, 'favourites'),
            (2, 'read', NULL, NULL, NULL, NULL, NULL, 0, 0, NULL),
            (3, 'reading', NULL, '2026-10-30', '2026-11-01', NULL, NULL, 0, 0, NULL),
            (4, 'abandoned', 2, NULL, NULL, NULL, 'Not for me.', 0, 0, 'did-not-finish'),
            (5, 'toRead', NULL, '2026-11-20', NULL, NULL, NULL, 0, 2, NULL),
            (6, 'reading', NULL, NULL, NULL, NULL, NULL, 1, 0, NULL),
            (7, 'reading', NULL, NULL, '2024-01-01', '2024-02-01', NULL, 0, 0, NULL),
            (8, 'read', NULL, NULL, '2025/03/01', NULL, NULL, 0, 0, NULL),
            (9, 'read', 4.3, NULL, '2024-05-01 10:00:00', 'spring 2019', NULL, 0, 0, NULL),
            (10, 'toRead', NULL, NULL, '2026-06-01', NULL, NULL, 0, 0, NULL),
            (11, 'reading', NULL, NULL, '2026-02-01', '2025-12-01', NULL, 0, 0, NULL)
          """)
    }
    try before.close()
    let after = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "library/006-global-keys"))
    func rows(_ sql: String, named: Bool = false) throws -> [String] {
      try after.read { db in
        try Row.fetchAll(db, sql: sql).map { row in
          let cells: [String] = row.columnNames.map { name in
            let value: DatabaseValue = row[name]
            return named ? "\(name)=\(value)" : "\(value)"
          }
          return cells.joined(separator: " ")
        }
      }
    }
    let readings = try rows(
      "SELECT workId, coalesce(started, '-'), coalesce(finished, '-'), status, pages, percent FROM reading ORDER BY id")
    let entries = try rows("SELECT * FROM library_entry ORDER BY workId", named: true)
    let list = try rows("SELECT id, status, dateStarted, dateFinished, readCount FROM library_list ORDER BY id")
    // The entries' own readings first (by work), then the readings in progress beside a finished one,
    // then the undated reads.
    #expect(
      readings == [
        #"1 "2024-01-02" "2024-02-03" "read" NULL NULL"#, #"3 "2026-11-01" "-" "reading" NULL NULL"#,
        #"4 "-" "-" "abandoned" NULL NULL"#, #"6 "-" "-" "reading" NULL NULL"#,
        #"7 "2024-01-01" "2024-02-01" "read" NULL NULL"#, #"8 "2025-03-01" "-" "read" NULL NULL"#,
        #"9 "2024-05-01" "spring 2019" "read" NULL NULL"#, #"10 "2026-06-01" "-" "abandoned" NULL NULL"#,
        #"11 "-" "2025-12-01" "read" NULL NULL"#,
        #"7 "-" "-" "reading" NULL NULL"#, #"11 "2026-02-01" "-" "reading" NULL NULL"#,
        #"1 "-" "-" "read" NULL NULL"#, #"1 "-" "-" "read" NULL NULL"#, #"2 "-" "-" "read" NULL NULL"#,
        #"6 "-" "-" "read" NULL NULL"#,
      ])
    #expect(
      entries == [
        "id=1 workId=1 readingStatus=\"read\" rating=5.0 dateAdded=\"2023-12-24\" review=\"Again, and again.\" ownedCopies=1 shelves=\"favourites\"",
        "id=2 workId=2 readingStatus=\"read\" rating=NULL dateAdded=NULL review=NULL ownedCopies=0 shelves=NULL",
        "id=3 workId=3 readingStatus=\"reading\" rating=NULL dateAdded=\"2026-10-30\" review=NULL ownedCopies=0 shelves=NULL",
        "id=4 workId=4 readingStatus=\"abandoned\" rating=2.0 dateAdded=NULL review=\"Not for me.\" ownedCopies=0 shelves=\"did-not-finish\"",
        "id=5 workId=5 readingStatus=\"toRead\" rating=NULL dateAdded=\"2026-11-20\" review=NULL ownedCopies=2 shelves=NULL",
        "id=6 workId=6 readingStatus=\"reading\" rating=NULL dateAdded=NULL review=NULL ownedCopies=0 shelves=NULL",
        "id=7 workId=7 readingStatus=\"reading\" rating=NULL dateAdded=NULL review=NULL ownedCopies=0 shelves=NULL",
        "id=8 workId=8 readingStatus=\"read\" rating=NULL dateAdded=NULL review=NULL ownedCopies=0 shelves=NULL",
        "id=9 workId=9 readingStatus=\"read\" rating=4.3 dateAdded=NULL review=NULL ownedCopies=0 shelves=NULL",
        "id=10 workId=10 readingStatus=\"toRead\" rating=NULL dateAdded=NULL review=NULL ownedCopies=0 shelves=NULL",
        "id=11 workId=11 readingStatus=\"reading\" rating=NULL dateAdded=NULL review=NULL ownedCopies=0 shelves=NULL",
      ])
    // The list shows what the entry showed: the dates of the latest reading, reads counted.
    #expect(
      list == [
        "1 \"read\" \"2024-01-02\" \"2024-02-03\" 3", "2 \"read\" NULL NULL 1",
        "3 \"reading\" \"2026-11-01\" NULL 0", "4 \"abandoned\" NULL NULL 0", "5 \"toRead\" NULL NULL 0",
        "6 \"reading\" NULL NULL 1",
        // 7: the latest is the one in progress (undated); the last finish; one read.
        "7 \"reading\" NULL \"2024-02-01\" 1", "8 \"read\" \"2025-03-01\" NULL 1",
        "9 \"read\" \"2024-05-01\" \"spring 2019\" 1", "10 \"toRead\" \"2026-06-01\" NULL 0",
        "11 \"reading\" \"2026-02-01\" \"2025-12-01\" 1",
      ])
  }
}
