import GymCore

/// Entry points for `make fuzz` (libFuzzer) and its regression tests: each takes arbitrary bytes
/// and must return — errors are expected, crashes, hangs and runaway memory are bugs.
public enum Fuzzing {
  /// A table with a field of every type, for the parsers that check fields.
  public static let table = TableSchema(
    name: "fuzz",
    fields: [
      Field("id", .uuid), Field("at", .timestamp), Field("kind", .enumeration(["a", "b", "c"])), Field("name", .text),
      Field("count", .integer), Field("ratio", .real, nullable: true), Field("flag", .bool, nullable: true),
    ],
    indexes: [], defaultSort: [SortKey("at")])

  public static func whereExpression(_ bytes: [UInt8]) {
    _ = try? WhereParser.parse(String(decoding: bytes, as: UTF8.self), table: table)
  }

  public static func configuration(_ bytes: [UInt8]) {
    var configuration = Configuration(file: nil)
    try? YAMLConfigFile(path: "fuzz.yaml").apply(text: String(decoding: bytes, as: UTF8.self), to: &configuration)
  }

  /// gym's own import formats, validated as `--dry-run` does (no database).
  public static func records(_ bytes: [UInt8], csv: Bool) {
    let input = InputBuffer.memory(bytes)
    do {
      let loader = try BulkLoader(table: table, conflict: .updateChanged(key: "id"), db: nil)
      if csv {
        var scanner = CSVRecordScanner(input: input, delimiter: try CSVRecordScanner.detectDelimiter(input))
        try scanner.readHeader(
          expected: RecordValues(fieldNames: table.fieldNames), required: ["id", "at", "kind", "name", "count"])
        _ = try loader.load(from: &scanner)
      } else {
        // Nested arrays as `show` prints them; `name` is also a flat field (a work's `authors`).
        var scanner = JSONRecordScanner(input: input, nested: [("sets", ["position", "exercise"]), ("name", ["id"])])
        var values = RecordValues(fieldNames: table.fieldNames)
        while try scanner.next(into: &values) {
          try loader.addPartial(&values, line: scanner.recordLine)
          _ = scanner.nested.map(\.count)
        }
      }
    } catch {}
  }

  /// Rows of a third-party CSV export, each handed to `parse` by column name.
  public static func csvRows(_ bytes: [UInt8], columns: [String], _ parse: (ImportRow) throws -> Void) {
    let input = InputBuffer.memory(bytes)
    do {
      var scanner = CSVRecordScanner(input: input, delimiter: try CSVRecordScanner.detectDelimiter(input))
      var values = RecordValues(fieldNames: columns)
      try scanner.readHeader(expected: values, required: [], ignoringUnknown: true)
      while try scanner.next(into: &values) { try parse(try ImportRow(values: values, line: scanner.recordLine)) }
    } catch {}
  }
}
