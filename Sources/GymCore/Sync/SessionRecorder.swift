import CGymSQLite
import GRDB

/// A session of SQLite's session extension on one connection: from its start, every change to the
/// named tables (by any statement, trigger or foreign-key action) is recorded, and `changeset()`
/// gives the net change of each row. Deleted with the recorder; it must not outlive the connection.
public final class SessionRecorder {
  private var session: OpaquePointer?

  public init(_ db: Database, tables: [String]) throws {
    guard let connection = db.sqliteConnection else { throw ChangesetError("the database is closed") }
    var created: OpaquePointer?
    let code = sqlite3session_create(connection, "main", &created)
    guard code == SQLITE_OK, let created else {
      throw ChangesetError("cannot start a session (SQLite code \(code)): is the session extension built in?")
    }
    session = created
    for table in tables {
      let attached = sqlite3session_attach(created, table)
      guard attached == SQLITE_OK else {
        sqlite3session_delete(created)
        session = nil
        throw ChangesetError("cannot record changes to \(table) (SQLite code \(attached))")
      }
    }
  }

  /// Whether no row has changed since the session began (SQLite may say false for a row changed
  /// and changed back).
  public var isEmpty: Bool { sqlite3session_isempty(session) != 0 }

  /// The rows changed since the session began, each once, as a changeset.
  public func changeset() throws -> Changeset {
    var count: Int32 = 0
    var output: UnsafeMutableRawPointer?
    let code = sqlite3session_changeset(session, &count, &output)
    defer { sqlite3_free(output) }
    guard code == SQLITE_OK else { throw ChangesetError("cannot read the session's changes (SQLite code \(code))") }
    return Changeset(output.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(count))) } ?? [])
  }

  /// Every row of `tables` as an insert: the changeset that builds them from nothing. `empty` is an
  /// attached schema holding the same tables, without rows (what the diff is taken from).
  public func recordContents(of tables: [String], against empty: String) throws {
    for table in tables {
      var message: UnsafeMutablePointer<CChar>?
      let code = sqlite3session_diff(session, empty, table, &message)
      defer { sqlite3_free(message) }
      guard code == SQLITE_OK else {
        let reason = message.map { String(cString: $0) } ?? "SQLite code \(code)"
        throw ChangesetError("cannot record the rows of \(table): \(reason)")
      }
    }
  }

  deinit {
    if let session { sqlite3session_delete(session) }
  }
}
