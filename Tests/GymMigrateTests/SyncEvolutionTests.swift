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

  /// `sync/004-store-identity`: a database made before it gets an identity of its own (32 lowercase
  /// hexadecimal digits, 128 random bits), two databases two different ones, and the identity stays
  /// what it is when the database is opened again; every row is kept.
  @Test func aDatabaseFromBeforeIdentitiesGetsOneOfItsOwn() throws {
    let identifier = "sync/004-store-identity"
    var identities: [String] = []
    for _ in 0..<2 {
      let path = try MigrationFixtures.temporaryPath()
      let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: identifier))
      try before.write { db in
        #expect(try !db.tableExists("store_identity"))
        try db.execute(
          sql: "INSERT INTO sync_device (only, device, since) VALUES (1, 'laptop', '2026-11-20T08:00:00Z')")
      }
      try before.close()
      let after = try Store(path: path, modules: registeredModules)
      let identity = try #require(try after.read { try StoreIdentity.id($0) })
      #expect(identity.count == 32 && identity.allSatisfy { "0123456789abcdef".contains($0) })
      #expect(try after.read { try ChangeLog.device($0) } == "laptop")
      #expect(try after.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM store_identity") } == 1)
      try after.close()
      let again = try Store(path: path, modules: registeredModules)
      #expect(try again.read { try StoreIdentity.id($0) } == identity)
      identities.append(identity)
    }
    #expect(identities[0] != identities[1])
  }

  /// `sync/005-device-recipient`: a device that began before it keeps its name and log, with no
  /// recipient recorded yet (its next sync checks the identity against its own file and records it).
  @Test func aDeviceFromBeforeRecipientsHasNoneRecorded() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "sync/005-device-recipient"))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO sync_device (only, device, since) VALUES (1, 'laptop', '2026-11-20T08:00:00Z');
          INSERT INTO sync_change (device, seq, hlc, changeset, effect, pushed) VALUES
            ('laptop', 1, 117000000000000000, x'54', NULL, 1);
          """)
    }
    try before.close()
    let after = try Store(path: path, modules: registeredModules)
    try after.read { (db: Database) throws in
      #expect(try ChangeLog.device(db) == "laptop")
      #expect(try ChangeLog.recipient(db) == nil)
      #expect(try ChangeLog.sequences(db, device: "laptop") == [1])
    }
    // Recorded once: a second recipient does not replace the first; a value that is not one is refused.
    let first = "age1" + String(repeating: "q", count: 58)
    try after.write { db in
      try ChangeLog.recordRecipient(db, first)
      try ChangeLog.recordRecipient(db, "age1" + String(repeating: "p", count: 58))
    }
    #expect(try after.read { try ChangeLog.recipient($0) } == first)
    let refused = #expect(throws: DatabaseError.self) {
      try after.write { try $0.execute(sql: "UPDATE sync_device SET recipient = 'AGE-SECRET-KEY-1XYZ'") }
    }
    #expect(refused?.resultCode == .SQLITE_CONSTRAINT)
  }
}
