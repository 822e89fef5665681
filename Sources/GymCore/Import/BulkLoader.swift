import Foundation
import GRDB
import GRDBSQLite

/// What an import did, counted per record.
public struct ImportCounts: Sendable, Equatable {
  public var read = 0
  public var inserted = 0
  public var updated = 0
  /// Records whose key was already there with the same values (or, with `.keepExisting`, at all).
  public var unchanged = 0

  public init() {}
}

/// What an import does with a record whose key exists.
public enum ConflictPolicy: Sendable, Equatable {
  /// Update the row in place when a value differs (a record has an identity, like a workout id).
  case updateChanged(key: String)
  /// Leave the row alone (a measurement identified by all it says, like a health sample).
  case keepExisting(key: [String])

  var keyColumns: [String] {
    switch self {
    case .updateChanged(let key): [key]
    case .keepExisting(let key): key
    }
  }
}

/// Checks each raw record against the table's field types and writes it through one cached
/// prepared statement, binding values straight from the input bytes (no per-row objects): the
/// fast path measured at 1.7× faster than `StatementArguments`, 4× faster than records
/// (Docs/Architecture.md, "Measurements the code relies on").
///
/// Into a table with rows: `INSERT … ON CONFLICT(key) DO UPDATE … WHERE <some column differs>`
/// (or `DO NOTHING`), so a re-import is a no-op and changed rows are updated in place, never
/// delete-then-insert. Into an empty table: every index is dropped first and built once in
/// `finish()` — keeping the unique index on random UUIDs made every insert touch a random page,
/// several times slower — and a key repeated within the input keeps its last record (its first
/// with `.keepExisting`), as the conflict clause would have.
public final class BulkLoader {
  public let table: TableSchema
  public let conflict: ConflictPolicy
  public internal(set) var counts = ImportCounts()
  let db: Database?
  private let statement: Statement?
  /// `addKeepingWhatIsLeftOut`'s upserts, by the fields a record gives (a bit per field): built once
  /// per shape, not per record (built per record, its SQL text cost half again of the import).
  private var upserts: [UInt64: Statement] = [:]
  let isPartial: Bool
  /// The table was empty: plain inserts, indexes rebuilt by `finish()`.
  private let isAppending: Bool
  private var scratch: [UInt8] = []
  /// The indexes dropped for an append.
  private var droppedIndexes: DeferredIndexes?
  /// An append into a table whose CHECKs follow from its fields: SQLite's per-row re-check is off
  /// (`PRAGMA ignore_check_constraints`, a connection flag that expires every prepared statement
  /// when it changes) until `finish()` turns it back on and scans for anything that breaks one.
  private var checksDeferred = false

