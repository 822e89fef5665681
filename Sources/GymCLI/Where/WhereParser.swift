import GymCore

/// Parses a `--where` expression (a Swift-like predicate, see the README's filter section) into the store's typed
/// `RecordFilter`, checking every field, type and enum value against the table.
///
///     expr       := and ('||' and)*
///     and        := unary ('&&' unary)*
///     unary      := '!' unary | '(' expr ')' | comparison
///     comparison := field ('==' | '!=' | '<' | '<=' | '>' | '>=') value
///                 | field 'in' '[' value (',' value)* ']'
///                 | field '.' ('contains' | 'hasPrefix' | 'hasSuffix') '(' string ')'
///     value      := string | number | 'true' | 'false' | 'nil' | date (('+' | '-') duration)*
///     date       := '@'ISO-date | 'now'
public struct WhereParser {
  let table: TableSchema
  let now: Timestamp
  private var tokens: [WhereToken] = []
  private var position = 0
  /// How deep `(` and `!` nest here, and how many conditions were read: both bounded, so no
  /// expression can exhaust the stack here or SQLite's parser (whose limits a bigger one meets).
  private var depth = 0
  private var conditions = 0
  static let maximumDepth = 64
  static let maximumConditions = 256
  static let maximumTextLength = 1000
  static let maximumListLength = 1000

  public init(table: TableSchema, now: Timestamp = .now()) {
    self.table = table
    self.now = now
  }

  /// The predicate, or a usage error naming the column of the mistake.
  public static func parse(_ text: String, table: TableSchema, now: Timestamp = .now()) throws(GymError) -> RecordFilter
  {
    var parser = WhereParser(table: table, now: now)
    do {
      return try parser.parse(text)
    } catch {
      throw GymError.usage("--where column \(error.column): \(error.message) (in '\(text)')")
    }
  }

  mutating func parse(_ text: String) throws(WhereSyntaxError) -> RecordFilter {
    var lexer = WhereLexer(text)
    tokens = try lexer.tokens()
    position = 0
    let predicate = try orExpression()
    guard case .end = current.kind else {
      throw WhereSyntaxError(
        message: "unexpected \(describe(current)); join conditions with && or ||", column: current.column)
    }
    return predicate
  }

  private var current: WhereToken { tokens[position] }

  private mutating func advance() -> WhereToken {
    defer { position += 1 }
    return tokens[position]
  }

  private mutating func accept(_ symbol: String) -> Bool {
    guard current.kind == .symbol(symbol) else { return false }
    position += 1
    return true
  }

  private mutating func expect(_ symbol: String) throws(WhereSyntaxError) {
    guard accept(symbol) else {
      throw WhereSyntaxError(message: "expected '\(symbol)' but found \(describe(current))", column: current.column)
    }
  }

  private mutating func orExpression() throws(WhereSyntaxError) -> RecordFilter {
    var result = try andExpression()
    while accept("||") { result = .or(result, try andExpression()) }
    return result
  }

  private mutating func andExpression() throws(WhereSyntaxError) -> RecordFilter {
    var result = try unary()
    while accept("&&") { result = .and(result, try unary()) }
    return result
  }

  private mutating func unary() throws(WhereSyntaxError) -> RecordFilter {
    guard current.kind == .symbol("!") || current.kind == .symbol("(") else { return try comparison() }
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else {
      throw WhereSyntaxError(
        message: "the expression nests ( and ! deeper than \(Self.maximumDepth) levels; write it flatter",
        column: current.column)
    }
    if accept("!") { return .not(try unary()) }
    position += 1  // (
    let inner = try orExpression()
    try expect(")")
    return inner
  }

  private mutating func comparison() throws(WhereSyntaxError) -> RecordFilter {
    conditions += 1
    guard conditions <= Self.maximumConditions else {
      throw WhereSyntaxError(
        message: "the expression has more than \(Self.maximumConditions) conditions; use 'in [ … ]' or split it",
        column: current.column)
    }
    let token = advance()
    guard case .identifier(let name) = token.kind else {
      throw WhereSyntaxError(message: "expected a field name but found \(describe(token))", column: token.column)
    }
    guard let field = table.field(named: name) else {
      throw WhereSyntaxError(
        message: "unknown field '\(name)'; valid fields: \(table.fieldNames.joined(separator: ", "))",
        column: token.column)
    }
    if accept(".") { return try method(on: field) }
    if current.kind == .identifier("in") {
      position += 1
      try expect("[")
      var values: [Value] = []
      repeat {
        guard values.count < Self.maximumListLength else {
          throw WhereSyntaxError(
            message: "'in' takes at most \(Self.maximumListLength) values; split the filter", column: current.column)
        }
        values.append(try value(for: field))
      } while accept(",")
      try expect("]")
      return .isIn(field.name, values)
    }
    let opToken = advance()
    guard case .symbol(let symbol) = opToken.kind, let op = RecordFilter.ComparisonOperator(rawValue: symbol) else {
      throw WhereSyntaxError(
        message:
          "expected a comparison (==, !=, <, <=, >, >=, in, .contains) after '\(name)' but found \(describe(opToken))",
        column: opToken.column)
    }
    let valueColumn = current.column
    let value = try value(for: field)
    if value == .null && op != .equal && op != .notEqual {
      throw WhereSyntaxError(message: "nil can only be compared with == or !=", column: valueColumn)
    }
    if case .enumeration = field.type, op != .equal, op != .notEqual {
      throw WhereSyntaxError(message: "'\(name)' is an enum: compare it with ==, != or in", column: opToken.column)
    }
    return .compare(field.name, op, value)
  }

