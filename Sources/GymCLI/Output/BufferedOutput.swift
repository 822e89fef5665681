import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered writer on a file descriptor. Swift 6 flags Glibc's `stdout` global as unsafe, and
/// one `write(2)` per 64 KiB keeps a million-row listing cheap.
public final class BufferedOutput {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  /// On stderr: what a failed write loses is the command's result (`StandardErrorLoss`).
  var failureIsResult = false

  public init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 16)
  }

  public static func standardOutput() -> BufferedOutput { BufferedOutput(descriptor: 1) }
  public static func standardError() -> BufferedOutput { BufferedOutput(descriptor: 2) }

  public func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer.append(contentsOf: $0) }
    if buffer.count >= 1 << 16 { flush() }
  }

  public func write(bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  public func flush() {
    defer { buffer.removeAll(keepingCapacity: true) }
    do {
      try FileDescriptorIO.writeAll(descriptor, buffer)
    } catch {
      // A note or an error that cannot be written has nowhere to be reported; the command goes on
      // (stopping here would skip its cleanup) and its end decides (`StandardErrorLoss`).
      guard descriptor != 2 else {
        if failureIsResult { StandardErrorLoss.recordResult() }
        return
      }
      failed(error)
    }
  }

  /// Output that cannot be written (a full disk, `> /dev/full`, a closed descriptor) must not look
  /// like success to a script: one line on stderr, exit 74. A broken pipe ends the process by
  /// SIGPIPE before this, as for any tool whose reader went away.
  private func failed(_ error: any Error) -> Never {
    let name = descriptor == 1 ? "standard output" : "the output"
    let line = Array("gym: error: cannot write to \(name): \(error)\n".utf8)
    _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress!, $0.count) }
    exit(ExitStatus.ioError.rawValue)
  }

  deinit { flush() }

  /// Whether the descriptor is a terminal (progress and table fitting depend on it).
  public var isTerminal: Bool { isatty(descriptor) == 1 }

  /// The width tables fit: `COLUMNS` when it is set to a number, else the terminal's; nil when
  /// output goes to a file or a pipe and `COLUMNS` does not say.
  public var terminalWidth: Int? {
    if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 0 { return columns }
    var size = winsize()
    guard isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
      return nil
    }
    return Int(size.ws_col)
  }
}

/// The identifier of what a command made, on stdout, for scripts: `id=$(gym library add …)`.
public func printIdentifier(_ identifier: String) {
  let out = BufferedOutput.standardOutput()
  out.write(identifier + "\n")
  out.flush()
}

/// A note on stderr (what a command did, the next page's cursor), silenced by `--quiet`; errors and
/// warnings go through `printError` and always print.
/// `isResult`: the note is the command's output (a cursor), not an account of what it did; in a dry
/// run every note is (`StandardErrorLoss`).
public func printNote(_ line: String, isResult: Bool = false) {
  guard !Notes.quiet else { return }
  // One line, whatever the names it quotes hold (`added 'Oat⏎milk'`): a script reads notes by line.
  let stream = BufferedOutput.standardError()
  stream.failureIsResult = isResult || Notes.dryRun  // before the write: a long note flushes in it
  stream.write(String.noteLine(line) + "\n")
  stream.flush()
}

public enum Notes {
  /// Set once, from `--quiet`, before the command runs.
  nonisolated(unsafe) public static var quiet = false
  /// Set by a dry run before it runs: what it says is its result.
  nonisolated(unsafe) public static var dryRun = false
}

/// Prints one line on stderr at once (errors and warnings). Whatever it quotes from a file or the
/// database reaches the terminal as data (`inertOnTerminal`).
/// A log line of a long-running command (the schedulers) or a note naming what a file or the remote
/// gave: one line, whatever the names in it hold (`ErrorReporting.oneLine`).
public func logNote(_ line: String) { printNote(ErrorReporting.oneLine(line)) }

/// `logNote` for a failure.
public func logError(_ line: String) { printError(ErrorReporting.oneLine(line)) }

public func printError(_ line: String) {
  let stream = BufferedOutput.standardError()
  stream.write(line.inertOnTerminal + "\n")
  stream.flush()
}
