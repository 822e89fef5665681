import Foundation
import GRDB
import GRDBSQLite
import GymCLI
import GymCore

/// `gym import` of an export made at this gym's schema into an empty database, in one pass: each
/// file is read, decompressed and parsed on a second thread while this one inserts its rows
/// straight into the target, 64 to a statement, binding values from the parsed bytes.
/// The target's indexes are dropped for the load and built once after it (inserting into the unique
/// index on random UUIDs row by row touches a random page each time). All of it runs in the
/// caller's transaction, so a problem anywhere leaves nothing behind. An older export, or a merge,
/// goes through a staging database and the migrations instead (`ImportJob`).
struct DirectImport {
  let reader: ExportReader
  /// Built once after the rows (the library's full-text index), not by their triggers row by row.
  let derivedIndexes: [DerivedIndex]

  /// Loads `tables` into `db` in the order given; returns how many rows it inserted.
  func load(_ db: Database, tables: [ExportManifest.Table]) throws -> Int {
    let names = Set(tables.map(\.name))
    // The indexes exactly as the migrations made them (partial, collated), rebuilt from their SQL.
    let indexes = try Row.fetchAll(
      db, sql: "SELECT name, tbl_name, sql FROM main.sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    ).filter { names.contains($0["tbl_name"] as String) }.map { (name: $0["name"] as String, sql: $0["sql"] as String) }
    for index in indexes { try db.execute(sql: "DROP INDEX main.\(SQL.quote(index.name))") }
    let deferrals = try derivedIndexes.compactMap { try DerivedIndexDeferral(db, $0) }
    var inserted = 0
    for table in tables { inserted += try load(db, table) }
    // SQLite's sorter may sort an index's keys on worker threads; back to one thread afterwards.
    try db.execute(sql: "PRAGMA threads = \(min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4))")
    defer { try? db.execute(sql: "PRAGMA threads = 0") }
    for index in indexes { try db.execute(sql: index.sql) }
    for deferral in deferrals { try deferral.finish(db) }
    return inserted
  }

  private func load(_ db: Database, _ table: ExportManifest.Table) throws -> Int {
    let rows = try ExportReader.TableRows(reader, table)
    // Several rows per statement: a CHECK constraint's `IN (…)` list is an ephemeral table SQLite
    // builds once per run of the statement, so one row per run built it a million times (1,000,000
    // workouts: 3.1 s one row at a time, see Docs/PerformanceNotes.md).
    let perStatement = max(1, min(Self.rowsPerStatement, 32_766 / max(table.columns.count, 1)))
    var statements: [Int: Statement] = [:]
    func statement(rows count: Int) throws -> Statement {
      if let made = statements[count] { return made }
      let row = "(" + Array(repeating: "?", count: table.columns.count).joined(separator: ", ") + ")"
      let made = try db.makeStatement(
        sql: "INSERT INTO main.\(SQL.quote(table.name)) (\(table.columns.map(SQL.quote).joined(separator: ", "))) "
          + "VALUES " + Array(repeating: row, count: count).joined(separator: ", "))
      statements[count] = made
      return made
    }
    let pipeline = BatchPipeline(batches: (0..<3).map { _ in RowBatch(columns: table.columns) })
    var inserted = 0
    try pipeline.run(
      produce: { batch in batch.fill(from: rows) },
      consume: { batch in
        var first = 0
        while first < batch.count {
          let count = min(perStatement, batch.count - first)
          let made = try statement(rows: count)
          let binder = RowBinder(statement: made.sqliteStatement, columns: table.columns.count, table: table.name) {
            DatabaseError(resultCode: ResultCode(rawValue: $0), message: db.lastErrorMessage, sql: made.sql)
          }
          try binder.insert(batch.rows[first..<(first + count)])
          first += count
        }
        inserted += batch.count
        if let failure = batch.failure { throw failure }
      })
    // The statements are made at the first rows, so a row that does not match its columns is
    // reported as such first; a table of none still has its columns checked against the table.
    if statements.isEmpty { _ = try statement(rows: 1) }
    return inserted
  }

  static let rowsPerStatement = 64

  /// Binds rows to one multi-row `INSERT` and runs it, with an export's raw values converted as
  /// `ImportJob.databaseValues` does: JSON numbers with a fraction or exponent are REAL, other
  /// numbers INTEGER; text (CSV's included) goes in as text and the column's type affinity
  /// converts it. Text is bound where it lies (`SQLITE_STATIC`): every row's bytes stay in reach
  /// until the statement has run.
  struct RowBinder {
    let statement: OpaquePointer
    let columns: Int
    let table: String
    let failure: (Int32) -> DatabaseError

    func insert(_ rows: ArraySlice<RecordValues>) throws {
      try bind(rows, from: rows.startIndex)
    }

    private func bind(_ rows: ArraySlice<RecordValues>, from index: Int) throws {
      guard index < rows.endIndex else {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw failure(code) }
        return
      }
      let values = rows[index]
      let offset = Int32((index - rows.startIndex) * columns)
      try values.withFieldBytes { bytes in
        for field in values.kinds.indices {
          let position = offset + Int32(field + 1)
          let code: Int32
          switch values.kinds[field] {
          case .missing, .null: code = sqlite3_bind_null(statement, position)
          case .boolTrue: code = sqlite3_bind_int64(statement, position, 1)
          case .boolFalse: code = sqlite3_bind_int64(statement, position, 0)
          case .string: code = DirectImport.bindText(bytes(field), to: statement, at: position)
          case .number:
            let number = bytes(field)
            if let integer = DirectImport.integer(number) {
              code = sqlite3_bind_int64(statement, position, integer)
            } else {
              let text = String(decoding: number, as: UTF8.self)
              guard let real = Double(text), real.isFinite else {
                throw GymError.data(
                  "\(table): the number \(text.prefix(40)) does not fit a 64-bit float; the export was edited or damaged"
                )
              }
              code = sqlite3_bind_double(statement, position, real)
            }
          }
          guard code == SQLITE_OK else { throw failure(code) }
        }
        // The next row binds inside this one's reach, so every row's bytes are valid at the step.
        try bind(rows, from: index + 1)
      }
    }
  }

