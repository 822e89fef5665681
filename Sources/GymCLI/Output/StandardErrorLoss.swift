import ArgumentParser
import Synchronization

/// Notes that could not be written to stderr (`2> /dev/full`). Nothing can report them, and the
/// command goes on: stopping there would skip its cleanup. Most notes tell what a command did, and
/// losing one must not turn a success into a failure (a script would make a write again). A note
/// that is the command's result (the next page's cursor, anything a dry run says) is output: lost,
/// the command that otherwise succeeded exits 74, as for output that cannot be written. A failing
/// command keeps its own status.
public enum StandardErrorLoss {
  private static let lost = Mutex(false)

  /// A note that is the command's result was lost.
  static func recordResult() { lost.withLock { $0 = true } }

  /// At the end of a command that succeeded.
  static func check() throws {
    if lost.withLock({ $0 }) { throw ExitCode(ExitStatus.ioError.rawValue) }
  }
}
