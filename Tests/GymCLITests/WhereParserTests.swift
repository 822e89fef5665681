import GymCore
import Testing

@testable import GymCLI

@Suite struct WhereParserTests {
  let table = TableSchema(
    name: "workout",
    fields: [
      Field("status", .enumeration(["completed", "skipped"])), Field("durationMinutes", .integer),
      Field("title", .text), Field("author", .text), Field("completedAt", .timestamp),
      Field("rating", .integer, nullable: true), Field("weight", .real), Field("isStaple", .bool),
    ],
    indexes: [], defaultSort: [])
  let now = Timestamp(parsing: "2026-11-21T12:00:00Z")!

  func parse(_ text: String) throws -> RecordFilter {
    try WhereParser.parse(text, table: table, now: now)
  }

  func usageError(_ text: String) -> String {
    do {
      _ = try parse(text)
      return "no error"
    } catch let error as GymError {
      #expect(error.status == .usage)
      return error.message
    } catch {
      return "unexpected \(error)"
    }
  }

  /// A number may be negative (an assisted set's weight is): `-` before it, in both number types;
  /// before anything else it is still no value.
  @Test func aNumberMayBeNegative() throws {
    #expect(try parse("weight < -5") == .compare("weight", .less, .real(-5)))
    #expect(try parse("weight >= -2.5") == .compare("weight", .greaterOrEqual, .real(-2.5)))
    #expect(try parse("durationMinutes != -1") == .compare("durationMinutes", .notEqual, .integer(-1)))
    #expect(throws: (any Error).self) { try parse(#"title == -"x""#) }
    #expect(throws: (any Error).self) { try parse("weight < --5") }
  }