  /// A JSON number without a fraction or an exponent that fits 64 bits.
  static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard !bytes.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    else { return nil }
    var negative = false
    var digits = bytes[...]
    if digits.first == UInt8(ascii: "-") {
      negative = true
      digits = digits.dropFirst()
    }
    // Up to 18 digits cannot overflow; longer ones are left to the standard library's parser.
    guard !digits.isEmpty, digits.count <= 18 else { return Int64(String(decoding: bytes, as: UTF8.self)) }
    var value: Int64 = 0
    for byte in digits {
      guard byte >= 48 && byte <= 57 else { return Int64(String(decoding: bytes, as: UTF8.self)) }
      value = value * 10 + Int64(byte - 48)
    }
    return negative ? -value : value
  }

  /// Text as the bytes say when they are UTF-8; otherwise with U+FFFD for each bad sequence, as a
  /// Swift string made from them would hold.
  static func bindText(_ bytes: UnsafeBufferPointer<UInt8>, to statement: OpaquePointer, at position: Int32)
    -> Int32
  {
    guard let base = UnsafeRawPointer(bytes.baseAddress), !bytes.isEmpty else {
      // An empty buffer may have no address, and a NULL pointer would bind NULL instead of ''.
      return sqlite3_bind_text(statement, position, "", 0, transient)
    }
    if bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil {
      return sqlite3_bind_text(
        statement, position, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)  // SQLITE_STATIC
    }
    var repaired = String(decoding: bytes, as: UTF8.self)
    return repaired.withUTF8 { text in
      sqlite3_bind_text(
        statement, position, UnsafeRawPointer(text.baseAddress!).assumingMemoryBound(to: CChar.self),
        Int32(text.count), transient)
    }
  }

  /// SQLite copies the bytes before the call returns (`SQLITE_TRANSIENT`).
  private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

  /// Rows read ahead of the writer, reused from batch to batch.
  private struct RowBatch {
    var rows: [RecordValues]
    var count = 0
    var failure: (any Error)?

    init(columns: [String], capacity: Int = 512) {
      rows = Array(repeating: RecordValues(fieldNames: columns), count: capacity)
    }

    /// Fills the batch; false at the end of the file, or at a problem, which the batch then
    /// carries after the rows before it.
    mutating func fill(from source: ExportReader.TableRows) -> Bool {
      count = 0
      failure = nil
      do {
        while count < rows.count {
          guard try source.next(into: &rows[count]) else { return false }
          count += 1
        }
        return true
      } catch {
        failure = error
        return false
      }
    }
  }
}
