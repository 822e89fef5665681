import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import GymCore

/// The one binder, the one whole-number reader, the one deferred-index rebuild and the one
/// durable rename that every fast path and every published file share.
@Suite struct BindingAndFilesTests {
  private func whole(_ text: String) -> Int64? {
    Array(text.utf8).withUnsafeBufferPointer { WholeNumber.parse($0) }
  }

  @Test func wholeNumbersAreReadToTheEdgesOf64Bits() {
    // 2^63 - 1 = 9223372036854775807 and -2^63 = -9223372036854775808 are the ends of Int64.
    #expect(whole("9223372036854775807") == Int64.max)
    #expect(whole("-9223372036854775808") == Int64.min)
    // One past either end does not fit.
    #expect(whole("9223372036854775808") == nil)
    #expect(whole("-9223372036854775809") == nil)
    #expect(whole("99999999999999999999") == nil)  // 20 digits
    // 19 digits under the bound still read (the old reader stopped at 18).
    #expect(whole("1000000000000000000") == 1_000_000_000_000_000_000)
    #expect(whole("007") == 7)
    #expect(whole("-0") == 0)
    for notWhole in ["", "-", "+5", " 5", "5 ", "1.0", "1e3", "0x10", "١٢"] {
      #expect(whole(notWhole) == nil, "\(notWhole)")
    }
  }

  @Test func textIsBoundWholeAndEmptyTextIsNotNull() throws {
    let queue = try DatabaseQueue()
    let stored = try queue.write { db -> [DatabaseValue] in
      try db.execute(sql: "CREATE TABLE t (v)")
      let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
      let bindings = StatementBindings(statement.sqliteStatement)
      for text in ["a\u{0}b", ""] {
        _ = Array(text.utf8).withUnsafeBufferPointer { bindings.text($0, at: 1) }
        #expect(bindings.step() == SQLITE_DONE)
      }
      _ = Data().withUnsafeBytes { bindings.blob($0, at: 1) }
      #expect(bindings.step() == SQLITE_DONE)
      return try DatabaseValue.fetchAll(db, sql: "SELECT v FROM t ORDER BY rowid")
    }
    #expect(stored.count == 3)
    // 'a', NUL, 'b': three bytes, where a length of -1 would have stored one.
    #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT length(CAST(v AS BLOB)) FROM t WHERE rowid = 1") } == 3)
    #expect(stored[1] == "".databaseValue)
    #expect(stored[2] == Data().databaseValue)
  }

  @Test func droppedIndexesComeBackAsTheyWereMade() throws {
    let queue = try DatabaseQueue()
    let made = """
      CREATE UNIQUE INDEX t_key ON t(key COLLATE NOCASE)
      CREATE INDEX t_partial ON t(n) WHERE n > 0
      """
    let before = try queue.write { db -> [String] in
      try db.execute(
        sql: "CREATE TABLE t (key TEXT, n INTEGER); CREATE TABLE other (x); CREATE INDEX other_x ON other(x)")
      for line in made.split(separator: "\n") { try db.execute(sql: String(line)) }
      return try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' ORDER BY name")
    }
    try queue.write { db in
      let deferred = try DeferredIndexes.drop(db, tables: ["t"])
      // Only the loaded table's indexes go.
      #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'") == ["other_x"])
      try db.execute(sql: "INSERT INTO t VALUES ('a', 1), ('b', 2)")
      try deferred.rebuild(db)
    }
    let after = try queue.read {
      try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' ORDER BY name")
    }
    #expect(after == before)
  }

  @Test func aRepeatedKeyFailsTheRebuildUnlessTheLoaderRemovesRepeats() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE t (key TEXT); CREATE UNIQUE INDEX t_key ON t(key)")
      let deferred = try DeferredIndexes.drop(db, tables: ["t"])
      try db.execute(sql: "INSERT INTO t VALUES ('a'), ('a'), ('b')")
      #expect(throws: DatabaseError.self) { try deferred.rebuild(db) }
      try deferred.rebuild(db) { db in
        try db.execute(sql: "DELETE FROM t WHERE rowid NOT IN (SELECT MAX(rowid) FROM t GROUP BY key)")
      }
      // 3 rows, one repeat of 'a': 2 left, and the unique index is there again.
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 2)
      #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'") == ["t_key"])
    }
  }

  @Test func aDurableRenameReplacesAndReportsTheSystemError() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Data("new".utf8).write(to: URL(fileURLWithPath: directory + "/a.partial"))
    try Data("old".utf8).write(to: URL(fileURLWithPath: directory + "/a"))
    try Durable.sync(directory + "/a.partial")
    try Durable.rename(directory + "/a.partial", to: directory + "/a")
    #expect(try String(contentsOfFile: directory + "/a", encoding: .utf8) == "new")
    #expect(!FileManager.default.fileExists(atPath: directory + "/a.partial"))
    #expect(throws: SystemError(ENOENT)) { try Durable.sync(directory + "/missing") }
    #expect(throws: SystemError(ENOENT)) { try Durable.rename(directory + "/missing", to: directory + "/b") }
  }
}
