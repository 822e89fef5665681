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
  /// Names a record may carry that are worked out, not stored (a workout's `totals`, as `show`
  /// prints them): a JSON member or CSV column of one of these names is skipped.
  public var derived: [String] = []
  /// Work on the loaded rows before the transaction ends (keys derived from what the rows say).
  public var afterLoad: ((Database) throws -> Void)?
  /// The input when the command opened it already (to recognise it by its header); else `path`.
  public var opened: ImportInput?

  public init(table: TableSchema, conflict: ConflictPolicy, path: String, format: InputFormat?) {
    self.table = table
    self.conflict = conflict
    self.path = path
    self.format = format
  }

  /// Validates every record; writes them in one transaction unless `openStore` is nil (a dry run).
  /// The input is opened first: a missing file is reported before any database is created.
  public func run(openStore: (() throws -> Store)?, progress: ProgressLine) throws -> ImportCounts {
    let file = try opened ?? ImportInput(path)
    progress.measure(file.descriptor)
    defer { file.close() }
    let input = file.buffer
    do {
      try input.refuseBinary()
      let detected = try detectFormat(input)
      // The header is read before the store opens: a file refused for its header creates nothing.
      let scanner = try makeScanner(input, format: detected)
      func load(_ db: Database?) throws -> ImportCounts {
        let loader = try BulkLoader(table: table, conflict: conflict, db: db, partial: partial)
        try nested?.prepare(db)
        let source = RecordSource(scanner, nested: nested != nil)
        let fieldNames = table.fieldNames + (extra?.fieldNames ?? [])
        // The file is read and parsed on a second thread while this one writes (on two cores the
        // two overlap); records reach the loader in file order, and a parse error after them only
        // once they are in, so the first problem in the file is the one reported.
        let pipeline = BatchPipeline(make: { RecordBatch(fieldNames: fieldNames) })
        try pipeline.run(
          produce: { batch in source.fill(&batch) },
          consume: { batch in
            for index in 0..<batch.count {
              let line = batch.lines[index]
              if partial {
                try loader.addPartial(&batch.records[index], line: line)
              } else {
                try loader.addKeepingWhatIsLeftOut(&batch.records[index], line: line)
              }
              try extra?.stage(batch.records[index], line: line)
              if let records = batch.nested[index] { try nested?.stage(records, of: batch.records[index], line: line) }
              progress.update(loader.counts.read)
            }
            if let failure = batch.failure { throw failure }
          })
        try loader.finish()
        try extra?.finish(db)
        try nested?.finish(db)
        if let db { try afterLoad?(db) }
        return loader.counts
      }
      guard let store = try openStore?() else { return try load(nil) }
      return try store.write { db in try load(db) }
    } catch let error as InputError {
      throw file.failure(error)
    }
  }

  /// The scanner, read on the producer's thread only.
  private final class RecordSource: @unchecked Sendable {
    private var json: JSONRecordScanner?
    private var other: (any RecordScanner)?
    private let wantsNested: Bool

    init(_ scanner: any RecordScanner, nested: Bool) {
      json = scanner as? JSONRecordScanner
      other = json == nil ? scanner : nil
      wantsNested = nested
    }

    /// Fills `batch`; false at the end of the input, or at a problem, which the batch then carries
    /// after the records before it.
    func fill(_ batch: inout RecordBatch) -> Bool {
      batch.count = 0
      batch.failure = nil
      do {
        while batch.count < batch.records.count {
          let index = batch.count
          if json != nil {
            guard try json!.next(into: &batch.records[index]) else { return false }
            batch.lines[index] = json!.recordLine
            batch.nested[index] = wantsNested && json!.hasNestedField ? json!.nestedRecords : nil
          } else {
            guard try other!.next(into: &batch.records[index]) else { return false }
            batch.lines[index] = other!.recordLine
          }
          batch.count += 1
        }
        return true
      } catch {
        batch.failure = error
        return false
      }
    }
  }

  /// Records read ahead of the writer, reused from batch to batch.
  private struct RecordBatch {
    var records: [RecordValues]
    var lines: [Int]
    /// A record's nested records (a workout's sets) when it named the field.
    var nested: [[RecordValues]?]
    var count = 0
    var failure: (any Error)?

    init(fieldNames: [String], capacity: Int = 512) {
      records = Array(repeating: RecordValues(fieldNames: fieldNames), count: capacity)
      lines = Array(repeating: 0, count: capacity)
      nested = Array(repeating: nil, count: capacity)
    }
  }

  private func makeScanner(_ input: InputBuffer, format: InputFormat) throws -> any RecordScanner {
    switch format {
    case .csv:
      var scanner = CSVRecordScanner(input: input)
      let required = table.fields.filter(\.isRequired).map(\.name)
      do {
        try scanner.readHeader(
          expected: RecordValues(fieldNames: table.fieldNames + (extra?.fieldNames ?? [])), required: required,
          derived: Set(derived), keyedBy: { if case .updateChanged(let key) = conflict { key } else { nil } }())
      } catch {
        // Another app's export, given to the command for gym's own files: say which command reads it.
        guard let known = KnownExport.recognise(columns: scanner.header) else { throw error }
        throw InputError(line: 1, message: known.misdirected(path))
      }
      return scanner
    case .ndjson, .json:
      return JSONRecordScanner(
        input: input, nested: nested.map { [($0.fieldName, $0.fieldNames)] } ?? [], derived: derived)
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