  /// `db` nil: validate only (a dry run).
  /// `partial`: each record changes only the fields it gives (`addPartial`); a record whose key is
  /// new is added as usual.
  public init(table: TableSchema, conflict: ConflictPolicy, db: Database?, partial: Bool = false) throws {
    self.table = table
    self.conflict = conflict
    self.db = db
    self.isPartial = partial
    guard let db else {
      statement = nil
      isAppending = false
      return
    }
    let name = SQL.quote(table.name)
    isAppending = try !partial && !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(name))")!
    let columns = table.fields.map { SQL.quote($0.name) }
    var sql = """
      INSERT INTO \(name) (\(columns.joined(separator: ", "))) \
      VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
      """
    if isAppending {
      droppedIndexes = try DeferredIndexes.drop(db, tables: [table.name])
      if table.checksFollowFromFields {
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        checksDeferred = true
      }
    } else if case .updateChanged(let key) = conflict {
      sql = Self.upsertSQL(table, key: key, updating: table.fields.map(\.name).filter { $0 != key })
    } else {
      sql += " ON CONFLICT DO NOTHING"
    }
    statement = try db.cachedStatement(sql: sql)
  }

  /// Reads every record of `scanner`, then `finish()`es: the whole import in one call.
  public func load(
    from scanner: inout some RecordScanner, onRecord: (ImportCounts) -> Void = { _ in }
  ) throws -> ImportCounts {
    var values = RecordValues(fieldNames: table.fieldNames)
    while try scanner.next(into: &values) {
      try isPartial
        ? addPartial(&values, line: scanner.recordLine) : addKeepingWhatIsLeftOut(&values, line: scanner.recordLine)
      onRecord(counts)
    }
    try finish()
    return counts
  }

  /// Builds the indexes dropped for an append; call once after the last record.
  public func finish() throws {
    guard let db, let droppedIndexes else { return }
    if checksDeferred {
      try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
      checksDeferred = false
      if let (rowid, check) = try CheckConstraints.firstViolation(db, table: table.name) {
        throw StoreError.inconsistent(
          "row \(rowid) of \(table.name) breaks CHECK (\(check)), which the import should have refused; nothing was imported"
        )
      }
    }
    try droppedIndexes.rebuild(db) { [self] db in
      // The same key more than once in the input: the last record wins, as with the upsert
      // (the first, when existing rows are kept).
      let name = SQL.quote(table.name)
      let key = conflict.keyColumns.map(SQL.quote).joined(separator: ", ")
      let keep = conflict == .updateChanged(key: conflict.keyColumns[0]) ? "MAX" : "MIN"
      try db.execute(sql: "DELETE FROM \(name) WHERE rowid NOT IN (SELECT \(keep)(rowid) FROM \(name) GROUP BY \(key))")
      let distinct = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name)") ?? 0
      if keep == "MAX" {
        counts.updated = counts.inserted - distinct
      } else {
        counts.unchanged = counts.inserted - distinct
      }
      counts.inserted = distinct
    }
    self.droppedIndexes = nil
  }

  /// A load abandoned by an error (its transaction rolled back) leaves the connection checking again.
  deinit {
    if checksDeferred { try? db?.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
  }

  /// Validates one record and, unless this is a dry run, upserts it. `inout` only so that a record
  /// held in a batch is passed where it lies: an array's element passed by value to another module
  /// is copied first, each of its five arrays retained and released (most of `swift_retain`'s 5.4%
  /// of an Apple Health import's writer thread). The record is not changed.
  public func add(_ values: inout RecordValues, line: Int) throws {
    try insert(&values, line: line, with: statement?.sqliteStatement)
  }

  /// Binds every field of the record to `sqliteStatement` (an insert of all the table's columns, in
  /// order) and steps it: `add`'s upsert, or one that updates only the fields a record gives.
  private func insert(_ values: inout RecordValues, line: Int, with sqliteStatement: OpaquePointer?) throws {
    // Each field read where it lies: iterating the array copied each one (its strings and rules).
    try table.fields.withUnsafeBufferPointer { fields in
      for index in fields.indices {
        try bindField(fields[index], at: index, of: values, to: sqliteStatement, line: line)
      }
    }
    counts.read += 1  // only a record that binds: one an importer skips is not read
    guard let db, let sqliteStatement else { return }
    // Zeroed before each step: an insert sets it, an update leaves it, so the two are told apart.
    sqlite3_set_last_insert_rowid(db.sqliteConnection, 0)
    let code = StatementBindings(sqliteStatement).step()
    guard code == SQLITE_DONE else { throw Self.failure(code, db, line: line) }
    if sqlite3_changes(db.sqliteConnection) == 0 {
      counts.unchanged += 1
    } else if sqlite3_last_insert_rowid(db.sqliteConnection) != 0 {
      counts.inserted += 1
    } else {
      counts.updated += 1
    }
  }

  /// `add`, except that a record naming its key and leaving fields out changes only the fields it
  /// gives when the key is already there (`addPartial`): what `list --fields a,b` prints imports
  /// back without clearing the rest. Into an empty table (an append), or with no database yet (a dry
  /// run: every record would be added, and is checked as one), there is nothing to keep.
  public func addKeepingWhatIsLeftOut(_ values: inout RecordValues, line: Int) throws {
    guard let db, !isAppending, case .updateChanged(let key) = conflict,
      let keyIndex = table.fields.firstIndex(where: { $0.name == key }),
      values.kinds[keyIndex] != .missing, values.kinds[keyIndex] != .null,
      table.fields.indices.contains(where: { values.kinds[$0] == .missing })
    else { return try add(&values, line: line) }
    // Only fields that may be unknown left out (`history sample`'s records without notes): one
    // upsert that updates the fields given, as fast as `add` (the three statements of `addPartial`
    // took 2.2 times as long). A required field left out cannot be inserted: `addPartial` then.
    guard table.fields.count <= 64,
      table.fields.indices.allSatisfy({ values.kinds[$0] != .missing || !table.fields[$0].isRequired })
    else {
      return try addPartial(&values, line: line)
    }
    var shape: UInt64 = 0
    for index in table.fields.indices where values.kinds[index] != .missing { shape |= 1 << UInt64(index) }
    if upserts[shape] == nil {
      let given = table.fields.indices.filter { $0 != keyIndex && values.kinds[$0] != .missing }
      upserts[shape] = try db.makeStatement(
        sql: Self.upsertSQL(table, key: key, updating: given.map { table.fields[$0].name }))
    }
    try insert(&values, line: line, with: upserts[shape]!.sqliteStatement)
  }

  /// An insert of every column that, where the key is there already, sets `updating` to the record's
  /// values when one differs (nothing else changes; with none to set, the row is left alone).
  static func upsertSQL(_ table: TableSchema, key: String, updating: [String]) -> String {
    let name = SQL.quote(table.name)
    let columns = table.fields.map { SQL.quote($0.name) }
    let updates = updating.map(SQL.quote)
    let conflict =
      updates.isEmpty
      ? "DO NOTHING"
      : "DO UPDATE SET \(updates.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")) "
        + "WHERE \(updates.map { "\(name).\($0) IS NOT excluded.\($0)" }.joined(separator: " OR "))"
    return "INSERT INTO \(name) (\(columns.joined(separator: ", "))) "
      + "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", "))) "
      + "ON CONFLICT(\(SQL.quote(key))) \(conflict)"
  }

  /// A statement's failure for a record: a rule across fields (an end before its start) with the
  /// record's line and the rule, not SQLite's words; anything else as SQLite says it.
  static func failure(_ code: Int32, _ db: Database, line: Int) -> any Error {
    if code & 0xFF == SQLITE_CONSTRAINT, let message = db.lastErrorMessage,
      let rule = message.range(of: "CHECK constraint failed: ").map({ String(message[$0.upperBound...]) })
    {
      return InputError(line: line, message: "the record breaks the table's rule CHECK (\(rule)); correct that record")
    }
    return DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
  }

  /// Checks one field's value and binds it at its position.
  private func bindField(
    _ field: Field, at index: Int, of values: RecordValues, to sqliteStatement: OpaquePointer?, line: Int
  ) throws {
    let position = Int32(index + 1)
    let kind = values.kinds[index]
    if kind == .missing || kind == .null, let sentinel = field.storedNull {
      try bindDefault(.value(sentinel), field: field, at: position, to: sqliteStatement, line: line)
      return
    }
    if kind == .missing, let fallback = field.missingDefault {
      try bindDefault(fallback, field: field, at: position, to: sqliteStatement, line: line)
      return
    }
    if kind == .missing || kind == .null {
      guard field.isNullable else {
        let problem = kind == .missing ? "is missing" : "is empty"
        throw InputError(
          line: line, message: "field '\(field.name)' \(problem); it is required (\(field.type.displayName))")
      }
      if let sqliteStatement { StatementBindings(sqliteStatement).null(at: position) }
      return
    }
    try values.withBytes(index) { bytes in
      try bind(bytes, kind: kind, field: field, at: position, to: sqliteStatement, line: line)
    }
  }

  /// The value `add` would give a field the record leaves out, checked like one the record gave.
  private func bindDefault(
    _ fallback: FieldDefault, field: Field, at position: Int32, to statement: OpaquePointer?, line: Int
  ) throws(InputError) {
    let text: String
    switch fallback {
    case .value(let value): text = value
    case .newUUID: text = UUID().uuidString.lowercased()
    case .now: text = Timestamp.now().canonical
    }
    let bytes = Array(text.utf8)
    try bytes.withUnsafeBufferPointer { bytes throws(InputError) in
      try bind(bytes, kind: .string, field: field, at: position, to: statement, line: line)
    }
  }

  func bind(
    _ bytes: UnsafeBufferPointer<UInt8>, kind: RecordValues.Kind, field: Field, at position: Int32,
    to statement: OpaquePointer?, line: Int
  ) throws(InputError) {
    func invalid(_ expected: String) -> InputError {
      // JSON's true and false arrive without bytes: named, not shown as ''.
      let shown =
        kind == .boolTrue ? "true" : kind == .boolFalse ? "false" : String(decoding: bytes.prefix(60), as: UTF8.self)
      return InputError(line: line, message: "field '\(field.name)': '\(shown)' is not \(expected)")
    }
    let bindings = statement.map(StatementBindings.init)
    func bindText(_ text: UnsafeBufferPointer<UInt8>) { bindings?.text(text, at: position) }
    let isText = kind == .string
    switch field.type {
    case .text:
      guard isText else { throw invalid("text (quote it)") }
      guard bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil else {
        throw invalid("valid UTF-8 text")
      }
      bindText(bytes)
    case .enumeration(let allowed):
      guard isText, allowed.contains(where: { $0.utf8.elementsEqual(bytes) }) else {
        throw invalid("one of " + allowed.joined(separator: ", "))
      }
      bindText(bytes)
    case .uuid:
      guard isText, bytes.count == 36, Self.isUUID(bytes) else {
        throw invalid("a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)")
      }
      scratch.removeAll(keepingCapacity: true)
      scratch.append(contentsOf: bytes.lazy.map { $0 >= 65 && $0 <= 70 ? $0 + 32 : $0 })
      scratch.withUnsafeBufferPointer { bindText($0) }
    case .timestamp:
      guard isText, let timestamp = Timestamp(parsing: bytes) else {
        throw invalid("a date-time (2026-11-21T10:00:00Z)")
      }
      if bytes.count == 24 && bytes[10] == UInt8(ascii: "T") && bytes[19] == UInt8(ascii: ".")
        && bytes[23] == UInt8(ascii: "Z")
      {
        bindText(bytes)  // valid and already canonical (gym's own exports): no need to format it again
      } else {
        scratch.removeAll(keepingCapacity: true)
        timestamp.appendCanonical(to: &scratch)
        scratch.withUnsafeBufferPointer { bindText($0) }
      }
    case .integer:
      guard kind == .number || kind == .string, let value = WholeNumber.parse(bytes) else {
        throw invalid("a whole number")
      }
      if let bounds = field.bounds, !bounds.contains(Double(value)) {
        throw invalid("a whole number " + PlausibleRange.describe(bounds))
      }
      bindings?.integer(value, at: position)
    case .real:
      // Most values are whole (minutes, reps): read without making a String first.
      guard kind == .number || kind == .string,
        let value = WholeNumber.parse(bytes).map(Double.init) ?? DecimalNumber.parse(bytes)
      else { throw invalid("a number") }
      if let bounds = field.bounds, !bounds.contains(value) {
        throw invalid("a number " + PlausibleRange.describe(bounds))
      }
      bindings?.real(value, at: position)
    case .bool:
      let text = String(decoding: bytes, as: UTF8.self)
      let value: Bool
      if kind == .boolTrue || text == "true" || text == "1" {
        value = true
      } else if kind == .boolFalse || text == "false" || text == "0" {
        value = false
      } else {
        throw invalid("true or false")
      }
      bindings?.integer(value ? 1 : 0, at: position)
    }
  }

  static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for (i, b) in bytes.enumerated() {
      if i == 8 || i == 13 || i == 18 || i == 23 {
        if b != UInt8(ascii: "-") { return false }
      } else if !((b >= 48 && b <= 57) || (b >= 97 && b <= 102) || (b >= 65 && b <= 70)) {
        return false
      }
    }
    return true
  }
}
