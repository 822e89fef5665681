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
  /// `--partial`: each record changes only the fields it gives.
  public var partial = false
  /// Records a JSON record may carry in one field (a workout's sets), written after the records.
  public var nested: (any NestedRecordImport)?
  /// Fields beyond the table's that a record may carry, as a list prints them (an item's stock):
  /// each record is handed over after it loads, and the rest is written after the records.
  public var extra: (any ExtraFieldImport)?

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
    progress.measure(file.descriptor)
    defer { file.close() }
    let input = InputBuffer(descriptor: file.descriptor)
    do {
      try input.refuseBinary()
      let detected = try detectFormat(input)
      // The header is read before the store opens: a file refused for its header creates nothing.
      var scanner = try makeScanner(input, format: detected)
      func load(_ db: Database?) throws -> ImportCounts {
        let loader = try BulkLoader(table: table, conflict: conflict, db: db, partial: partial)
        if let extra {
          // The table's fields first, in order (what the loader binds), then the extra ones.
          var values = RecordValues(fieldNames: table.fieldNames + extra.fieldNames)
          while try scanner.next(into: &values) {
            let line = scanner.recordLine
            try partial ? loader.addPartial(values, line: line) : loader.add(values, line: line)
            try extra.stage(values, line: line)
            progress.update(loader.counts.read)
          }
          try loader.finish()
          try extra.finish(db)
          return loader.counts
        }
        guard let nested, var json = scanner as? JSONRecordScanner else {
          return try loader.load(from: &scanner) { progress.update($0.read) }
        }
        try nested.prepare(db)
        var values = RecordValues(fieldNames: table.fieldNames)
        while try json.next(into: &values) {
          try partial ? loader.addPartial(values, line: json.recordLine) : loader.add(values, line: json.recordLine)
          if json.hasNestedField { try nested.stage(json.nestedRecords, of: values, line: json.recordLine) }
          progress.update(loader.counts.read)
        }
        try loader.finish()
        try nested.finish(db)
        return loader.counts
      }
      guard let store = try openStore?() else { return try load(nil) }
      return try store.write { db in try load(db) }
    } catch let error as InputError {
      throw file.failure(error)
    }
  }

  private func makeScanner(_ input: InputBuffer, format: InputFormat) throws -> any RecordScanner {
    switch format {
    case .csv:
      var scanner = CSVRecordScanner(input: input)
      let required = table.fields.filter(\.isRequired).map(\.name)
      try scanner.readHeader(
        expected: RecordValues(fieldNames: table.fieldNames + (extra?.fieldNames ?? [])), required: required)
      return scanner
    case .ndjson, .json:
      return JSONRecordScanner(input: input, nested: nested.map { [($0.fieldName, $0.fieldNames)] } ?? [])
    }
  }

  private func detectFormat(_ input: InputBuffer) throws -> InputFormat {
    try Self.detectFormat(input, path: path, given: format)
  }

  /// `--input-format`, else the file's extension, else the first byte: `{` or `[` is JSON.
  public static func detectFormat(_ input: InputBuffer, path: String, given format: InputFormat?) throws -> InputFormat
  {
    if let format { return format }
    let lower = path.lowercased()
    if lower.hasSuffix(".csv") { return .csv }
    if lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".json") { return .ndjson }
    while input.start == input.end, try input.refill() {}
    let first = input.storage[input.start..<input.end].first { $0 != 32 && $0 != 10 && $0 != 13 && $0 != 9 }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .ndjson : .csv
  }
}

/// Records that a record carries in one of its fields, as `show` prints a workout's sets: staged
/// while the records load, and written after them in the same transaction.
public protocol NestedRecordImport: AnyObject {
  /// The field that holds them (`sets`) and their own fields.
  var fieldName: String { get }
  var fieldNames: [String] { get }
  /// Before the first record; `db` nil in a dry run with no database.
  func prepare(_ db: Database?) throws
  /// The nested records of one record (`parent`), which named the field.
  func stage(_ records: [RecordValues], of parent: RecordValues, line: Int) throws
  /// After the last record and the loader's own `finish()`.
  func finish(_ db: Database?) throws
}

/// Fields a record carries beyond its table's, as a list prints them: staged record by record,
/// written after the records in the same transaction.
public protocol ExtraFieldImport: AnyObject {
  var fieldNames: [String] { get }
  /// One record, every field (the table's, then these).
  func stage(_ values: RecordValues, line: Int) throws
  /// After the last record and the loader's own `finish()`; `db` nil in a dry run.
  func finish(_ db: Database?) throws
}
