import Foundation
import GRDB
import Testing

@testable import GymCore

@Suite struct StoreTests {
  @Test func createsDirectoryAndMigratesOnFirstUse() throws {
    let path = try Fixtures.temporaryDirectory() + "/nested/dir/gym.sqlite"
    let store = try Store(path: path, modules: [Fixtures.module])
    let applied = try store.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
    #expect(applied == ["fixture/001-items"])
    let journal = try store.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
    #expect(journal == "wal")
    let foreignKeys = try store.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") }
    #expect(foreignKeys == true)
  }

  @Test func refusesAFileThatIsNotSQLiteAndLeavesItUntouched() throws {
    let path = try Fixtures.temporaryDirectory() + "/notes.txt"
    let content = Data("my precious notes\n".utf8)
    try content.write(to: URL(fileURLWithPath: path))
    #expect(throws: StoreError.notADatabase(path: path)) { try Store(path: path, modules: [Fixtures.module]) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
  }

  @Test func refusesAForeignSQLiteDatabaseWithoutWritingToIt() throws {
    let path = try Fixtures.temporaryDirectory() + "/other.sqlite"
    try DatabaseQueue(path: path).write {
      try $0.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(throws: StoreError.foreignDatabase(path: path)) { try Store(path: path, modules: [Fixtures.module]) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  /// A database cut short (a copy stopped part-way) is malformed to SQLite: a store refuses it as
  /// damaged (65, with what to do), not as an error without a name.
  @Test func aDatabaseCutShortIsDamaged() throws {
    let store = try Fixtures.store(rows: 2000)
    let path = store.path
    try store.close()
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(whole.count > 40_960)  // more pages than the first ten
    try whole.prefix(40_960).write(to: URL(fileURLWithPath: path))
    #expect(throws: StoreError.damaged(path: path)) {
      let reopened = try Store(path: path, modules: [Fixtures.module])
      _ = try reopened.read { try Int.fetchOne($0, sql: "SELECT SUM(size) FROM item") }
    }
  }

  /// A `-wal` with changes in it and no database beside it (moved without it): a new database there
  /// would make SQLite delete it as a crash's leftover. Refused, the WAL untouched.
  @Test func refusesToCreateADatabaseBesideAWALWithoutOne() throws {
    let path = try Fixtures.temporaryDirectory() + "/gym.sqlite"
    let wal = Data(repeating: 7, count: 4096)
    #expect(FileManager.default.createFile(atPath: path + "-wal", contents: wal))
    let error = #expect(throws: StoreError.self) { _ = try Store(path: path, modules: [Fixtures.module]) }
    #expect(
      error?.description.contains("holds changes of a database that is not at") == true, "\(String(describing: error))")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == wal)
    #expect(!FileManager.default.fileExists(atPath: path))
    // Beside an empty file too (SQLite deleted the WAL of a database of no pages), and for an import
    // building the new database beside the path.
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    #expect(throws: StoreError.self) { _ = try Store(path: path, modules: [Fixtures.module]) }
    let fresh = FreshDatabase(target: path)
    defer { fresh.discard() }
    #expect(throws: StoreError.self) { _ = try fresh.openStore(modules: [Fixtures.module], options: .init()) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == wal)
  }

  @Test func refusesADatabaseFromANewerGym() throws {
    let path = try Fixtures.temporaryDirectory() + "/gym.sqlite"
    let newer = GymModule(
      name: "fixture",
      migrations: Fixtures.module.migrations + [Migration("fixture/002-future", .additive, sql: "SELECT 1")],
      tables: [Fixtures.table])
    _ = try Store(path: path, modules: [newer])
    #expect(throws: StoreError.newerSchema(path: path, unknown: ["fixture/002-future"])) {
      try Store(path: path, modules: [Fixtures.module])
    }
  }

  @Test func busyPastTheTimeoutIsReportedAsBusy() throws {
    let path = try Fixtures.temporaryDirectory() + "/gym.sqlite"
    let holder = try Store(path: path, modules: [Fixtures.module])
    let store = try Store(path: path, modules: [Fixtures.module], options: .init(busyTimeoutMilliseconds: 50))
    try holder.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      defer { try? db.execute(sql: "ROLLBACK") }
      #expect(throws: StoreError.busy(path: path, timeoutMilliseconds: 50)) {
        try store.write {
          try $0.execute(sql: "INSERT INTO item (id, name, kind, size, at) VALUES ('x', 'x', 'a', 1, 'x')")
        }
      }
      // Readers are not blocked by the writer (WAL).
      #expect(try store.read { try Query(table: Fixtures.table).count($0) } == 0)
    }
  }

  @Test func defaultPathFollowsXDG() {
    #expect(Store.defaultPath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/gym/gym.sqlite")
    #expect(Store.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/gym/gym.sqlite")
  }

  /// Closing checkpoints and removes the WAL, as the last connection's close does; the rows stay.
  @Test func closeCheckpointsAndRemovesTheWAL() throws {
    let store = try Fixtures.store(rows: 3)
    #expect(FileManager.default.fileExists(atPath: store.path + "-wal"))
    try store.close()
    #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    #expect(!FileManager.default.fileExists(atPath: store.path + "-shm"))
    let reopened = try Store(path: store.path, modules: [Fixtures.module])
    #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 3)
  }
}
