/// `--fields` for a list computed in the command (records, progress, volume), not read from a table:
/// the columns asked for, in order, and where each is in a row.
public enum ComputedFields {
  public static func select(_ requested: [String], of columns: [String]) throws -> (names: [String], positions: [Int]) {
    let names = requested.isEmpty ? columns : requested
    let positions = try names.map { name in
      guard let i = columns.firstIndex(of: name) else {
        throw GymError.usage("unknown field '\(name)' for --fields; valid fields: \(columns.joined(separator: ", "))")
      }
      return i
    }
    return (names, positions)
  }

  /// The rows, each cut to `positions`, under `names`.
  public static func write(
    _ rows: [[Cell]], names: [String], positions: [Int], format: OutputFormat, to out: BufferedOutput
  ) {
    let writer = RecordWriter(format: format, columns: names, out: out)
    for row in rows { writer.write(positions.map { row[$0] }) }
    writer.finish(next: nil)
  }
}