  @Test func parsesTheDesignExamples() throws {
    #expect(
      try parse(#"status == "completed" && durationMinutes >= 30"#)
        == .and(
          .compare("status", .equal, .text("completed")), .compare("durationMinutes", .greaterOrEqual, .integer(30))))
    #expect(
      try parse(#"title.contains("tomb") || author.hasPrefix("Le")"#)
        == .or(.text("title", .contains, "tomb"), .text("author", .hasPrefix, "Le")))
    let week = Timestamp(parsing: "2026-11-14T12:00:00Z")!
    #expect(
      try parse("completedAt >= @2026-11-01T00:00:00Z && completedAt < now - 7d")
        == .and(
          .compare("completedAt", .greaterOrEqual, .timestamp(Timestamp(parsing: "2026-11-01T00:00:00Z")!)),
          .compare("completedAt", .less, .timestamp(week))))
    #expect(
      try parse("rating == nil || rating in [4, 5]")
        == .or(.compare("rating", .equal, .null), .isIn("rating", [.integer(4), .integer(5)])))
    #expect(
      try parse(#"!(status in ["completed", "skipped"])"#)
        == .not(.isIn("status", [.text("completed"), .text("skipped")])))
  }

  @Test func andBindsTighterThanOr() throws {
    #expect(
      try parse("durationMinutes == 1 || durationMinutes == 2 && weight > 1.5")
        == .or(
          .compare("durationMinutes", .equal, .integer(1)),
          .and(.compare("durationMinutes", .equal, .integer(2)), .compare("weight", .greater, .real(1.5)))))
    #expect(try parse("isStaple == true") == .compare("isStaple", .equal, .bool(true)))
  }

  @Test func unknownFieldListsTheValidOnesWithTheColumn() {
    let message = usageError(#"status == "completed" && stauts == "x""#)
    #expect(message.hasPrefix("--where column 26: unknown field 'stauts'; valid fields: status, durationMinutes"))
  }

  /// Found by `make fuzz`: numbers beyond Int64 trapped instead of being usage errors.
  @Test func numbersTooLargeAreErrorsNotCrashes() {
    #expect(usageError("durationMinutes == 99999999999999999999999").contains("is too large for durationMinutes"))
    #expect(usageError("completedAt >= now - 9999999999999999w").contains("is too long a duration"))
    // A number with an exponent is told as one, not as a duration gone wrong.
    #expect(usageError("durationMinutes > 1e30").contains("column 19: '1e30' is a number with an exponent"))
    #expect(usageError("durationMinutes > 7x").contains("'7x' is not a duration"))
  }

  @Test func wrongEnumValueListsTheAllowedValues() {
    #expect(
      usageError(#"status == "done""#).contains(
        "column 11: 'done' is not a value of 'status'; allowed: completed, skipped"))
  }

  @Test func typeMismatchesAreExplained() {
    #expect(usageError(#"durationMinutes == "long""#).contains("which takes a whole number"))
    #expect(usageError("title == 3").contains("which takes a quoted string"))
    #expect(usageError("completedAt > @yesterday").contains("is not a date"))
    #expect(usageError("durationMinutes == nil").contains("is never nil"))
    #expect(usageError("rating > nil").contains("nil can only be compared"))
    #expect(usageError("rating == null").contains("write nil, not 'null', for a missing value"))
    #expect(usageError("durationMinutes.contains(\"x\")").contains("not text"))
    #expect(usageError(#"status > "completed""#).contains("is an enum"))
  }

  @Test func syntaxErrorsPointAtTheColumn() {
    #expect(usageError("durationMinutes >= 30 &&").contains("column 25: expected a field name but found the end"))
    #expect(usageError("(durationMinutes >= 30").contains("expected ')'"))
    #expect(usageError(#"title == "open"#).contains("unterminated string"))
    #expect(usageError("durationMinutes >= 30 durationMinutes").contains("join conditions with && or ||"))
    #expect(usageError("title # 1").contains("unexpected character '#'"))
  }

  @Test func injectionStaysAValue() throws {
    #expect(
      try parse(#"title == "x\"; DROP TABLE workout; --""#)
        == .compare("title", .equal, .text("x\"; DROP TABLE workout; --")))
  }

  @Test func sinceAcceptsDatesDurationsAndExpressions() throws {
    #expect(try WhereParser.parseDate("7d", option: "--since", now: now) == Timestamp(parsing: "2026-11-14T12:00:00Z"))
    #expect(
      try WhereParser.parseDate("now - 2w", option: "--since", now: now) == Timestamp(parsing: "2026-11-07T12:00:00Z"))
    #expect(
      try WhereParser.parseDate("2026-01-02T03:04:05Z", option: "--since") == Timestamp(parsing: "2026-01-02T03:04:05Z")
    )
    #expect(throws: GymError.self) { try WhereParser.parseDate("last tuesday", option: "--since") }
  }

  /// A date option takes years 1 to 9999, as `--where` does: a day in year 0 would be written and
  /// then refused by gym's own importers.
  @Test func dateOptionsTakeYearsOneTo9999() throws {
    for text in ["0000-01-01T00:00:00Z", "0000-06-01T12:00", "0000-01-01"] {
      #expect(throws: GymError.self, "\(text)") { try WhereParser.parseDate(text, option: "--completed-at") }
      #expect(throws: GymError.self, "\(text)") { try WhereParser.parseDay(text, option: "--best-before") }
      // Written as in --where, with the @ and nothing added to it.
      #expect(throws: GymError.self, "@\(text)") { try WhereParser.parseDate("@" + text, option: "--completed-at") }
      #expect(throws: GymError.self, "@\(text)") { try WhereParser.parseDay("@" + text, option: "--best-before") }
    }
    #expect(try WhereParser.parseDay("@0001-01-01", option: "--finished").text == "0001-01-01")
    #expect(
      try WhereParser.parseDate("0001-01-01T00:00:00Z", option: "--since").canonical == "0001-01-01T00:00:00.000Z")
    #expect(try WhereParser.parseDay("9999-12-31", option: "--finished").text == "9999-12-31")
  }

  /// Hostile expressions end in one usage error, never a trap or a crash: nesting and size are
  /// bounded below what the stack and SQLite's parser take, and date arithmetic is checked.
  @Test func hostileExpressionsAreUsageErrors() {
    let deepNot = String(repeating: "!", count: 30_000) + "(durationMinutes > 1)"
    #expect(usageError(deepNot).contains("nests ( and ! deeper than 64 levels"))
    let deepParens =
      String(repeating: "(", count: 60_000) + "durationMinutes > 1" + String(repeating: ")", count: 60_000)
    #expect(usageError(deepParens).contains("deeper than 64 levels"))
    let chain = Array(repeating: "durationMinutes > 1", count: 900).joined(separator: " && ")
    #expect(usageError(chain).contains("more than 256 conditions"))
    let long = "title.contains(\"" + String(repeating: "%", count: 50_000) + "\")"
    #expect(usageError(long).contains("at most 1000 characters"))
    // Past 10,000 years of 366 days (3,660,000 d) a duration is refused as such; under it, the date
    // arithmetic that leaves years 0001–9999 is out of range.
    #expect(usageError("completedAt < now + 106751991167d").contains("is too long a duration"))
    #expect(usageError("completedAt < @2026-01-01 + 3000000d").contains("out of range"))
    // At the limits themselves, still an expression.
    #expect((try? parse(String(repeating: "!", count: 64) + "(durationMinutes > 1)")) == nil)
    #expect((try? parse(String(repeating: "!", count: 63) + "(durationMinutes > 1)")) != nil)
    #expect((try? parse(Array(repeating: "durationMinutes > 1", count: 256).joined(separator: " || "))) != nil)
  }

  @Test func listsAndTextValuesAreBounded() {
    let list = "title in [" + (0...1000).map { "\"t\($0)\"" }.joined(separator: ", ") + "]"
    #expect(usageError(list).contains("'in' takes at most 1000 values"))
    #expect(usageError("title == \"" + String(repeating: "x", count: 1001) + "\"").contains("at most 1000 characters"))
    #expect((try? parse("title in [" + (0..<1000).map { "\"t\($0)\"" }.joined(separator: ", ") + "]")) != nil)
  }

  /// Whole numbers are read as Int64 exactly: 2^53 + 1 is not rounded to 2^53.
  @Test func integersAreExact() throws {
    #expect(
      try parse("durationMinutes == 9007199254740993")
        == .compare("durationMinutes", .equal, .integer(9_007_199_254_740_993)))
    #expect(
      try parse("durationMinutes < 9223372036854775807") == .compare("durationMinutes", .less, .integer(Int64.max)))
    #expect(usageError("durationMinutes < 9223372036854775808").contains("too large"))
  }
}
