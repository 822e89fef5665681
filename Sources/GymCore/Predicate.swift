import GRDB

/// A filter over one table's declared fields, compiled to SQL with bound arguments.
///
/// For example, `.and(.compare("status", .equal, .text("completed")), .compare("durationMinutes",
/// .greaterOrEqual, .integer(30)))` compiles to `("status" = ? AND "durationMinutes" >= ?)`.
public indirect enum Predicate: Sendable, Equatable {
  case compare(String, ComparisonOperator, Value)
  /// Case-insensitive (ASCII) substring, prefix or suffix match.
  case text(String, TextMatch, String)
  case isIn(String, [Value])
  case and(Predicate, Predicate)
  case or(Predicate, Predicate)
  case not(Predicate)
  /// A module's own condition: fixed SQL text written in the module (never from user input),
  /// its values bound to the `?` marks, for what fields alone cannot say (`EXISTS` over a link table).
  case sql(String, [Value])

  public enum ComparisonOperator: String, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    var sql: String {
      switch self {
      case .equal: "="
      case .notEqual: "<>"
      default: rawValue
      }
    }
  }

  public enum TextMatch: String, Sendable, CaseIterable {
    case contains, hasPrefix, hasSuffix
  }

  /// All the predicates joined with AND; nil when there are none.
  public static func all(_ predicates: [Predicate]) -> Predicate? {
    predicates.dropFirst().reduce(predicates.first) { acc, next in acc.map { .and($0, next) } }
  }

  /// The SQL condition and its arguments, after checking every field against `table`.
  public func sql(for table: TableSchema) throws(StoreError) -> (String, [DatabaseValue]) {
    var arguments: [DatabaseValue] = []
    let text = try compile(table, &arguments)
    return (text, arguments)
  }

  private func compile(_ table: TableSchema, _ args: inout [DatabaseValue]) throws(StoreError) -> String {
    switch self {
    case .compare(let name, let op, let value):
      let column = try Self.column(name, table)
      if value == .null {
        switch op {
        case .equal: return "\(column) IS NULL"
        case .notEqual: return "\(column) IS NOT NULL"
        default: throw StoreError.invalidValue(field: name, value: "nil", expected: "== nil or != nil")
        }
      }
      args.append(value.databaseValue)
      return "\(column) \(op.sql) ?"
    case .text(let name, let match, let needle):
      let column = try Self.column(name, table)
      let escaped = SQL.likeEscaped(needle)
      let pattern =
        switch match {
        case .contains: "%\(escaped)%"
        case .hasPrefix: "\(escaped)%"
        case .hasSuffix: "%\(escaped)"
        }
      args.append(pattern.databaseValue)
      return "\(column) LIKE ? ESCAPE '\\'"
    case .isIn(let name, let values):
      let column = try Self.column(name, table)
      let nonNull = values.filter { $0 != .null }
      args.append(contentsOf: nonNull.map(\.databaseValue))
      let list = "\(column) IN (\(Array(repeating: "?", count: nonNull.count).joined(separator: ", ")))"
      guard nonNull.count != values.count else { return list }
      return nonNull.isEmpty ? "\(column) IS NULL" : "(\(list) OR \(column) IS NULL)"
    case .and(let lhs, let rhs):
      return "(\(try lhs.compile(table, &args)) AND \(try rhs.compile(table, &args)))"
    case .or(let lhs, let rhs):
      return "(\(try lhs.compile(table, &args)) OR \(try rhs.compile(table, &args)))"
    case .not(let inner):
      return "NOT \(try inner.compile(table, &args))"
    case .sql(let condition, let values):
      args.append(contentsOf: values.map(\.databaseValue))
      return "(\(condition))"
    }
  }

  private static func column(_ name: String, _ table: TableSchema) throws(StoreError) -> String {
    guard table.field(named: name) != nil else {
      throw StoreError.unknownField(name, table: table.name, valid: table.fieldNames)
    }
    return SQL.quote(name)
  }
}
