import Foundation
import GRDB
import Testing

@testable import GymCore

/// A database made by one load: nothing at its path until the load succeeds, then a whole WAL
/// database; one made meanwhile by another command is never replaced.
@Suite struct FreshDatabaseTests {
  static func load(_ store: Store, _ names: [String]) throws {
    try store.write { db in
      for (i, name) in names.enumerated() {
        try db.execute(
          sql: "INSERT INTO item (id, name, kind, size, at) VALUES (?, ?, 'a', ?, '2026-11-24T10:00:00.000Z')",
          arguments: [UUID().uuidString.lowercased(), name, i])
      }
    }
  }

  static func names(at path: String) throws -> [String] {
    try Store(path: path, modules: [Fixtures.module]).read { db in
      try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY seq")
    }
  }

  @Test func nothingIsAtThePathUntilTheLoadIsPublished() throws {
    let target = try Fixtures.temporaryDirectory() + "/new.sqlite"
    let fresh = FreshDatabase(target: target)
    let store = try fresh.openStore(modules: [Fixtures.module], options: .init())
    #expect(try store.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "memory")
    try Self.load(store, ["one", "two"])
    #expect(!FileManager.default.fileExists(atPath: target))
    #expect(try fresh.publish())
    #expect(!FileManager.default.fileExists(atPath: fresh.partial))
    #expect(try Self.names(at: target) == ["one", "two"])
    let mode = try Store(path: target, modules: [Fixtures.module]).read {
      try String.fetchOne($0, sql: "PRAGMA journal_mode")
    }
    #expect(mode == "wal")
  }

  /// A key given twice in a load into a new database: the unique index's first build fails on it,
  /// that statement is undone, the repeat removed, and every index is built whole. Without a
  /// journal the failed build stayed half-made (`row 2 missing from index item_id`).
  @Test(arguments: [ConflictPolicy.updateChanged(key: "id"), .keepExisting(key: ["id"])])
  func aKeyGivenTwiceInANewDatabaseLeavesEveryIndexWhole(conflict: ConflictPolicy) throws {
    let fresh = FreshDatabase(target: try Fixtures.temporaryDirectory() + "/new.sqlite")
    defer { fresh.discard() }
    let store = try fresh.openStore(modules: [Fixtures.module], options: .init())
    let id = "6f9619ff-8b86-d011-b42d-00c04fc964ff"
    let records = [
      #"{"id":"\#(id)","name":"first","kind":"a","size":1,"at":"2025-01-01T10:00:00Z"}"#,
      #"{"id":"0f9619ff-8b86-d011-b42d-00c04fc964ff","name":"other","kind":"b","size":2,"at":"2025-01-02T10:00:00Z"}"#,
      #"{"id":"\#(id)","name":"last","kind":"a","size":3,"at":"2025-01-03T10:00:00Z"}"#,
    ]
    let counts = try store.write { db in
      var scanner = JSONRecordScanner(input: .memory(Array(records.joined(separator: "\n").utf8)))
      return try BulkLoader(table: Fixtures.table, conflict: conflict, db: db).load(from: &scanner)
    }
    // Three records, two keys: one row per key, the repeat counted as an update (the last record
    // wins) or as unchanged (the first is kept).
    #expect(counts.inserted == 2)
    #expect(conflict == .updateChanged(key: "id") ? counts.updated == 1 : counts.unchanged == 1)
    try store.read { db in
      #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM item") == 2)
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM item INDEXED BY item_id") == 2)
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM item INDEXED BY item_kind_at") == 2)
      let kept = try String.fetchOne(db, sql: "SELECT name FROM item INDEXED BY item_id WHERE id = ?", arguments: [id])
      #expect(kept == (conflict == .updateChanged(key: "id") ? "last" : "first"))
    }
  }

  @Test func aDatabaseMadeMeanwhileIsKeptAndTheLoadLeftToMerge() throws {
    let target = try Fixtures.temporaryDirectory() + "/new.sqlite"
    let fresh = FreshDatabase(target: target)
    let loaded = try fresh.openStore(modules: [Fixtures.module], options: .init())
    try Self.load(loaded, ["mine"])
    let other = try Store(path: target, modules: [Fixtures.module])
    try Self.load(other, ["theirs"])
    // A row both have, by its key (the id): already there, left alone.
    let shared = "00000000-0000-4000-8000-000000000001"
    for store in [loaded, other] {
      try store.write { db in
        try db.execute(
          sql: "INSERT INTO item (id, name, kind, size, at) VALUES (?, 'both', 'a', 9, '2026-11-24T10:00:00.000Z')",
          arguments: [shared])
      }
    }
    try other.close()
    #expect(try fresh.publish() == false)
    #expect(try Self.names(at: target) == ["theirs", "both"])
    #expect(try Self.names(at: fresh.partial) == ["mine", "both"])
    // Merged, as `gym import --merge` would: both rows kept, the temporary database gone; of the
    // load's two rows one added ("mine") and one already there ("both").
    try fresh.mergeIntoTarget().close()
    #expect(fresh.merged?.added == 1 && fresh.merged?.existing == 1)
    #expect(try Self.names(at: target) == ["theirs", "both", "mine"])
    #expect(!FileManager.default.fileExists(atPath: fresh.partial))
  }

  /// The early fsync's failure is the publish's: the kernel reports a write-back error to one
  /// fsync only, so the publish's own fsync, which passes here, cannot stand for it.
  @Test func theEarlySyncsFailureFailsThePublish() throws {
    let target = try Fixtures.temporaryDirectory() + "/new.sqlite"
    let fresh = FreshDatabase(target: target)
    defer { fresh.discard() }
    try Self.load(try fresh.openStore(modules: [Fixtures.module], options: .init()), ["mine"])
    // The early fsync finds no file (moved away for it), then the file is back for the publish.
    #expect(rename(fresh.partial, fresh.partial + ".away") == 0)
    fresh.startSync()
    #expect(throws: SystemError.self) { try fresh.earlySync?.wait() }
    #expect(rename(fresh.partial + ".away", fresh.partial) == 0)
    #expect(throws: StoreError.self) { try fresh.publish() }
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  @Test(arguments: [false, true]) func aFailedLoadLeavesNothingOrAnEmptyDatabase(leavingEmpty: Bool) throws {
    let directory = try Fixtures.temporaryDirectory()
    let target = directory + "/new.sqlite"
    let fresh = FreshDatabase(target: target)
    try Self.load(try fresh.openStore(modules: [Fixtures.module], options: .init()), ["lost"])
    fresh.discard(leavingEmpty: leavingEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == (leavingEmpty ? ["new.sqlite"] : []))
    if leavingEmpty { #expect(try Self.names(at: target).isEmpty) }
  }
}
