import GRDB

/// A filter over one table's declared fields, compiled to SQL with bound arguments.
///
/// For example, `.and(.compare("status", .equal, .text("completed")), .compare("durationMinutes",
/// .greaterOrEqual, .integer(30)))` compiles to `("status" = ? AND "durationMinutes" >= ?)`.
public indirect enum RecordFilter: Sendable, Equatable {
  case compare(String, ComparisonOperator, Value)
  /// Case-insensitive (ASCII) substring, prefix or suffix match.
  case text(String, TextMatch, String)
  case isIn(String, [Value])
  case and(RecordFilter, RecordFilter)
  case or(RecordFilter, RecordFilter)
  case not(RecordFilter)
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
  public static func all(_ predicates: [RecordFilter]) -> RecordFilter? {
    predicates.dropFirst().reduce(predicates.first) { acc, next in acc.map { .and($0, next) } }
  }

  /// The SQL condition and its arguments, after checking every field against `table`.
  public func sql(for table: TableSchema) throws(StoreError) -> (String, [DatabaseValue]) {
    var arguments: [DatabaseValue] = []
    let text = try compile(table, &arguments, twoValued: false)
    return (text, arguments)
  }

  /// `twoValued`: under a `!`, a condition on a missing value must be false, not SQL's unknown
  /// (which `NOT` keeps unknown); elsewhere unknown already excludes the row, and the plain form
  /// keeps every index plan (a LEFT JOIN's `= ?` lets SQLite drive the join by the index).
  private func compile(_ table: TableSchema, _ args: inout [DatabaseValue], twoValued: Bool) throws(StoreError)
    -> String
  {
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
      // Swift's nil: `rating != 5` holds for an unrated book, `rating == 5` and `rating < 5` do not,
      // and so `!(rating == 5)` holds for it too. SQL's NULL would make all four unknown.
      let plain = "\(column) \(op.sql) ?"
      guard Self.isNullable(name, table) else { return plain }
      if op == .notEqual { return "(\(column) IS NULL OR \(plain))" }
      return twoValued ? "(\(column) IS NOT NULL AND \(plain))" : plain
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
      let like = "\(column) LIKE ? ESCAPE '\\'"
      return twoValued && Self.isNullable(name, table) ? "(\(column) IS NOT NULL AND \(like))" : like
    case .isIn(let name, let values):
      let column = try Self.column(name, table)
      let nonNull = values.filter { $0 != .null }
      args.append(contentsOf: nonNull.map(\.databaseValue))
      let list = "\(column) IN (\(Array(repeating: "?", count: nonNull.count).joined(separator: ", ")))"
      guard nonNull.count != values.count else {
        return twoValued && Self.isNullable(name, table) ? "(\(column) IS NOT NULL AND \(list))" : list
      }
      return nonNull.isEmpty ? "\(column) IS NULL" : "(\(list) OR \(column) IS NULL)"
    case .and, .or:
      // A run of one operator is one flat list: each pair in parentheses nested one level deeper per
      // condition, and SQLite's parser stack (about 100 deep) overflowed at 92 conditions.
      let isAnd = if case .and = self { true } else { false }
      var parts: [String] = []
      try flatten(isAnd: isAnd, table, &args, twoValued: twoValued, into: &parts)
      return "(" + parts.joined(separator: isAnd ? " AND " : " OR ") + ")"
    case .not(let inner):
      return "NOT \(try inner.compile(table, &args, twoValued: true))"
    case .sql(let condition, let values):
      args.append(contentsOf: values.map(\.databaseValue))
      return "(\(condition))"
    }
  }

  /// The operands of a run of `.and` (or of `.or`), left to right, each compiled in its turn so the
  /// arguments stay in the order of their marks.
  private func flatten(
    isAnd: Bool, _ table: TableSchema, _ args: inout [DatabaseValue], twoValued: Bool, into parts: inout [String]
  ) throws(StoreError) {
    switch self {
    case .and(let lhs, let rhs) where isAnd, .or(let lhs, let rhs) where !isAnd:
      try lhs.flatten(isAnd: isAnd, table, &args, twoValued: twoValued, into: &parts)
      try rhs.flatten(isAnd: isAnd, table, &args, twoValued: twoValued, into: &parts)
    default:
      parts.append(try compile(table, &args, twoValued: twoValued))
    }
  }

  private static func isNullable(_ name: String, _ table: TableSchema) -> Bool {
    table.field(named: name)?.isNullable ?? false
  }

  private static func column(_ name: String, _ table: TableSchema) throws(StoreError) -> String {
    guard table.field(named: name) != nil else {
      throw StoreError.unknownField(name, table: table.name, valid: table.fieldNames)
    }
    return table.columnSQL(name)
  }
}
