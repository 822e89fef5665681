import GRDB
import Testing

@testable import GymCore

@Suite struct RecordFilterTests {
  let table = Fixtures.table

  @Test func compilesToBoundSQL() throws {
    let predicate = RecordFilter.and(
      .compare("kind", .equal, .text("a")),
      .or(.compare("size", .greaterOrEqual, .integer(30)), .not(.isIn("name", [.text("x"), .text("y")]))))
    let (sql, arguments) = try predicate.sql(for: table)
    #expect(sql == #"("kind" = ? AND ("size" >= ? OR NOT "name" IN (?, ?)))"#)
    #expect(arguments == ["a".databaseValue, 30.databaseValue, "x".databaseValue, "y".databaseValue])
  }

  /// A run of one operator compiles flat, its arguments in order: 256 conditions (the expressions'
  /// bound) each nested a level deeper overflowed SQLite's parser stack at 92. Mixed runs keep their
  /// grouping. Run against SQLite: the sizes 0…255 OR'd (left- and right-nested) select every row whose
  /// size is under 256, here 3 of the 4 (300 is not).
  @Test func aRunOfOneOperatorIsFlat() throws {
    let three = RecordFilter.or(
      .or(.compare("size", .equal, .integer(1)), .compare("size", .equal, .integer(2))),
      .and(
        .compare("kind", .equal, .text("a")),
        .and(.compare("size", .less, .integer(9)), .compare("note", .equal, .null))))
    let (sql, arguments) = try three.sql(for: table)
    #expect(sql == #"("size" = ? OR "size" = ? OR ("kind" = ? AND "size" < ? AND "note" IS NULL))"#)
    #expect(arguments == [1.databaseValue, 2.databaseValue, "a".databaseValue, 9.databaseValue])
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT, kind TEXT, size INTEGER, note TEXT)")
      try db.execute(
        sql:
          "INSERT INTO item VALUES ('a', 'x', 0, NULL), ('b', 'x', 17, NULL), ('c', 'x', 255, NULL), ('d', 'x', 300, NULL)"
      )
    }
    let equalities = (0..<256).map { RecordFilter.compare("size", .equal, .integer($0)) }
    for predicate in [
      equalities.dropFirst().reduce(equalities[0]) { .or($0, $1) },
      equalities.dropLast().reversed().reduce(equalities[255]) { .or($1, $0) },
    ] {
      let (condition, values) = try predicate.sql(for: table)
      let names = try queue.read { db in
        try String.fetchAll(
          db, sql: "SELECT name FROM item WHERE \(condition) ORDER BY name", arguments: StatementArguments(values))
      }
      #expect(names == ["a", "b", "c"])
    }
  }

  @Test func nilComparesWithIsNull() throws {
    #expect(try RecordFilter.compare("note", .equal, .null).sql(for: table).0 == #""note" IS NULL"#)
    #expect(try RecordFilter.compare("note", .notEqual, .null).sql(for: table).0 == #""note" IS NOT NULL"#)
    #expect(
      try RecordFilter.isIn("note", [.null, .text("x")]).sql(for: table).0 == #"("note" IN (?) OR "note" IS NULL)"#)
  }

  /// Swift's nil, not SQL's NULL: on a nullable field `!=` and `!` include the rows without a value,
  /// and ordering comparisons and matches never hold for them. Worked out by hand over four rows.
  @Test func nilBehavesAsInSwift() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT, note TEXT)")
      try db.execute(sql: "INSERT INTO item VALUES ('w', NULL), ('x', 'a'), ('y', 'b'), ('z', 'ab')")
    }
    func names(_ predicate: RecordFilter) throws -> [String] {
      let (condition, arguments) = try predicate.sql(for: table)
      return try queue.read { db in
        try String.fetchAll(
          db, sql: "SELECT name FROM item WHERE \(condition) ORDER BY name", arguments: StatementArguments(arguments))
      }
    }
    #expect(try names(.compare("note", .notEqual, .text("a"))) == ["w", "y", "z"])
    #expect(try names(.not(.compare("note", .equal, .text("a")))) == ["w", "y", "z"])
    #expect(try names(.compare("note", .equal, .text("a"))) == ["x"])
    #expect(try names(.compare("note", .less, .text("b"))) == ["x", "z"])
    #expect(try names(.not(.compare("note", .less, .text("b")))) == ["w", "y"])
    #expect(try names(.not(.text("note", .contains, "a"))) == ["w", "y"])
    #expect(try names(.not(.isIn("note", [.text("a"), .text("b")]))) == ["w", "z"])
    #expect(try names(.compare("note", .equal, .null)) == ["w"])
  }

  @Test func textMatchesEscapeWildcards() throws {
    let (sql, arguments) = try RecordFilter.text("name", .contains, "50%_off").sql(for: table)
    #expect(sql == #""name" LIKE ? ESCAPE '\'"#)
    #expect(arguments == [#"%50\%\_off%"#.databaseValue])
  }

  @Test func unknownFieldIsRejectedWithTheValidOnes() {
    #expect(throws: StoreError.unknownField("bogus", table: "item", valid: table.fieldNames)) {
      try RecordFilter.compare("bogus", .equal, .integer(1)).sql(for: table)
    }
  }

  @Test func injectionInValuesIsInert() throws {
    let store = try Fixtures.store(rows: 5)
    let evil = "a'; DROP TABLE item; --"
    let query = Query(table: table, filter: .compare("name", .equal, .text(evil)))
    #expect(try store.read { try query.count($0) } == 0)
    #expect(try store.read { try Query(table: table).count($0) } == 5)
  }
}
