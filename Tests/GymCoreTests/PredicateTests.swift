import GRDB
import Testing

@testable import GymCore

@Suite struct PredicateTests {
  let table = Fixtures.table

  @Test func compilesToBoundSQL() throws {
    let predicate = Predicate.and(
      .compare("kind", .equal, .text("a")),
      .or(.compare("size", .greaterOrEqual, .integer(30)), .not(.isIn("name", [.text("x"), .text("y")]))))
    let (sql, arguments) = try predicate.sql(for: table)
    #expect(sql == #"("kind" = ? AND ("size" >= ? OR NOT "name" IN (?, ?)))"#)
    #expect(arguments == ["a".databaseValue, 30.databaseValue, "x".databaseValue, "y".databaseValue])
  }

  @Test func nilComparesWithIsNull() throws {
    #expect(try Predicate.compare("note", .equal, .null).sql(for: table).0 == #""note" IS NULL"#)
    #expect(try Predicate.compare("note", .notEqual, .null).sql(for: table).0 == #""note" IS NOT NULL"#)
    #expect(try Predicate.isIn("note", [.null, .text("x")]).sql(for: table).0 == #"("note" IN (?) OR "note" IS NULL)"#)
  }

  @Test func textMatchesEscapeWildcards() throws {
    let (sql, arguments) = try Predicate.text("name", .contains, "50%_off").sql(for: table)
    #expect(sql == #""name" LIKE ? ESCAPE '\'"#)
    #expect(arguments == [#"%50\%\_off%"#.databaseValue])
  }

  @Test func unknownFieldIsRejectedWithTheValidOnes() {
    #expect(throws: StoreError.unknownField("bogus", table: "item", valid: table.fieldNames)) {
      try Predicate.compare("bogus", .equal, .integer(1)).sql(for: table)
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
