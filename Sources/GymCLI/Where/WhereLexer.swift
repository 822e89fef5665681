import GymCore

/// A token of a `--where` expression, with the 1-based column where it starts.
struct WhereToken: Equatable {
  enum Kind: Equatable {
    case identifier(String)
    case string(String)
    /// A number; `whole` is its exact value when it is written without a fraction and fits Int64
    /// (a Double would round above 2^53).
    case number(Double, whole: Int64?, isInteger: Bool)
    /// `@2026-11-01` or `@2026-11-01T10:00:00Z`.
    case date(Timestamp)
    /// `7d`, `12h`, `30m`, `45s`, `2w`, in milliseconds.
    case duration(Int64)
    case symbol(String)
    case end
  }

  let kind: Kind
  let column: Int
}

struct WhereSyntaxError: Error {
  let message: String
  let column: Int
}

/// Splits an expression into tokens; columns count Unicode scalars, as a terminal shows them.
struct WhereLexer {
  private let scalars: [Unicode.Scalar]
  private var index = 0

  init(_ text: String) { scalars = Array(text.unicodeScalars) }

  static let symbols = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "[", "]", ",", ".", "+", "-"]

  mutating func tokens() throws(WhereSyntaxError) -> [WhereToken] {
    var result: [WhereToken] = []
    while true {
      while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
      let column = index + 1
      guard index < scalars.count else {
        result.append(WhereToken(kind: .end, column: column))
        return result
      }
      let c = scalars[index]
      if c == "\"" || c == "'" {
        result.append(WhereToken(kind: .string(try string(quote: c)), column: column))
      } else if c == "@" {
        index += 1
        let text = take {
          $0.properties.isAlphabetic || ("0"..."9").contains($0) || ":-+.TZ".unicodeScalars.contains($0)
        }
        guard let date = Timestamp(parsing: text) else {
          throw WhereSyntaxError(
            message: "'@\(text)' is not a date; write @YYYY-MM-DD or @YYYY-MM-DDTHH:MM:SSZ", column: column)
        }
        result.append(WhereToken(kind: .date(date), column: column))
      } else if ("0"..."9").contains(c) {
        result.append(WhereToken(kind: try number(column), column: column))
      } else if c.properties.isAlphabetic || c == "_" {
        let name = take { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
        result.append(WhereToken(kind: .identifier(name), column: column))
      } else if let symbol = Self.symbols.first(where: { matches($0) }) {
        index += symbol.unicodeScalars.count
        result.append(WhereToken(kind: .symbol(symbol), column: column))
      } else {
        throw WhereSyntaxError(message: "unexpected character '\(c)'", column: column)
      }
    }
  }

  private func matches(_ symbol: String) -> Bool {
    let s = Array(symbol.unicodeScalars)
    return index + s.count <= scalars.count && Array(scalars[index..<index + s.count]) == s
  }

  private mutating func take(while predicate: (Unicode.Scalar) -> Bool) -> String {
    var text = String.UnicodeScalarView()
    while index < scalars.count, predicate(scalars[index]) {
      text.append(scalars[index])
      index += 1
    }
    return String(text)
  }

  private mutating func string(quote: Unicode.Scalar) throws(WhereSyntaxError) -> String {
    let start = index + 1
    index += 1
    var text = String.UnicodeScalarView()
    while index < scalars.count {
      let c = scalars[index]
      index += 1
      if c == quote { return String(text) }
      if c == "\\", index < scalars.count {
        let escaped = scalars[index]
        index += 1
        switch escaped {
        case "n": text.append("\n")
        case "t": text.append("\t")
        default: text.append(escaped)
        }
      } else {
        text.append(c)
      }
    }
    throw WhereSyntaxError(message: "unterminated string; close it with \(quote)", column: start - 1)
  }

  private mutating func number(_ column: Int) throws(WhereSyntaxError) -> WhereToken.Kind {
    let text = take { ("0"..."9").contains($0) || $0 == "." || $0.properties.isAlphabetic }
    guard text.contains(where: { $0.isLetter }) else {
      guard let value = Double(text) else {
        throw WhereSyntaxError(message: "'\(text)' is not a number", column: column)
      }
      let isInteger = !text.contains(".")
      return .number(value, whole: isInteger ? Int64(text) : nil, isInteger: isInteger)
    }
    switch TimeSpan.parse(text) {
    case .success(let span): return .duration(span.milliseconds)
    case .failure(.tooLong): throw WhereSyntaxError(message: "'\(text)' is too long a duration", column: column)
    case .failure(.malformed):
      // `1e30`: a number with an exponent, which an expression does not read (its digits are meant).
      if text.first?.isNumber == true, text.dropFirst().contains(where: { $0 == "e" || $0 == "E" }),
        text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" })
      {
        throw WhereSyntaxError(
          message: "'\(text)' is a number with an exponent; write its digits (1000000, 0.5)", column: column)
      }
      throw WhereSyntaxError(message: "'\(text)' is not a duration; use \(TimeSpan.grammar)", column: column)
    }
  }
}
