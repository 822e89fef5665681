import GRDB
import GRDBSQLite

/// `import --partial`: a record changes only the fields it gives, so a file of `{"id": …,
/// "notes": …}` edits one value of many records without restating the rest. A field given as
/// null is cleared; one left out is kept. A record whose key is new is added as any other.
extension BulkLoader {
  /// Validates one record and, unless this is a dry run, applies the fields it gives. `inout` as
  /// `add`'s is: the record is not changed.
  public func addPartial(_ values: inout RecordValues, line: Int) throws {
    guard case .updateChanged(let key) = conflict, let keyIndex = table.fields.firstIndex(where: { $0.name == key })
    else { return try add(&values, line: line) }
    guard values.kinds[keyIndex] != .missing, values.kinds[keyIndex] != .null else {
      throw InputError(line: line, message: "field '\(key)' is missing; --partial changes the records its \(key) names")
    }
    let given = table.fields.indices.filter { $0 != keyIndex && values.kinds[$0] != .missing }
    let update = try db.map { try updateStatement($0, setting: given) }
    // The key first (?1), then the given fields in order (?2 …).
    for (offset, index) in ([keyIndex] + given).enumerated() {
      try bindGiven(values, index, at: Int32(offset + 1), to: update?.sqliteStatement, line: line)
    }
    guard let db, let update else {
      counts.read += 1
      return
    }
    if !given.isEmpty {
      try step(update, db, line: line)
      if sqlite3_changes(db.sqliteConnection) > 0 {
        counts.read += 1
        counts.updated += 1
        return
      }
    }
    let exists = try db.cachedStatement(
      sql: "SELECT EXISTS (SELECT 1 FROM \(SQL.quote(table.name)) WHERE \(SQL.quote(key)) = ?)")
    try bindGiven(values, keyIndex, at: 1, to: exists.sqliteStatement, line: line)
    let found = sqlite3_step(exists.sqliteStatement) == SQLITE_ROW && sqlite3_column_int(exists.sqliteStatement, 0) == 1
    sqlite3_reset(exists.sqliteStatement)
    if found {
      counts.read += 1
      counts.unchanged += 1
    } else {
      try add(&values, line: line)
    }
  }

  /// `UPDATE t SET (a, b) = (?2, ?3) WHERE key = ?1 AND (a, b) IS NOT (?2, ?3)`: one cached
  /// statement per set of given fields, and a row whose values are the same is left untouched.
  private func updateStatement(_ db: Database, setting given: [Int]) throws -> Statement {
    guard case .updateChanged(let key) = conflict, !given.isEmpty else {
      return try db.cachedStatement(sql: "SELECT 1")
    }
    let columns = given.map { SQL.quote(table.fields[$0].name) }.joined(separator: ", ")
    let parameters = given.indices.map { "?\($0 + 2)" }.joined(separator: ", ")
    return try db.cachedStatement(
      sql: """
        UPDATE \(SQL.quote(table.name)) SET (\(columns)) = (\(parameters))
        WHERE \(SQL.quote(key)) = ?1 AND (\(columns)) IS NOT (\(parameters))
        """)
  }

  private func bindGiven(
    _ values: RecordValues, _ index: Int, at position: Int32, to statement: OpaquePointer?, line: Int
  ) throws {
    let field = table.fields[index]
    if values.kinds[index] == .null, let sentinel = field.storedNull {
      let bytes = Array(sentinel.utf8)
      try bytes.withUnsafeBufferPointer {
        try bind($0, kind: .string, field: field, at: position, to: statement, line: line)
      }
      return
    }
    guard values.kinds[index] != .null else {
      guard field.isNullable else {
        throw InputError(
          line: line, message: "field '\(field.name)' is empty; it is required (\(field.type.displayName))")
      }
      if let statement { sqlite3_bind_null(statement, position) }
      return
    }
    try values.withBytes(index) { bytes in
      try bind(bytes, kind: values.kinds[index], field: field, at: position, to: statement, line: line)
    }
  }

  private func step(_ statement: Statement, _ db: Database, line: Int) throws {
    let code = sqlite3_step(statement.sqliteStatement)
    sqlite3_reset(statement.sqliteStatement)
    guard code == SQLITE_DONE else { throw Self.failure(code, db, line: line) }
  }
}
