import GRDB
import Testing

@testable import GymCore

@Suite struct QueryTests {
  @Test func selectReadsOnlyProjectedColumnsPlusCursorKeys() throws {
    let query = Query(
      table: Fixtures.table, filter: .compare("kind", .equal, .text("a")), limit: 20, projection: ["name"])
    let (sql, arguments) = try query.selectSQL()
    #expect(sql == #"SELECT "name", "at", rowid FROM "item" WHERE "kind" = ? ORDER BY "at" DESC, rowid DESC LIMIT ?"#)
    #expect(arguments == ["a", 21])
  }

  @Test func unknownProjectedFieldIsAnError() {
    #expect(throws: StoreError.self) { try Query(table: Fixtures.table, projection: ["nope"]).selectSQL() }
  }

  /// Every page's ids, each cursor followed until none is given (at most 50 pages), and how many pages.
  static func walk(_ store: Store, sort: [SortKey]?, limit: Int) throws -> (ids: [String], pages: Int) {
    var seen: [String] = []
    var cursor: PageCursor?
    var pages = 0
    repeat {
      let query = Query(table: Fixtures.table, sort: sort, limit: limit, after: cursor, projection: ["id"])
      cursor = try store.read { db in try query.forEachRow(db) { seen.append($0[0]) } }
      pages += 1
    } while cursor != nil && pages < 50
    return (seen, pages)
  }

  @Test func keysetPagesWalkEveryRowOnceInOrder() throws {
    let store = try Fixtures.store(rows: 57)
    let all = try store.read { db in
      try String.fetchAll(db, sql: "SELECT id FROM item ORDER BY at DESC, rowid DESC")
    }
    let (seen, pages) = try Self.walk(store, sort: nil, limit: 10)
    #expect(pages == 6)
    #expect(seen == all)
  }

  /// A sort key that can be empty: pages of 4 walk every row exactly once, in SQLite's own order
  /// of the whole table (NULLs first ascending, last descending), whichever way and with a second key.
  @Test(arguments: [
    [SortKey("note")], [SortKey("note", descending: true)], [SortKey("note"), SortKey("at", descending: true)],
    [SortKey("note", descending: true), SortKey("at")],
  ])
  func keysetPagesWalkANullableKey(sort: [SortKey]) throws {
    let store = try Fixtures.store(rows: 23)
    // Every third row has no note; the others share four notes, so ties run across pages.
    try store.write { db in
      try db.execute(sql: "UPDATE item SET note = CASE WHEN seq % 3 = 0 THEN NULL ELSE 'n' || (seq % 4) END")
    }
    let order = sort.map { "\(SQL.quote($0.field))\($0.descending ? " DESC" : "")" }.joined(separator: ", ")
    let direction = sort.last!.descending ? " DESC" : ""
    let all = try store.read { db in
      try String.fetchAll(db, sql: "SELECT id FROM item ORDER BY \(order), rowid\(direction)")
    }
    let (seen, pages) = try Self.walk(store, sort: sort, limit: 4)
    // 23 rows, 4 a page: 6 pages, the last of 3 rows.
    #expect(pages == 6)
    #expect(seen == all)
    #expect(Set(seen).count == 23)
  }

  @Test func cursorSurvivesItsTextForm() throws {
    let cursor = PageCursor(
      sort: [SortKey("at", descending: true)], values: ["2025-01-01T00:00:00.000Z".databaseValue, 42.databaseValue])
    #expect(try PageCursor(decoding: cursor.encoded) == cursor)
  }

  @Test func cursorFromAnotherOrderIsRejected() throws {
    let cursor = PageCursor(sort: [SortKey("name")], values: ["x".databaseValue, 1.databaseValue])
    let query = Query(table: Fixtures.table, limit: 5, after: cursor)
    #expect(throws: StoreError.self) { try query.selectSQL() }
    #expect(throws: StoreError.self) { try PageCursor(decoding: "%%%") }
  }

  /// An edited cursor whose values are all NULL, descending, would leave no condition at all
  /// (`()`, a syntax error): a cursor that names no row is refused as invalid.
  @Test func aCursorWithoutItsRowIsRejected() throws {
    let sort = [SortKey("at", descending: true)]
    let edited = try PageCursor(decoding: PageCursor(sort: sort, values: [.null, .null]).encoded)
    let query = Query(table: Fixtures.table, sort: sort, limit: 5, after: edited)
    #expect {
      try query.selectSQL()
    } throws: { error in
      guard case .invalidCursor(let reason) = error as? StoreError else { return false }
      return reason.contains("names no row")
    }
    // The same order with its row: a condition SQLite takes.
    let made = PageCursor(sort: sort, values: [.null, 7.databaseValue])
    let store = try Fixtures.store()
    let sql = try Query(table: Fixtures.table, sort: sort, limit: 5, after: made).selectSQL()
    #expect(throws: Never.self) { try store.read { _ = try Row.fetchAll($0, sql: sql.0, arguments: sql.1) } }
  }

  @Test func mixedDirectionsUseExpandedCondition() throws {
    let sort = [SortKey("kind"), SortKey("at", descending: true)]
    let cursor = PageCursor(sort: sort, values: ["a".databaseValue, "t".databaseValue, 3.databaseValue])
    let (sql, _) = try cursor.condition(for: sort, table: Fixtures.table)
    #expect(sql == #"(("kind" > ?) OR ("kind" = ? AND "at" < ?) OR ("kind" = ? AND "at" = ? AND rowid < ?))"#)
  }

  @Test func countUsesTheSameFilter() throws {
    let store = try Fixtures.store(rows: 30)
    let query = Query(table: Fixtures.table, filter: .compare("kind", .equal, .text("a")))
    #expect(try store.read { try query.count($0) } == 10)
  }

  /// The largest limit a user can type (2^63 − 1) is every row, not an overflow: 25 rows, 5 skipped, 20 left.
  @Test func theLargestLimitIsEveryRow() throws {
    let store = try Fixtures.store(rows: 25)
    var count = 0
    let next = try store.read { db in
      try Query(table: Fixtures.table, limit: Int.max, offset: 5).forEachRow(db) { _ in count += 1 }
    }
    #expect(count == 20)
    #expect(next == nil)
  }

  @Test func noLimitStreamsEverything() throws {
    let store = try Fixtures.store(rows: 25)
    var count = 0
    let next = try store.read { db in try Query(table: Fixtures.table, offset: 5).forEachRow(db) { _ in count += 1 } }
    #expect(count == 20)
    #expect(next == nil)
  }
}
