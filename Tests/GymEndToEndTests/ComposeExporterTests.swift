import Foundation
import Testing
import Yams

/// The compose stack's exporter, run here as the container runs it: its command line is read
/// from docker-compose.yml (only the interval, the retention, the directory and the secrets' paths
/// are changed, to a second, two, a scratch directory and scratch files), left to make and copy three
/// exports, then sent SIGTERM.
@Suite struct ComposeExporterTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func exporterCommand() throws -> [String] {
    try #require(try service("exporter")["command"] as? [String])
  }

  static func compose() throws -> [String: Any] {
    let text = try String(contentsOf: root.appendingPathComponent("docker-compose.yml"), encoding: .utf8)
    return try #require(try Yams.load(yaml: text) as? [String: Any])
  }

  static func service(_ name: String) throws -> [String: Any] {
    let services = try #require(try compose()["services"] as? [String: Any])
    return try #require(services[name] as? [String: Any])
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
    // The secrets, as compose mounts them: files under /run/secrets, here in the scratch directory.
    let exporter = try Self.service("exporter")
    #expect(exporter["secrets"] as? [String] == ["age_recipients", "rclone_conf"])
    let secrets = try #require(try Self.compose()["secrets"] as? [String: Any])
    #expect(Set(secrets.keys) == ["age_recipients", "rclone_conf", "sync_identity"])
    #expect(command[try #require(command.firstIndex(of: "--recipients-file")) + 1] == "/run/secrets/age_recipients")
    let environment = try #require(exporter["environment"] as? [String: Any])
    #expect(environment["RCLONE_CONFIG"] as? String == "/run/secrets/rclone_conf")
    let remote = command[try #require(command.firstIndex(of: "--remote")) + 1]
    let remoteName = try #require(remote.split(separator: ":").first.map(String.init))
    // The recipients file as age-keygen writes a key: a comment naming the public key, then it.
    let keygen = Process()
    keygen.executableURL = URL(fileURLWithPath: "/usr/bin/age-keygen")
    let publicKey = Pipe()
    keygen.standardOutput = publicKey
    keygen.standardError = FileHandle.nullDevice
    try keygen.run()
    let key = String(decoding: publicKey.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    keygen.waitUntilExit()
    let recipient = try #require(key.split(separator: "\n").first { $0.hasPrefix("# public key: ") })
      .dropFirst("# public key: ".count)
    let recipients = try gym.write("age-recipients.txt", "# the backup key\n\(recipient)\n")
    command = try Self.replacing("--recipients-file", with: recipients, in: command)
    // rclone's local backend under the remote's name: `offsite:gym` is the directory gym here.
    let rcloneConfig = try gym.write("rclone.conf", "[\(remoteName)]\ntype = local\n")
    // Waits for the third export's copy.
    let (status, log) = try gym.runUntilLogged(
      command, marker: " copied gym-export-", count: 3, environment: ["RCLONE_CONFIG": rcloneConfig])
    #expect(status == 0, "\(log)")
    let lines = log.split(separator: "\n")
    #expect(lines.filter { $0.contains(" exported gym-export-") }.count >= 3, "\(log)")
    #expect(lines.last?.hasSuffix("export schedule stopped") == true)
    #expect(log.contains("; removed gym-export-"))
    // Two exports kept, and the report written after the last (the exporter runs with --report).
    let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(files.contains("report.html"), "\(files)")
    #expect(try String(contentsOfFile: out + "/report.html", encoding: .utf8).contains("<title>gym report</title>"))
    let names = files.filter { $0.hasPrefix("gym-export-") }
    #expect(names.count == 2, "\(names)")
    // Stopped between exports or during one, it leaves nothing half-made.
    #expect(files.allSatisfy { !$0.contains(".partial") }, "\(files)")
    for name in names {
      let verified = try gym.run(["export", "verify", out + "/" + name])
      #expect(verified.status == 0 && verified.stderr.contains("encrypted files, checksums match"))
    }
    // The remote holds the same two, thinned by the same rules.
    let copies = try FileManager.default.contentsOfDirectory(atPath: gym.directory + "/gym").sorted()
    #expect(copies == names, "\(log)")
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
    #expect(stale.stderr.contains("no complete, intact export of this database in"))
  }

  /// The sync service, run as compose runs it (its environment and command, the interval made a
  /// second and the secrets' paths scratch files): it syncs the server's pantry up, on its interval,
  /// and a laptop syncing through the same remote and key gets it; SIGTERM stops it with exit 0.
  @Test func theSyncServiceSharesThePantryAndStopsCleanly() throws {
    let service = try Self.service("sync")
    var command = try #require(service["command"] as? [String])
    #expect(Array(command.prefix(2)) == ["sync", "schedule"])
    command = try Self.replacing("--every", with: "1s", in: command)
    #expect(service["secrets"] as? [String] == ["rclone_conf", "sync_identity"])
    var environment = try #require(service["environment"] as? [String: String])
    #expect(environment["GYM_SYNC_IDENTITY"] == "/run/secrets/sync_identity")
    #expect(environment["RCLONE_CONFIG"] == "/run/secrets/rclone_conf")
    let remote = try #require(environment["GYM_SYNC_REMOTE"])
    let remoteName = try #require(remote.split(separator: ":").first.map(String.init))
    let server = try GymProcess()
    #expect(
      try server.run(["staples", "add", "Oats", "--category", "Pantry", "--quantity", "2", "--unit", "kg"]).status == 0)
    let key = server.directory + "/sync.key"
    let keygen = try Process.run(URL(fileURLWithPath: "/usr/bin/age-keygen"), arguments: ["-o", key])
    keygen.waitUntilExit()
    // rclone's local backend under the remote's name: `offsite:gym` is the directory gym here.
    let rcloneConfig = try server.write("rclone.conf", "[\(remoteName)]\ntype = local\n")
    environment["GYM_SYNC_IDENTITY"] = key
    environment["RCLONE_CONFIG"] = rcloneConfig
    environment["GYM_DATABASE"] = server.databasePath
    environment["GYM_TIME_ZONE"] = "UTC"
    let (status, log) = try server.runUntilLogged(command, marker: " synced ", count: 2, environment: environment)
    #expect(status == 0, "\(log)")
    #expect(log.contains(" synced home-server (first sync): pulled 0 change(s), pushed 1"), "\(log)")
    // The first run is also the day's compaction: the one change is younger than an hour.
    #expect(log.contains(" nothing new to compact: no run of changes older than 1h"), "\(log)")
    #expect(command.suffix(2) == ["--compact-every", "1d"])
    #expect(log.split(separator: "\n").last?.hasSuffix("sync schedule stopped") == true, "\(log)")
    var laptop = try GymProcess()
    laptop.environment["RCLONE_CONFIG"] = rcloneConfig
    let pulled = try laptop.run([
      "sync", "--remote", remote.replacingOccurrences(of: "gym", with: server.directory + "/gym"), "--identity", key,
    ])
    #expect(pulled.status == 0, "\(pulled.stderr)")
    #expect(
      try laptop.run(["staples", "stock", "-f", "csv"]).stdout
        == "item,category,quantity,unit,lots,bestBefore\r\nOats,Pantry,2,kg,1,\r\n")
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
