import GymCore

/// One record of a third-party CSV export, read by column name, with the checks every importer
/// needs: blank cells are nil, and a bad value is an error naming the column and the line.
public struct ImportRow {
  public let values: RecordValues
  public let line: Int

  public init(values: RecordValues, line: Int) {
    self.values = values
    self.line = line
  }

  /// The cell's text, trimmed; nil when the column is absent or the cell blank.
  public func text(_ column: String) -> String? {
    guard let i = values.fieldNames.firstIndex(of: column), values.kinds[i] == .string else { return nil }
    let text = values.string(i).trimmed
    return text.isEmpty ? nil : text
  }

  public func required(_ column: String) throws(InputError) -> String {
    guard let value = text(column) else { throw InputError(line: line, message: "column '\(column)' is empty") }
    return value
  }

  /// A number; `72,5` reads as 72.5 (semicolon-separated exports write decimal commas).
  public func number(_ column: String) throws(InputError) -> Double? {
    guard let text = text(column) else { return nil }
    guard let value = Double(String(text.map { $0 == "," ? "." : $0 })), value.isFinite else {
      throw InputError(line: line, message: "column '\(column)': '\(text)' is not a number")
    }
    return value
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
