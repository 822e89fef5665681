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

  /// A number; `72,5` reads as 72.5 (semicolon-separated exports write decimal commas).
  public func number(_ column: String) throws(InputError) -> Double? {
    guard let text = text(column) else { return nil }
    guard let value = DecimalNumber.parse(String(text.map { $0 == "," ? "." : $0 })) else {
      throw InputError(line: line, message: "column '\(column)': '\(text)' is not a number")
    }
    return value
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
