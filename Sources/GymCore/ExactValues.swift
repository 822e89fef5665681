import Foundation
import GRDB
import GRDBSQLite

/// Values read and bound by byte count, so that text holding a NUL character keeps all of it.
///
/// GRDB reads text with `String(cString:)` and binds it with length -1: both stop at the first NUL,
/// while SQLite itself stores the whole text. Paths that copy outside text unchanged (an export
/// restored, a merge) go through here.
public enum ExactValues {
  /// Column `index` of the statement's current row.
  public static func value(_ statement: OpaquePointer, at index: Int32) -> DatabaseValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_NULL: return .null
    case SQLITE_INTEGER: return sqlite3_column_int64(statement, index).databaseValue
    case SQLITE_FLOAT: return sqlite3_column_double(statement, index).databaseValue
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let base = sqlite3_column_text(statement, index) else { return "".databaseValue }
      return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self).databaseValue
    default:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let base = sqlite3_column_blob(statement, index) else { return Data().databaseValue }
      return Data(bytes: base, count: count).databaseValue
    }
  }

  /// The text of column `index` of a row read from a cursor, when it holds more than GRDB's reading
  /// showed (a NUL inside it); nil otherwise, and for rows copied out of their statement.
  public static func longerText(_ row: Row, at index: Int, than shown: String) -> String? {
    guard let bytes = try? row.withUnsafeData(atIndex: index, { $0 }), bytes.count > shown.utf8.count else {
      return nil
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Binds `values` to the statement and runs it to its end; returns column 0 of its first row,
  /// if it has one (`SELECT rowid …`).
  @discardableResult
  public static func run(_ statement: Statement, _ values: [DatabaseValue]) throws -> DatabaseValue? {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    let bindings = StatementBindings(handle)
    for (offset, value) in values.enumerated() {
      let code = bindings.value(value, at: Int32(offset + 1))
      guard code == SQLITE_OK else { throw error(code, statement) }
    }
    var first: DatabaseValue?
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { break }
      guard code == SQLITE_ROW else {
        sqlite3_reset(handle)
        throw error(code, statement)
      }
      if first == nil { first = value(handle, at: 0) }
    }
    sqlite3_reset(handle)
    return first
  }

  private static func error(_ code: Int32, _ statement: Statement) -> DatabaseError {
    let connection = sqlite3_db_handle(statement.sqliteStatement)
    return DatabaseError(
      resultCode: ResultCode(rawValue: code), message: connection.map { String(cString: sqlite3_errmsg($0)) },
      sql: statement.sql)
  }

}
