import ArgumentParser
import GymCore
import Synchronization

/// Notes that could not be written to stderr (`2> /dev/full`). Nothing can report them, and the
/// command goes on: stopping there would skip its cleanup. At its end, a command that succeeded but
/// committed nothing (a listing whose next-page cursor, or a dry run whose report, went to stderr)
/// exits 74, as for output that cannot be written; one that committed a write stays a success, so a
/// script does not make it again. A failing command keeps its own status.
public enum StandardErrorLoss {
  private static let happened = Mutex(false)

  static func record() { happened.withLock { $0 = true } }

  /// At the end of a command that succeeded.
  static func check() throws {
    if happened.withLock({ $0 }) && !Store.hasCommitted { throw ExitCode(ExitStatus.ioError.rawValue) }
  }
}
