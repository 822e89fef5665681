import GymCLI
import GymCore

/// A workout logger's CSV export: its columns, and how one row becomes a session and a set.
protocol LoggerFormat {
  /// The export's columns, by name; rows are read by these names whatever their order.
  var columns: [String] { get }
  /// The columns without which the file is not this export.
  var required: [String] { get }
  /// The session a row belongs to and its set; nil for rows that are not sets.
  func parse(_ row: LoggerRow) throws(InputError) -> (LoggedWorkout, LoggedSet?)?
}

/// One CSV row, read by column name, with the helpers every format needs.
struct LoggerRow {
  let values: RecordValues
  let line: Int

  func text(_ column: String) -> String? {
    guard let i = values.fieldNames.firstIndex(of: column), values.kinds[i] == .string else { return nil }
    let text = values.string(i).trimmed
    return text.isEmpty ? nil : text
  }

  func required(_ column: String) throws(InputError) -> String {
    guard let value = text(column) else { throw InputError(line: line, message: "column '\(column)' is empty") }
    return value
  }

  func number(_ column: String) throws(InputError) -> Double? {
    guard let text = text(column) else { return nil }
    guard let value = Double(text.replacingComma()), value.isFinite else {
      throw InputError(line: line, message: "column '\(column)': '\(text)' is not a number")
    }
    return value
  }

  func fail(_ column: String, _ value: String, expected: String) -> InputError {
    InputError(line: line, message: "column '\(column)': '\(value)' is not \(expected)")
  }
}

extension String {
  /// `72,5` → `72.5`: semicolon-separated exports write decimal commas.
  func replacingComma() -> String { String(map { $0 == "," ? "." : $0 }) }
}