  private mutating func method(on field: Field) throws(WhereSyntaxError) -> RecordFilter {
    let token = advance()
    guard case .identifier(let name) = token.kind, let match = RecordFilter.TextMatch(rawValue: name) else {
      throw WhereSyntaxError(
        message: "unknown method \(describe(token)); use contains, hasPrefix or hasSuffix", column: token.column)
    }
    switch field.type {
    case .text, .uuid, .enumeration: break
    default:
      throw WhereSyntaxError(
        message: "'\(field.name)' is a \(field.type.displayName), not text: \(name) needs text", column: token.column)
    }
    try expect("(")
    let argument = advance()
    guard case .string(let needle) = argument.kind else {
      throw WhereSyntaxError(message: "\(name) takes a quoted string", column: argument.column)
    }
    guard needle.count <= Self.maximumTextLength else {
      throw WhereSyntaxError(
        message: "\(name) takes at most \(Self.maximumTextLength) characters", column: argument.column)
    }
    try expect(")")
    return .text(field.name, match, needle)
  }

  /// A literal, checked and converted for the field's type.
  /// A `-` before a number (an assisted set's weight is negative): taken, and true.
  private mutating func minusSign() -> Bool {
    guard current.kind == .symbol("-") else { return false }
    position += 1
    return true
  }

  private mutating func value(for field: Field) throws(WhereSyntaxError) -> Value {
    let token = current
    let mismatch = WhereSyntaxError(
      message: "\(describe(token)) does not fit '\(field.name)', which takes \(expectation(field))",
      column: token.column)
    if token.kind == .identifier("nil") {
      position += 1
      guard field.isNullable else {
        throw WhereSyntaxError(message: "'\(field.name)' is never nil", column: token.column)
      }
      return .null
    }
    // SQL's and JSON's word for it: say the Swift one.
    if token.kind == .identifier("null") || token.kind == .identifier("NULL") {
      throw WhereSyntaxError(message: "write nil, not \(describe(token)), for a missing value", column: token.column)
    }
    switch field.type {
    case .timestamp:
      return .timestamp(try dateExpression(for: field))
    case .text:
      guard case .string(let s) = advance().kind else { throw mismatch }
      guard s.count <= Self.maximumTextLength else {
        throw WhereSyntaxError(
          message: "a text value takes at most \(Self.maximumTextLength) characters", column: token.column)
      }
      return .text(s)
    case .uuid:
      guard case .string(let s) = advance().kind else { throw mismatch }
      return .text(s.lowercased())
    case .enumeration(let allowed):
      guard case .string(let s) = advance().kind else { throw mismatch }
      guard allowed.contains(s) else {
        throw WhereSyntaxError(
          message: "'\(s)' is not a value of '\(field.name)'; allowed: \(allowed.joined(separator: ", "))",
          column: token.column)
      }
      return .text(s)
    case .integer:
      let negative = minusSign()
      guard case .number(let d, let whole, true) = advance().kind else { throw mismatch }
      // Read exactly as Int64; beyond it (found by fuzzing: a conversion trapped) is an error.
      guard let integer = whole else {
        throw WhereSyntaxError(message: "'\(d)' is too large for \(field.name)", column: token.column)
      }
      return .integer(negative ? -integer : integer)
    case .real:
      let negative = minusSign()
      guard case .number(let d, _, _) = advance().kind else { throw mismatch }
      return .real(negative ? -d : d)
    case .bool:
      let t = advance().kind
      if t == .identifier("true") { return .bool(true) }
      if t == .identifier("false") { return .bool(false) }
      throw mismatch
    }
  }

