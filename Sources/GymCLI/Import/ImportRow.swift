import GymCore

#if canImport(Glibc)
  import Glibc
#endif

/// One record of a third-party CSV export, read by column name, with the checks every importer
/// needs: blank cells are nil, and a bad value is an error naming the column and the line.
public struct ImportRow {
  public let values: RecordValues
  public let line: Int

  /// Every text cell must be valid UTF-8 without a NUL byte: a byte sequence read as U+FFFD, or
  /// text cut at a NUL when read back, would store what the file does not say.
  public init(values: RecordValues, line: Int) throws(InputError) {
    self.values = values
    self.line = line
    for field in values.fieldNames.indices where values.kinds[field] == .string {
      let problem: String? = values.withBytes(field) { bytes in
        if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil { return "holds a NUL byte" }
        if !bytes.allSatisfy({ $0 < 0x80 }) && String(validating: bytes, as: UTF8.self) == nil {
          return "is not valid UTF-8 text (save the file as UTF-8)"
        }
        return nil
      }
      if let problem {
        throw InputError(line: line, message: "column '\(values.fieldNames[field])' \(problem)")
      }
    }
  }

  /// The row without those checks: what a refused row still says (the session it belongs to).
  public init(unchecked values: RecordValues, line: Int) {
    self.values = values
    self.line = line
  }

  /// The cell's text, trimmed; nil when the column is absent or the cell blank.
  public func text(_ column: String) -> String? {
    guard let i = values.fieldNames.firstIndex(of: column), values.kinds[i] == .string else { return nil }
    let text = values.string(i).trimmed
    return text.isEmpty ? nil : text
  }

  /// The cell's text exactly as the file has it (free text such as a review keeps its spaces); nil
  /// when the column is absent or the cell empty.
  public func exactText(_ column: String) -> String? {
    guard let i = values.fieldNames.firstIndex(of: column), values.kinds[i] == .string else { return nil }
    let text = values.string(i)
    return text.isEmpty ? nil : text
  }

  /// A person's name with runs of white space made one space (exports write `Elisabeth  Jaquette`
  /// in one place and `Elisabeth Jaquette` in another: one person).
  public func name(_ column: String) -> String? {
    text(column).map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
  }

  public func required(_ column: String) throws(InputError) -> String {
    guard let value = text(column) else { throw InputError(line: line, message: "column '\(column)' is empty") }
    return value
  }

  /// A number. A comma in it is read only where it can mean one thing: one comma that is no
  /// thousands separator is a decimal comma (`72,5`, `"62,50"`); commas between groups of three with a
  /// decimal point after them, or more than one, separate thousands (`"1,000.5"`, `"1,000,000"`).
  /// `1,000` alone is a thousand in one locale and one in another: refused and told, as is anything else.
  public func number(_ column: String) throws(InputError) -> Double? {
    guard let text = text(column) else { return nil }
    guard let value = DecimalNumber.parse(Self.withoutCommas(text)) else {
      throw InputError(
        line: line,
        message: "column '\(column)': '\(text)' is not a number"
          + (text.contains(",") ? " (write it without thousands separators, with a decimal point)" : ""))
    }
    return value
  }

  /// `text` with its commas read as `number` says; unchanged (and so refused) when they can mean
  /// either, or neither.
  static func withoutCommas(_ text: String) -> String {
    let commas = text.count { $0 == "," }
    guard commas > 0 else { return text }
    var unsigned = Substring(text)
    if unsigned.first == "-" || unsigned.first == "+" { unsigned = unsigned.dropFirst() }
    let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let groups = parts[0].split(separator: ",", omittingEmptySubsequences: false)
    let digits = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
    let grouped =
      (1...3).contains(groups[0].count) && groups.allSatisfy(digits) && groups.dropFirst().allSatisfy { $0.count == 3 }
      && (parts.count == 1 || digits(parts[1]))
    if grouped && (commas > 1 || parts.count == 2) { return text.replacingOccurrences(of: ",", with: "") }
    if commas == 1 && parts.count == 1 && !grouped { return text.replacingOccurrences(of: ",", with: ".") }
    return text
  }

  /// A count such as reps: a whole number of at most a million; `10.0` reads as 10, and `2.5` or
  /// `1e30` is an error.
  public func count(_ column: String) throws(InputError) -> Int? {
    guard let value = try number(column) else { return nil }
    guard (0...1_000_000).contains(value), let count = Int(exactly: value) else {
      throw fail(column, text(column) ?? "", expected: "a whole number from 0 to 1000000")
    }
    return count
  }

  public func integer(_ column: String, in range: ClosedRange<Int>) throws(InputError) -> Int? {
    guard let text = text(column) else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw fail(column, text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  public func fail(_ column: String, _ value: String, expected: String) -> InputError {
    InputError(line: line, message: "column '\(column)': '\(value)' is not \(expected)")
  }
}
