import Foundation
import GymCLI

/// The `rclone` tool, which does every transfer to and from a remote (any backend it supports:
/// S3, B2, SFTP, WebDAV, a local path …). Its configuration is its own: `RCLONE_CONFIG` or
/// `~/.config/rclone/rclone.conf`. gym retries on its own schedule, so rclone is asked to try once.
struct Rclone: Sendable {
  struct Failure: Error, CustomStringConvertible {
    /// rclone's exit status (3: directory not found, 4: file not found); nil when it did not start.
    let status: Int32?
    let message: String
    /// A failure around rclone that may pass (a listing cut short, a file that changed as it was
    /// read, a full disk): exit 75, whatever `status` says.
    var transient = false
    var description: String { message }
    var isNotFound: Bool { status == 3 || status == 4 }
    /// rclone missing, or its configuration not naming the remote or unreadable: trying again cannot help.
    var isConfiguration: Bool {
      guard !transient else { return false }
      return status == nil || message.contains("didn't find section in config file")
        || message.contains("Failed to load config")
        || message.contains("config file")
          && message.contains("permission denied")
    }
  }

  var executable = "rclone"

  /// How long rclone waits to connect, and for a transfer that has stopped moving, unless the
  /// environment says otherwise (`RCLONE_CONTIMEOUT`, `RCLONE_TIMEOUT`, rclone's own variables). With
  /// two low-level retries a call to a remote that accepts and never answers ends within
  /// 2 × (15 + 30) s = 90 s, and a copy's three tries (paused 1 s and 4 s) within 275 s: exit 75.
  static let timeouts = ["RCLONE_CONTIMEOUT": "15s", "RCLONE_TIMEOUT": "30s"]

  /// Why `remote` cannot be handed to rclone, or nil: a remote beginning with `-` would be read as a
  /// flag (`--log-file=/x`), and control characters have no place in a path.
  static func problem(with remote: String) -> String? {
    if remote.isEmpty { return "is empty" }
    if remote.hasPrefix("-") { return "begins with '-', which rclone would read as a flag" }
    if remote.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) {
      return "holds a control character"
    }
    return nil
  }

  /// Runs `rclone COMMAND FLAGS -- OPERANDS` (no shell): the operands after `--`, so no remote or
  /// path is ever read as a flag. The child dies with gym (`setpriv --pdeathsig KILL`, util-linux),
  /// so a killed gym leaves no transfer running. Returns rclone's standard output; a failure carries
  /// its last line on stderr, without its timestamp.
  @discardableResult
  func run(_ command: String, _ operands: [String], flags: [String] = []) throws -> Data {
    for operand in operands {
      if let problem = Self.problem(with: operand) {
        throw Failure(status: nil, message: "the rclone path '\(operand.prefix(80))' \(problem)")
      }
    }
    let process = Process()
    let arguments =
      [executable, "--retries", "1", "--low-level-retries", "2", "--stats", "0", command] + flags + ["--"]
      + operands
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments = ["--pdeathsig", "KILL", "--"] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = arguments
    }
    var environment = ProcessInfo.processInfo.environment
    for (name, value) in Self.timeouts where environment[name] == nil { environment[name] = value }
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    do { try process.run() } catch {
      throw Failure(status: nil, message: "cannot run rclone: \(error.localizedDescription)")
    }
    // Both pipes drained at once, so neither can fill and stall rclone.
    nonisolated(unsafe) var stderr = Data()
    let drained = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      stderr = errors.fileHandleForReading.readDataToEndOfFile()
      drained.signal()
    }
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    drained.wait()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      if process.terminationStatus == 127 {
        throw Failure(status: nil, message: "rclone is not installed; install it with 'apt-get install rclone'")
      }
      throw Failure(status: process.terminationStatus, message: Self.lastLine(stderr))
    }
    return stdout
  }

  /// rclone's last message, without the `2026/11/23 22:00:55 ` it starts with.
  static func lastLine(_ stderr: Data) -> String {
    let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n").map { String($0) }
    guard var line = lines.last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return "rclone failed" }
    if line.count > 20, line.prefix(20).allSatisfy({ $0.isNumber || "/: ".contains($0) }) {
      line = String(line.dropFirst(20))
    }
    return String(line.prefix(300))
  }

  /// The exit status for an rclone failure: 78 when its configuration cannot work, else 75 (try again).
  static func status(of error: any Error) -> ExitStatus {
    (error as? Failure)?.isConfiguration == true ? .configuration : .temporaryFailure
  }

  /// A local path as rclone must be given it: absolute. rclone reads `bk:x/…` as the remote `bk`,
  /// and refuses an operand beginning with '-', so a relative `--out` could name another place.
  static func local(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

  /// `remote` and `name` joined as rclone reads them: `nas:` + `x` is `nas:x`, `nas:gym` + `x` is `nas:gym/x`.
  static func join(_ remote: String, _ name: String) -> String {
    remote.hasSuffix(":") || remote.hasSuffix("/") ? remote + name : remote + "/" + name
  }
}
