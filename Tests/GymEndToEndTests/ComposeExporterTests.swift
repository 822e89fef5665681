import Foundation
import Testing
import Yams

/// The compose stack's exporter, run here as the container runs it: its command line is read
/// from docker-compose.yml (only the interval, the retention and the directory are changed, to
/// a second, two and a scratch directory), left to make three exports, then sent SIGTERM.
@Suite struct ComposeExporterTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func exporterCommand() throws -> [String] {
    let text = try String(contentsOf: root.appendingPathComponent("docker-compose.yml"), encoding: .utf8)
    let compose = try #require(try Yams.load(yaml: text) as? [String: Any])
    let services = try #require(compose["services"] as? [String: Any])
    let exporter = try #require(services["exporter"] as? [String: Any])
    return try #require(exporter["command"] as? [String])
  }

  /// `--option value` replaced in place; the option must be there.
  static func replacing(_ option: String, with value: String, in command: [String]) throws -> [String] {
    var command = command
    let index = try #require(command.firstIndex(of: option), "\(option) is not in the exporter's command")
    command[index + 1] = value
    return command
  }

  @Test func theExporterMakesExportsKeepsTheNewestAndStopsCleanly() throws {
    let gym = try GymProcess()
    try gym.seed(200)
    let out = gym.directory + "/exports"
    var command = try Self.exporterCommand()
    #expect(Array(command.prefix(2)) == ["export", "schedule"])
    command = try Self.replacing("--every", with: "1s", in: command)
    command = try Self.replacing("--keep", with: "2", in: command)
    command = try Self.replacing("--out", with: out, in: command)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: GymProcess.executable)
    process.arguments = command
    process.environment = gym.environment
    let logPath = gym.directory + "/exporter.log"
    #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    try process.run()
    // Waits for the third export (an event); the deadline only ends a run that hangs.
    let deadline = Date().addingTimeInterval(300)
    var made = 0
    while Date() < deadline && made < 3 {
      usleep(100_000)
      made =
        try String(contentsOfFile: logPath, encoding: .utf8).components(separatedBy: " exported gym-export-").count - 1
    }
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    let log = try String(contentsOfFile: logPath, encoding: .utf8)
    #expect(process.terminationStatus == 0, "\(log)")
    let lines = log.split(separator: "\n")
    #expect(lines.filter { $0.contains(" exported gym-export-") }.count >= 3, "\(log)")
    #expect(lines.last?.hasSuffix("export schedule stopped") == true)
    #expect(log.contains("; removed gym-export-"))
    // Two exports kept, and the report written after the last (the exporter runs with --report).
    let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(files.contains("report.html"), "\(files)")
    #expect(try String(contentsOfFile: out + "/report.html", encoding: .utf8).contains("<title>gym report</title>"))
    let names = files.filter { $0 != "report.html" }
    #expect(names.count == 2, "\(names)")
    for name in names {
      #expect(try gym.run(["export", "verify", out + "/" + name]).status == 0)
    }
    // The healthcheck's command, as compose runs it: healthy, since the newest export is seconds old.
    let text = try String(contentsOf: Self.root.appendingPathComponent("docker-compose.yml"), encoding: .utf8)
    let compose = try #require(try Yams.load(yaml: text) as? [String: Any])
    let services = try #require(compose["services"] as? [String: Any])
    let health = try #require((services["exporter"] as? [String: Any])?["healthcheck"] as? [String: Any])
    var test = try #require(health["test"] as? [String])
    #expect(Array(test.prefix(2)) == ["CMD", "gym"])
    test = try Self.replacing("--out", with: out, in: Array(test.dropFirst(2)))
    #expect(try gym.run(test).status == 0)
    // And unhealthy once the newest export is older than --max-age.
    sleep(2)
    let stale = try gym.run(try Self.replacing("--max-age", with: "1s", in: test))
    #expect(stale.status == 1)
    #expect(stale.stderr.contains("no export in"))
  }

  /// Both services count days in the zone compose is given, and compose refuses to start without
  /// one, rather than let the container's UTC move evening walks into the next day.
  @Test func theStackPassesTheTimeZoneThrough() throws {
    let text = try String(contentsOf: Self.root.appendingPathComponent("docker-compose.yml"), encoding: .utf8)
    let compose = try #require(try Yams.load(yaml: text) as? [String: Any])
    let services = try #require(compose["services"] as? [String: Any])
    for name in ["gym", "exporter"] {
      let environment = try #require((services[name] as? [String: Any])?["environment"] as? [String: Any])
      #expect((environment["GYM_TIME_ZONE"] as? String)?.hasPrefix("${TZ:?") == true, "\(name)")
    }
    // gym itself refuses a zone the system does not know, as a configuration error.
    let gym = try GymProcess()
    try gym.seed(1)
    let bad = try gym.run(["history", "count"], environment: ["GYM_TIME_ZONE": "Mars/Olympus"])
    #expect(bad.status == 78)
    #expect(bad.stderr.contains("GYM_TIME_ZONE='Mars/Olympus' is not an IANA time zone name"))
    #expect(try gym.run(["history", "count"], environment: ["GYM_TIME_ZONE": "Asia/Kolkata"]).status == 0)
  }
}
