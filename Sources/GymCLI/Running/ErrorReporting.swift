import ArgumentParser
import GRDB
import GymCore

/// Turns any error a command throws into its one-line message and exit status.
public enum ErrorReporting {
  public static func classify(_ error: any Error) -> (ExitStatus, String) {
    switch error {
    case let error as GymError:
      return (error.status, error.message)
    case let error as StoreError:
      return (status(of: error), message(for: error))
    case let error as DatabaseError:
      if error.resultCode == .SQLITE_FULL { return (.ioError, "the disk is full: \(error.message ?? "")") }
      if error.resultCode == .SQLITE_CONSTRAINT {
        return (.dataError, "rejected by the database: \(error.message ?? "a constraint failed"); nothing was written")
      }
      if error.resultCode == .SQLITE_IOERR {
        return (
          .ioError,
          "cannot write the database: \(error.message ?? "disk I/O error") (a full disk or a file-size limit?); "
            + "the command was rolled back"
        )
      }
      if error.resultCode == .SQLITE_READONLY {
        return (.cannotCreate, "the database is read-only: check the file's permissions")
      }
      return (.failure, "database error: \(error.message ?? "\(error.resultCode)")")
    default:
      return (.failure, "\(error)")
    }
  }

  /// A message fit for one terminal line, whatever the input put in it: control characters (a
  /// binary file's header, a line break in a value, C1's CSI, a bidirectional override) shown as
  /// `?`, and a message longer than 600 characters (a 10 MB header line) cut in the middle,
  /// keeping the hint at its end.
  public static func oneLine(_ message: String) -> String {
    var text = String(
      message.unicodeScalars.map { $0.value < 32 || String.isTerminalControl($0) ? "?" : Character($0) })
    if text.count > 600 {
      text = String(text.prefix(400)) + " … " + String(text.suffix(150))
    }
    return text
  }

  /// A message whose own line breaks are its layout (swift-argument-parser's `one of the
  /// following:` and its list) as one line: each break and the indent after it one space, the rest
  /// made fit as `oneLine` does.
  public static func joinedLines(_ message: String) -> String {
    oneLine(
      message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }.joined(separator: " "))
  }

  /// The store's account of what happened, with what to do about it in the command line's terms.
  static func message(for error: StoreError) -> String {
    switch error {
    case .notADatabase: error.description + "; pass --database with another path"
    case .foreignDatabase: error.description + "; pass --database with a gym database or a new path"
    case .newerSchema: error.description + "; upgrade gym to use it"
    case .damaged:
      error.description + "; 'gym doctor' tells what is damaged, 'gym migrate restore' puts the newest backup back"
    case .cannotCreate: error.description + "; choose a writable --database path"
    case .busy: error.description + "; try again, or raise database.busy_timeout"
    case .restoredThisInstant: error.description + "; try again in a second"
    case .restoreFailed: error.description + " (free space or fix permissions)"
    case .invalidCursor(let reason):
      "invalid --after cursor: \(reason); use the cursor printed after the previous page"
    case .unknownMigration: error.description + "; see 'gym migrate status' for the identifiers"
    case .pendingMigrations: error.description + " and database.auto_migrate is off; run 'gym migrate up'"
    case .migrationFailed(_, _, let backup):
      error.description + (backup.map { "; to restore it: gym migrate restore \($0)" } ?? "")
    case .backupFailed: error.description + " (free space or fix permissions, or pass --no-backup)"
    case .readOnly, .unknownField, .invalidValue, .notFound, .interruptedRestore, .outOfRange, .inconsistent:
      error.description
    case .unrecordedSyncWrite:
      error.description
        + "; import into the device's database before its first 'gym sync', or with 'gym staples import'"
    }
  }

  static func status(of error: StoreError) -> ExitStatus {
    switch error {
    case .notADatabase, .foreignDatabase, .damaged, .newerSchema, .migrationFailed: .dataError
    case .unknownMigration: .usage
    case .pendingMigrations: .configuration
    case .backupFailed, .restoreFailed: .ioError
    case .interruptedRestore, .outOfRange, .inconsistent: .dataError
    case .unrecordedSyncWrite: .usage
    case .cannotCreate, .readOnly: .cannotCreate
    case .busy, .restoredThisInstant: .temporaryFailure
    case .unknownField, .invalidValue, .invalidCursor: .usage
    case .notFound: .noInput
    }
  }
}
