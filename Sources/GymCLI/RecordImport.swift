import ArgumentParser
import GRDB
import GymCore

/// The formats `import` commands read.
public enum InputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
  case ndjson, json, csv
}

/// Streams records from a file or stdin into a table: all or nothing, idempotent by key.
public struct RecordImport {
  public let table: TableSchema
  public let conflict: ConflictPolicy
  public let path: String
  public let format: InputFormat?

  public init(table: TableSchema, conflict: ConflictPolicy, path: String, format: InputFormat?) {
    self.table = table
    self.conflict = conflict
    self.path = path
    self.format = format
  }

  /// Validates every record; writes them in one transaction unless `openStore` is nil (a dry run).
  /// The input is opened first: a missing file is reported before any database is created.
  public func run(openStore: (() throws -> Store)?, progress: ProgressLine) throws -> ImportCounts {
    let file = try ImportInput(path)
    defer { file.close() }
    let input = InputBuffer(descriptor: file.descriptor)
    do {
      try input.refuseBinary()
      var scanner = try makeScanner(input)
      func load(_ db: Database?) throws -> ImportCounts {
        try BulkLoader(table: table, conflict: conflict, db: db).load(from: &scanner) { progress.update($0.read) }
      }
      guard let store = try openStore?() else { return try load(nil) }
      return try store.write { db in try load(db) }
    } catch let error as InputError {
      throw file.failure(error)
    }
  }

  private func makeScanner(_ input: InputBuffer) throws -> any RecordScanner {
    switch try detectFormat(input) {
    case .csv:
      var scanner = CSVRecordScanner(input: input)
      let required = table.fields.filter { !$0.isNullable }.map(\.name)
      try scanner.readHeader(expected: RecordValues(fieldNames: table.fieldNames), required: required)
      return scanner
    case .ndjson, .json:
      return JSONRecordScanner(input: input)
    }
  }

  /// `--input-format`, else the file's extension, else the first byte: `{` or `[` is JSON.
  private func detectFormat(_ input: InputBuffer) throws -> InputFormat {
    if let format { return format }
    let lower = path.lowercased()
    if lower.hasSuffix(".csv") { return .csv }
    if lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".json") { return .ndjson }
    while input.start == input.end, try input.refill() {}
    let first = input.storage[input.start..<input.end].first { $0 != 32 && $0 != 10 && $0 != 13 && $0 != 9 }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .ndjson : .csv
  }
}
