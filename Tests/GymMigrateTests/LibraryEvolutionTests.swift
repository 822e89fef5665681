import Foundation
import GRDB
import GymCore
import GymModules
import Testing

/// The library module's evolutions, each from the version before it.
@Suite struct LibraryEvolutionTests {
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
    let after = try Store(path: path, modules: registeredModules)
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
}
