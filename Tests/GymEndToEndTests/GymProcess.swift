import Foundation

/// Runs the built `gym` binary as a user would, and captures what it prints.
struct GymProcess {
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Lines without their terminators (`\r\n` from CSV is one `Character`, so split on newlines).
    var stdoutLines: [Substring] { stdout.split(whereSeparator: \.isNewline) }
  }

  /// Where `swift test` builds the test bundle and, beside it, `gym` and `gym-fuzz`.
  static let buildDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent()

  /// The `gym` in the build directory, or the one `GYM_TEST_BINARY` names: `make test-release` runs
  /// these tests against the release build.
  static let executable: String = {
    if let binary = ProcessInfo.processInfo.environment["GYM_TEST_BINARY"], !binary.isEmpty { return binary }
    return buildDirectory.appendingPathComponent("gym").path
  }()

  let directory: String
  var environment: [String: String]

  /// A scratch directory with its own database path, HOME and configuration search paths.
  init() throws {
    directory = NSTemporaryDirectory() + "gym-e2e-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    environment = [
      "PATH": "/usr/bin:/bin", "HOME": directory, "TZ": "UTC", "XDG_DATA_HOME": directory + "/data",
      "XDG_CONFIG_HOME": directory + "/config", "GYM_DATABASE": directory + "/gym.sqlite",
    ]
  }

  var databasePath: String { environment["GYM_DATABASE"]! }

  /// The note the first command that writes prints after it made the database.
  var createdNote: String { "gym: created database '\(databasePath)'\n" }

  @discardableResult
  func run(
    _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:], executable: String? = nil,
    stdinBytes: Data? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable ?? Self.executable)
    process.arguments = arguments
    process.environment = environment.merging(extra) { $1 }
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    // Read both pipes while the process runs, so a large output cannot fill a pipe and stall it.
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    if let stdinBytes { input.fileHandleForWriting.write(stdinBytes) }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    group.wait()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  func write(_ name: String, _ text: String) throws -> String {
    let path = directory + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Seeds `count` generated workouts through the real `sample | import` path.
  func seed(_ count: Int, database: String? = nil) throws {
    let sample = try run(["history", "sample", "--count", String(count), "--days", "60"])
    let imported = try run(
      ["history", "import", "-"] + (database.map { ["--database", $0] } ?? []), stdin: sample.stdout)
    precondition(imported.status == 0, imported.stderr)
  }
}

extension GymProcess {
  /// A file's SHA-256 in hexadecimal, from coreutils (the reference, not gym's own hashing).
  static func sha256(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [path]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    process.waitUntilExit()
    return String(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64))
  }
}

extension GymProcess {
  /// Runs `gym arguments` (a scheduler) with stderr to a log, until the log holds `marker` `count`
  /// times (an event; the deadline only ends a run that hangs), then sends SIGTERM and waits.
  /// Returns the exit status and the log.
  func runUntilLogged(
    _ arguments: [String], marker: String, count: Int, environment extra: [String: String] = [:]
  ) throws -> (status: Int32, log: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments = arguments
    process.environment = environment.merging(extra) { $1 }
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let logPath = directory + "/scheduler-\(UUID().uuidString).log"
    precondition(FileManager.default.createFile(atPath: logPath, contents: nil))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    try process.run()
    let deadline = Date().addingTimeInterval(300)
    var seen = 0
    while Date() < deadline && seen < count {
      usleep(100_000)
      seen = try String(contentsOfFile: logPath, encoding: .utf8).components(separatedBy: marker).count - 1
    }
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    return (process.terminationStatus, try String(contentsOfFile: logPath, encoding: .utf8))
  }
}

/// Tests whose expected values name today (in UTC, the zone the tests give gym) start at least two
/// minutes before midnight, and those that name the hour at least 20 seconds before the hour: one
/// that would run across the edge waits until it has passed, so what gym computes and what the test
/// computes fall on the same side of it.
enum ClockEdge {
  static func avoidMidnight() { avoid(every: 86_400, margin: 120) }
  static func avoidTheHour() { avoid(every: 3_600, margin: 20) }

  static func avoid(every period: TimeInterval, margin: TimeInterval) {
    let untilEdge = period - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: period)
    if untilEdge < margin { usleep(UInt32((untilEdge + 1) * 1_000_000)) }
  }
}
