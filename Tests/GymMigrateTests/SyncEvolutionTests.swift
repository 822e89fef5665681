import Foundation
import GRDB
import GymCore
import GymModules
import Testing

/// `sync/002-bases`: a log begun before bases existed keeps every change, its device and what it
/// pushed; no base stands for anything yet, so what it holds of each device is its own entries.
@Suite struct SyncEvolutionTests {
  @Test func aLogBegunBeforeBasesKeepsEveryChange() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "sync/002-bases"))
    try before.write { db in
      #expect(try !db.tableExists("sync_base"))
      try db.execute(
        sql: """
          INSERT INTO sync_device (only, device, since) VALUES (1, 'laptop', '2026-11-20T08:00:00Z');
          INSERT INTO sync_change (device, seq, hlc, changeset, effect, pushed) VALUES
            ('laptop', 1, 117000000000000000, x'54', NULL, 1),
            ('phone', 1, 117000000000000001, x'54', x'', 1),
            ('phone', 2, 117000000000000002, x'54', x'', 1),
            ('laptop', 2, 117000000000000003, x'54', NULL, 0);
          """)
    }
    try before.close()
    let after = try Store(path: path, modules: registeredModules)
    try after.read { (db: Database) throws in
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_base") == 0)
      #expect(try SyncBase.covers(db).isEmpty)
      #expect(try ChangeLog.device(db) == "laptop")
      #expect(try ChangeLog.sequences(db, device: "phone") == [1, 2])
      #expect(try ChangeLog.unpushed(db, device: "laptop").map(\.seq) == [2])
      #expect(try ChangeLog.latestClock(db) == 117_000_000_000_000_003)
    }
  }

  /// `sync/003-synced-tables`: a log begun before it recorded the pantry's and the library's
  /// tables, so those are begun and history is not (it begins at the next sync); a database that
  /// never synced begins none.
  @Test func aLogBegunBeforeTheTableListHoldsThePantryAndTheLibrary() throws {
    let identifier = "sync/003-synced-tables"
    let synced = try MigrationFixtures.temporaryPath()
    let never = try MigrationFixtures.temporaryPath()
    for path in [synced, never] {
      let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: identifier))
      if path == synced {
        try before.write { db in
          try db.execute(
            sql: "INSERT INTO sync_device (only, device, since) VALUES (1, 'laptop', '2026-11-20T08:00:00Z')")
        }
      }
      try before.close()
    }
    let pantryAndLibrary: Set = [
      "grocery_item", "recipe", "recipe_ingredient", "item_conversion", "stock_lot", "cooking", "stock_use", "author",
      "work", "work_author", "library_entry", "edition", "reading", "reading_goal",
    ]
    let after = try Store(path: synced, modules: registeredModules)
    #expect(try after.read { try ChangeLog.begun($0) } == pantryAndLibrary)
    // Every table that synced then is a synced table now; history's are the ones not begun.
    let now = Set(after.syncedTables.map(\.name))
    #expect(pantryAndLibrary.isSubset(of: now))
    #expect(
      now.subtracting(pantryAndLibrary) == ["workout", "workout_set", "sample", "exercise_alias", "sample_source"])
    let fresh = try Store(path: never, modules: registeredModules)
    #expect(try fresh.read { try ChangeLog.begun($0) }.isEmpty)
  }
}
