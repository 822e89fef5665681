import Foundation
import GRDB
import Testing

@testable import GymCore

/// An append into a table marked `checksFollowFromFields` runs without SQLite's per-row CHECKs and
/// scans once at `finish()`: a row that breaks one fails the load; the flag never outlives it.
@Suite struct DeferredChecksTests {
  static let table = TableSchema(
    name: "item", fields: [Field("id", .uuid), Field("name", .text)], indexes: [], defaultSort: [],
    checksFollowFromFields: true)

  func add(_ id: String, _ name: String, line: Int, to loader: BulkLoader) throws {
    var record = values(id, name)
    try loader.add(&record, line: line)
  }

  func values(_ id: String, _ name: String) -> RecordValues {
    var values = RecordValues(fieldNames: ["id", "name"])
    values.set(0, id)
    values.set(1, name)
    return values
  }

  func checking(_ db: Database) -> Bool {
    (try? db.execute(sql: "INSERT INTO item (id, name) VALUES ('x', 'far too long')")) == nil
  }

  @Test func aRowThatBreaksACheckFailsTheLoadAtTheEnd() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      // A CHECK the fields do not enforce: the marking is wrong, and the scan catches it.
      try db.execute(sql: "CREATE TABLE item (id TEXT NOT NULL, name TEXT NOT NULL CHECK (length(name) <= 5))")
      let loader = try BulkLoader(table: Self.table, conflict: .updateChanged(key: "id"), db: db)
      try add("3f2504e0-4f89-41d3-9a0c-0305e82c3301", "short", line: 1, to: loader)
      try add("3f2504e0-4f89-41d3-9a0c-0305e82c3302", "much longer", line: 2, to: loader)
      // While the load runs, SQLite does not check: the long name went in.
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM item") == 2)
      do {
        try loader.finish()
        Issue.record("the load passed with a row that breaks its CHECK")
      } catch let error as StoreError {
        #expect("\(error)".contains("row 2 of item breaks CHECK (length(name) <= 5)"), "\(error)")
      }
      // And checks are on again for every later statement.
      #expect(checking(db))
    }
  }

  @Test func theFlagIsOffAfterALoadThatSucceedsOrIsAbandoned() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE item (id TEXT NOT NULL, name TEXT NOT NULL CHECK (length(name) <= 5))")
      do {
        let loader = try BulkLoader(table: Self.table, conflict: .updateChanged(key: "id"), db: db)
        try add("3f2504e0-4f89-41d3-9a0c-0305e82c3301", "ok", line: 1, to: loader)
        try loader.finish()
      }
      #expect(checking(db))
      try db.execute(sql: "DELETE FROM item")
      do {
        // Abandoned: an error before finish() (the caller's transaction would roll it back).
        let loader = try BulkLoader(table: Self.table, conflict: .updateChanged(key: "id"), db: db)
        #expect(throws: InputError.self) { try add("not a uuid", "ok", line: 1, to: loader) }
      }
      #expect(checking(db))
    }
  }
}