  private mutating func dateExpression(for field: Field) throws(WhereSyntaxError) -> Timestamp {
    let token = advance()
    var result: Timestamp
    switch token.kind {
    case .date(let t): result = t
    case .identifier("now"): result = now
    case .string(let s):
      guard let t = Timestamp(parsing: s) else {
        throw WhereSyntaxError(message: "'\(s)' is not a date; write @YYYY-MM-DD or now - 7d", column: token.column)
      }
      result = t
    default:
      throw WhereSyntaxError(
        message: "\(describe(token)) does not fit '\(field.name)', which takes a date (@2026-11-01, now - 7d)",
        column: token.column)
    }
    while current.kind == .symbol("+") || current.kind == .symbol("-") {
      let sign: Int64 = advance().kind == .symbol("+") ? 1 : -1
      let amount = advance()
      guard case .duration(let ms) = amount.kind else {
        throw WhereSyntaxError(message: "expected a duration such as 7d or 12h", column: amount.column)
      }
      guard let moved = result.adding(checked: sign * ms), moved.isWithinCalendarYears else {
        throw WhereSyntaxError(message: "the date is out of range (years 1 to 9999)", column: amount.column)
      }
      result = moved
    }
    // A date alone too (`@0000-06-01`): what gym writes, its importers read back.
    guard result.isWithinCalendarYears else {
      throw WhereSyntaxError(message: "the date is out of range (years 1 to 9999)", column: token.column)
    }
    return result
  }

  private func expectation(_ field: Field) -> String {
    switch field.type {
    case .text, .uuid: "a quoted string"
    case .integer: "a whole number"
    case .real: "a number"
    case .bool: "true or false"
    case .timestamp: "a date (@2026-11-01, now - 7d)"
    case .enumeration(let values): "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
    }
  }

  private func describe(_ token: WhereToken) -> String {
    switch token.kind {
    case .identifier(let s): "'\(s)'"
    case .string(let s): "\"\(s)\""
    case .number(let d, let whole, _): whole.map { "\($0)" } ?? "\(d)"
    case .date(let t): "@\(t.canonical)"
    case .duration: "a duration"
    case .symbol(let s): "'\(s)'"
    case .end: "the end of the expression"
    }
  }

  /// An instant given to a date option (`--since`, `--until`, `--completed-at`, `--best-before`):
  /// a day (`2026-11-01` or `2026/11/01`, its local midnight), a time (`2026-11-01T18:30`), a span
  /// back from now (`7d`, `1h30m`), or arithmetic from now or a date (`'now + 2w'`, `'@2026-01-01 - 3d'`).
  public static func parseDate(_ text: String, option: String, now: Timestamp = .now()) throws(GymError) -> Timestamp {
    let given = text.trimmed
    if let day = CalendarDay(given), let midnight = day.localMidnight { return midnight }
    // Years 1 to 9999, as everywhere else an option or `--where` reads a date: a day gym writes, it reads back.
    if let t = Timestamp(parsing: given) {
      guard t.isWithinCalendarYears else { throw dateError(text, option: option) }
      return t
    }
    if let span = TimeSpan(given) {
      // As `now - 3000000d` in an expression: a date before year 1 is none.
      let t = now.adding(milliseconds: -span.milliseconds)
      guard t.isWithinCalendarYears else { throw dateError(text, option: option) }
      return t
    }
    var lexer = WhereLexer(given)
    if let tokens = try? lexer.tokens() {
      var parser = WhereParser(table: TableSchema(name: "", fields: [], indexes: [], defaultSort: []), now: now)
      parser.tokens = given.hasPrefix("@") || given.hasPrefix("now") ? tokens : []
      if !parser.tokens.isEmpty, let t = try? parser.dateExpression(for: Field("date", .timestamp)),
        parser.current.kind == .end
      {
        return t
      }
    }
    throw dateError(text, option: option)
  }

  /// A calendar day given to a day option (`--best-before`, `--started`, `library start --date`):
  /// any of `parseDate`'s forms, taken as the local day it falls on.
  public static func parseDay(_ text: String, option: String, now: Timestamp = .now()) throws(GymError) -> CalendarDay {
    if let day = CalendarDay(text.trimmed) { return day }
    return CalendarDay(localDayOf: try parseDate(text, option: option, now: now))
  }

  /// A duration given to `--every`, `--max-age` or `--keep-within`: more than nothing.
  public static func parseSpan(_ text: String, option: String) throws(GymError) -> TimeSpan {
    guard let span = TimeSpan(text), span.milliseconds > 0 else {
      throw GymError.usage("\(option) '\(text)' is not a duration; use \(TimeSpan.grammar)")
    }
    return span
  }

  static func dateError(_ text: String, option: String) -> GymError {
    GymError.usage(
      "\(option) '\(text)' is not a date; use 2026-11-01, 2026/11/01, 2026-11-01T18:30, 7d, 1h30m or 'now - 2w'")
  }
}
