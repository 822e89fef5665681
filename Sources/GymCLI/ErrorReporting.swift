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
      return (status(of: error), error.message)
    case let error as DatabaseError:
      if error.resultCode == .SQLITE_FULL { return (.ioError, "the disk is full: \(error.message ?? "")") }
      if error.resultCode == .SQLITE_CONSTRAINT {
        return (.dataError, "rejected by the database: \(error.message ?? "a constraint failed"); nothing was written")
      }
      if error.resultCode == .SQLITE_READONLY {
        return (.cannotCreate, "the database is read-only: check the file's permissions")
      }
      return (.failure, "database error: \(error.message ?? "\(error.resultCode)")")
    default:
      return (.failure, "\(error)")
    }
  }

  static func status(of error: StoreError) -> ExitStatus {
    switch error {
    case .notADatabase, .foreignDatabase, .newerSchema, .migrationFailed: .dataError
    case .unknownMigration: .usage
    case .pendingMigrations: .configuration
    case .backupFailed: .ioError
    case .cannotCreate: .cannotCreate
    case .busy: .temporaryFailure
    case .unknownField, .invalidValue, .invalidCursor: .usage
    case .notFound: .noInput
    }
  }
}
