import Foundation
import GRDB
import GRDBSQLite
import GymCLI
import GymCore

/// `gym import` of an export made at this gym's schema into an empty database, in one pass: each
/// file is read, decompressed and parsed on a second thread while this one inserts its rows
/// straight into the target, 64 to a statement, binding values from the parsed bytes.
/// The target's indexes are dropped for the load and built once after it (inserting into the unique
/// index on random UUIDs row by row touches a random page each time). Into a database that
/// exists, all of it runs in the caller's transaction (`load`); into a new one, in steps
/// (`loadRows`, a scan of the committed rows on every core, `finish`), the file put in place only
/// at the end. Either way a problem anywhere leaves nothing behind. An older export, or a merge,
/// goes through a staging database and the migrations instead (`ImportJob`).
struct DirectImport {
  let reader: ExportReader
  /// Built once after the rows (the library's full-text index), not by their triggers row by row.
  let derivedIndexes: [DerivedIndex]

  /// What `loadRows` leaves to do once the rows are checked: the indexes to build, and the
  /// derived ones to fill (`finish`).
  struct Loaded {
    let rows: Int
    fileprivate let indexes: DeferredIndexes
    fileprivate let deferrals: [DerivedIndexDeferral]
  }

  /// The whole load in the caller's transaction: the rows, the scan for rows that break a CHECK,
  /// the indexes. Returns how many rows it inserted.
  func load(_ db: Database, tables: [ExportManifest.Table]) throws -> Int {
    let loaded = try loadRows(db, tables: tables)
    for table in tables {
      if let (rowid, check) = try CheckConstraints.firstViolation(db, table: table.name) {
        throw violation(table: table.name, rowid: rowid, check: check)
      }
    }
    try finish(db, loaded)
    return loaded.rows
  }

  /// Loads `tables` into `db` in the order given, with SQLite's CHECKs off and the tables'
  /// indexes dropped: the caller scans for rows that break a CHECK (`CheckConstraints`), and any
  /// one refuses the whole export, then calls `finish`.
  func loadRows(_ db: Database, tables: [ExportManifest.Table]) throws -> Loaded {
    let indexes = try DeferredIndexes.drop(db, tables: Set(tables.map(\.name)))
    let deferrals = try derivedIndexes.compactMap { try DerivedIndexDeferral(db, $0) }
    // SQLite's CHECKs are evaluated row by row; one scan of each table after the rows finds the same
    // rows. A 64 MiB page cache while the rows go in (the library's land by their keys, all over
    // their tables), SQLite's own for the index builds (a larger one sorts in larger, slower runs).
    // Together: the writer's CPU 4.6 s -> 3.2-3.6 s on the bench export (Docs/PerformanceNotes.md).
    let loaded = try db.withPageCache(mebibytes: 64) {
      try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
      let loaded = Result { try tables.reduce(0) { $0 + (try load(db, $1)) } }
      try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
      return loaded
    }
    return Loaded(rows: try loaded.get(), indexes: indexes, deferrals: deferrals)
  }

  /// Builds the indexes and fills the derived ones, once the rows are checked.
  func finish(_ db: Database, _ loaded: Loaded) throws {
    try loaded.indexes.rebuild(db)
    for deferral in loaded.deferrals { try deferral.finish(db) }
  }

  /// A row of the export that breaks a CHECK of its table.
  func violation(table: String, rowid: Int64, check: String) -> GymError {
    GymError.data(
      "\(reader.path): row \(rowid) of \(table) breaks CHECK (\(check)); the export was edited or damaged, "
        + "and nothing was imported")
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
    let pipeline = BatchPipeline(make: { RowBatch(columns: table.columns) })
    var inserted = 0
    try pipeline.run(
      produce: { batch in batch.fill(from: rows) },
      consume: { batch in
        // The rows are read where they lie: a row taken out of the array was a copy, its five
        // arrays retained and released (a tenth of the writer's time, Docs/PerformanceNotes.md).
        try batch.rows.withUnsafeBufferPointer { rows in
          var first = 0
          while first < batch.count {
            let count = min(perStatement, batch.count - first)
            let made = try statement(rows: count)
            let binder = RowBinder(statement: made.sqliteStatement, columns: table.columns.count, table: table.name) {
              DatabaseError(resultCode: ResultCode(rawValue: $0), message: db.lastErrorMessage, sql: made.sql)
            }
            try binder.insert(UnsafeBufferPointer(rebasing: rows[first..<(first + count)]))
            first += count
          }
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
  /// `ImportJob.databaseValues` does (numbers as `ExportNumber` reads them); text (CSV's
  /// included) goes in as text and the column's type affinity converts it. Text is bound where
  /// it lies (`.untilStep`): every row's bytes stay in reach until the statement has run.
  struct RowBinder {
    let statement: OpaquePointer
    let columns: Int
    let table: String
    let failure: (Int32) -> DatabaseError

    func insert(_ rows: UnsafeBufferPointer<RecordValues>) throws {
      try bind(rows, from: 0)
    }

    private func bind(_ rows: UnsafeBufferPointer<RecordValues>, from index: Int) throws {
      let bindings = StatementBindings(statement)
      guard index < rows.count else {
        let code = bindings.step()
        guard code == SQLITE_DONE else { throw failure(code) }
        return
      }
      let offset = Int32(index * columns)
      try rows[index].withFieldBytes { bytes in
        for field in 0..<columns {
          let position = offset + Int32(field + 1)
          let code: Int32
          switch rows[index].kinds[field] {
          case .missing, .null: code = bindings.null(at: position)
          case .boolTrue: code = bindings.integer(1, at: position)
          case .boolFalse: code = bindings.integer(0, at: position)
          case .string: code = DirectImport.bindText(bytes(field), to: bindings, at: position)
          case .number:
            switch try ExportNumber(bytes(field), table: table) {
            case .integer(let integer): code = bindings.integer(integer, at: position)
            case .real(let real): code = bindings.real(real, at: position)
            }
          }
          guard code == SQLITE_OK else { throw failure(code) }
        }
        // The next row binds inside this one's reach, so every row's bytes are valid at the step.
        try bind(rows, from: index + 1)
      }
    }
  }

  /// Text as the bytes say when they are UTF-8, bound where it lies; otherwise with U+FFFD for
  /// each bad sequence, as a Swift string made from them would hold, copied.
  static func bindText(_ bytes: UnsafeBufferPointer<UInt8>, to bindings: StatementBindings, at position: Int32)
    -> Int32
  {
    if bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil {
      return bindings.text(bytes, at: position, .untilStep)
    }
    var repaired = String(decoding: bytes, as: UTF8.self)
    return repaired.withUTF8 { bindings.text($0, at: position) }
  }

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
