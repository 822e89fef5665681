import ArgumentParser

/// The exit codes gym uses (BSD sysexits), one per kind of failure.
public enum ExitStatus: Int32, Sendable {
  case success = 0
  case failure = 1
  /// The command line is wrong: unknown flag, field or value.
  case usage = 64
  /// The input data is wrong: a malformed record, a database gym must refuse.
  case dataError = 65
  /// An input file or a record that was asked for does not exist.
  case noInput = 66
  /// The output (database, directory, file) cannot be created.
  case cannotCreate = 73
  case ioError = 74
  /// The database is busy or another temporary failure: trying again may work.
  case temporaryFailure = 75
  case configuration = 78
}

/// An error for the user: one line saying what is wrong, where, and how to fix it.
public struct GymError: Error, Sendable, CustomStringConvertible {
  public let status: ExitStatus
  public let message: String

  public init(_ status: ExitStatus, _ message: String) {
    self.status = status
    self.message = message
  }

  public var description: String { message }

  public static func usage(_ message: String) -> GymError { GymError(.usage, message) }
  public static func data(_ message: String) -> GymError { GymError(.dataError, message) }
  public static func noInput(_ message: String) -> GymError { GymError(.noInput, message) }
}

extension ValidationError {
  /// A usage problem found by a command's `validate()`, in its own words (exit 64).
  public init(_ problem: GymError) {
    self.init(problem.message)
  }
}
