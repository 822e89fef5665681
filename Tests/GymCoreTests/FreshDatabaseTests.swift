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
    #expect(try store.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "off")
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

  @Test func aDatabaseMadeMeanwhileIsKeptAndTheLoadLeftToMerge() throws {
    let target = try Fixtures.temporaryDirectory() + "/new.sqlite"
    let fresh = FreshDatabase(target: target)
    try Self.load(try fresh.openStore(modules: [Fixtures.module], options: .init()), ["mine"])
    let other = try Store(path: target, modules: [Fixtures.module])
    try Self.load(other, ["theirs"])
    try other.close()
    #expect(try fresh.publish() == false)
    #expect(try Self.names(at: target) == ["theirs"])
    #expect(try Self.names(at: fresh.partial) == ["mine"])
    fresh.discard()
    #expect(!FileManager.default.fileExists(atPath: fresh.partial))
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
