/// What the store refuses or cannot do, with enough context for a one-line message.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file exists but is not an SQLite database; it was not touched.
  case notADatabase(path: String)
  /// An SQLite database that gym did not create (tables but no gym schema history).
  case foreignDatabase(path: String)
  /// SQLite found the file malformed (`SQLITE_CORRUPT`): cut short, overwritten in part.
  case damaged(path: String)
  /// Written by a newer gym: it has migrations this binary does not know.
  case newerSchema(path: String, unknown: [String])
  /// The database directory could not be created.
  case cannotCreate(path: String, reason: String)
  /// Another process holds the lock past the busy timeout.
  case busy(path: String, timeoutMilliseconds: Int)
  /// The file, its `-wal`/`-shm` companions or its directory do not let this user write.
  case readOnly(path: String, reason: String)
  case unknownField(String, table: String, valid: [String])
  case invalidValue(field: String, value: String, expected: String)
  case invalidCursor(String)
  /// A total over stored values that no import accepts: too large to show.
  case outOfRange(String)
  /// Rows that do not hold together: a reference to a row the data does not have.
  case inconsistent(String)
  case notFound(table: String, key: String)
  /// `--to` names a migration this binary does not have.
  case unknownMigration(String)
  /// Migrations are pending and `database.auto_migrate` is off.
  case pendingMigrations(path: String, pending: [String])
  /// A migration or the check after it failed; the database was rolled back, untouched.
  case migrationFailed(identifier: String, reason: String, backup: String?)
  /// The backup before a migration could not be written or did not verify; nothing was migrated.
  case backupFailed(path: String, reason: String)
  /// The database is missing and `<path>.restoring` is there: a restore stopped between moving the
  /// old file aside and putting the copy in place. A new, empty database would hide the data.
  case interruptedRestore(path: String)
  /// A restore could not put the backup's copy in place; the database is as it was.
  case restoreFailed(path: String, reason: String)
  /// Other restores of the same database took every name a replaced file gets this instant.
  case restoredThisInstant(path: String)
  /// Sync has begun on the database, and a bulk write (one that commits on its own) changed a
  /// synced table, which the change log could not record: refused, rolled back.
  case unrecordedSyncWrite(table: String)

  /// What happened, to which file: facts about data and files only. The command line adds what to
  /// do about it in its own words (flags, configuration keys, commands).
  public var description: String {
    switch self {
    case .notADatabase(let path): "'\(path)' is not an SQLite database (left untouched)"
    case .foreignDatabase(let path): "'\(path)' is an SQLite database that gym did not create (left untouched)"
    case .damaged(let path): "'\(path)' is damaged: SQLite reads it as malformed (left untouched)"
    case .newerSchema(let path, let unknown):
      "'\(path)' was written by a newer gym (unknown migrations: \(unknown.joined(separator: ", ")))"
    case .cannotCreate(let path, let reason): "cannot create the database at '\(path)': \(reason)"
    case .readOnly(let path, let reason): "cannot use '\(path)': \(reason) (nothing was written)"
    case .busy(let path, let timeout):
      "database '\(path)' is busy: another process held its lock for over \(timeout) ms"
    case .unknownField(let name, let table, let valid):
      "unknown field '\(name)' of \(table); valid fields: \(valid.joined(separator: ", "))"
    case .invalidValue(let field, let value, let expected):
      "invalid value '\(value)' for \(field): expected \(expected)"
    case .invalidCursor(let reason): "invalid page cursor: \(reason)"
    case .inconsistent(let reason): reason
    case .outOfRange(let reason): reason
    case .notFound(let table, let key): "no \(table) with id '\(key)'"
    case .unknownMigration(let identifier): "no migration '\(identifier)'"
    case .pendingMigrations(let path, let pending):
      "'\(path)' needs \(pending.count) migration(s) (\(pending.joined(separator: ", ")))"
    case .migrationFailed(let identifier, let reason, let backup):
      "migration \(identifier) failed: \(reason); the database was left exactly as it was"
        + (backup.map { " (backup: \($0))" } ?? "")
    case .interruptedRestore(let path):
      "'\(path)' is missing but '\(path).restoring' holds a restore that was interrupted; finish it with "
        + "'mv \(path).restoring \(path)', or undo it by moving the newest '\(path).replaced-…' back"
    case .restoreFailed(let path, let reason):
      "cannot restore '\(path)': \(reason); the database is as it was"
    case .restoredThisInstant(let path):
      "'\(path)' was restored by another command this instant (its '.replaced-' names for now are taken)"
    case .backupFailed(let path, let reason):
      "cannot back up the database to '\(path)': \(reason); nothing was migrated"
    case .unrecordedSyncWrite(let table):
      "this database is synced, and this bulk write to \(table) could not be recorded for the other devices "
        + "(nothing was written)"
    }
  }
}
