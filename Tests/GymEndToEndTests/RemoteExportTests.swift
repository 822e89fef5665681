import Foundation
import Testing

/// Exports copied to rclone remotes: a WebDAV server on 127.0.0.1 (`rclone serve webdav`, a real
/// network path) and rclone's local backend. Nothing here reaches outside the machine.
@Suite(.serialized) struct RemoteExportTests {
  /// `rclone serve webdav DIR` on a free loopback port; stopped when the test ends.
  final class WebDAVServer {
    let process = Process()
    let root: String
    let port: Int

    init(root: String, log: String) throws {
      self.root = root
      try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
      #expect(FileManager.default.createFile(atPath: log, contents: nil))
      process.executableURL = URL(fileURLWithPath: "/usr/bin/rclone")
      process.arguments = [
        "serve", "webdav", root, "--addr", "127.0.0.1:0", "--config", "/dev/null",
        // Files are changed behind the server's back below: no listing is cached.
        "--dir-cache-time", "0s",
      ]
      process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
      try process.run()
      // Port 0: the kernel picks one, and rclone logs it once it listens (an event; the deadline
      // only ends a start that hangs).
      let deadline = Date().addingTimeInterval(30)
      var found: Int?
      while found == nil && Date() < deadline {
        usleep(50_000)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        if let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+/"#, options: .regularExpression) {
          found = Int(text[range].dropFirst("http://127.0.0.1:".count).dropLast())
        }
      }
      port = try #require(found, "rclone serve webdav did not start")
    }

    deinit {
      process.terminate()
      process.waitUntilExit()
    }
  }

  /// The names of gym's exports in a directory, oldest first.
  static func exports(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("gym-export-") }
      .sorted()
  }

  @Test func anEncryptedExportGoesToWebDAVAndComesBack() throws {
    let gym = try GymProcess()
    try gym.seed(50)
    let server = try WebDAVServer(root: gym.directory + "/served", log: gym.directory + "/dav.log")
    let config = try gym.write(
      "rclone.conf", "[dav]\ntype = webdav\nurl = http://127.0.0.1:\(server.port)/\nvendor = other\n")
    // A key pair from the age tool.
    let key = gym.directory + "/key.txt"
    let keygen = Process()
    keygen.executableURL = URL(fileURLWithPath: "/usr/bin/age-keygen")
    keygen.arguments = ["-o", key]
    keygen.standardError = FileHandle.nullDevice
    try keygen.run()
    keygen.waitUntilExit()
    let text = try String(contentsOfFile: key, encoding: .utf8)
    let recipient = try #require(
      text.split(separator: "\n").first { $0.hasPrefix("# public key: ") }?.dropFirst("# public key: ".count))
    let environment = ["RCLONE_CONFIG": config, "GYM_EXPORT_REMOTE": "dav:gym"]
    let made = try gym.run(["export", "--out", "backups", "--encrypt-to", String(recipient)], environment: environment)
    #expect(made.status == 0, "\(made.stderr)")
    let name = try #require(Self.exports(in: gym.directory + "/backups").first)
    #expect(made.stderr.contains("copied \(name) to dav:gym"))
    // Byte for byte what was written here, under the same names.
    let local = gym.directory + "/backups/" + name
    let remote = server.root + "/gym/" + name
    let files = try FileManager.default.contentsOfDirectory(atPath: local).sorted()
    #expect(try FileManager.default.contentsOfDirectory(atPath: remote).sorted() == files)
    for file in files {
      #expect(try GymProcess.sha256(local + "/" + file) == GymProcess.sha256(remote + "/" + file), "\(file)")
    }
    // Listed with its checks; the local listing says where it went.
    let listed = try gym.run(["export", "status", "--remote", "-f", "csv"], environment: environment)
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdoutLines.count == 2 && listed.stdoutLines[1].hasPrefix(name + ",") == true)
    #expect(listed.stdoutLines[1].hasSuffix(",ok"))
    let here = try gym.run(["export", "status", "--out", "backups", "-f", "csv"], environment: environment)
    #expect(here.stdoutLines.last?.hasSuffix(",ok,copied to dav:gym") == true, "\(here.stdout)")
    // Fetched back by name, checked, and restored with the key.
    let pulled = try gym.run(["export", "pull", name, "restored"], environment: environment)
    #expect(pulled.status == 0 && pulled.stdoutLines == ["restored"], "\(pulled.stderr)")
    let copy = environment.merging(["GYM_DATABASE": gym.directory + "/copy.sqlite"]) { $1 }
    #expect(try gym.run(["import", "restored", "--identity", key], environment: copy).status == 0)
    #expect(try gym.run(["history", "count"], environment: copy).stdoutLines == ["50"])
    // No such export: exit 66; a directory that exists is not overwritten.
    let missing = try gym.run(
      ["export", "pull", "dav:gym/gym-export-19700101T000000.000Z", "x"], environment: environment)
    #expect(missing.status == 66 && missing.stderr.contains("no export there"), "\(missing.stderr)")
    #expect(try gym.run(["export", "pull", name, "restored"], environment: environment).status == 73)
    // A file gone on the server, and a copy whose manifest never arrived: both reported, exit 1,
    // and a pull of the damaged one refused with nothing left behind.
    try FileManager.default.removeItem(atPath: remote + "/workout.ndjson.gz.age")
    try FileManager.default.createDirectory(
      atPath: server.root + "/gym/gym-export-20991231T000000.000Z", withIntermediateDirectories: true)
    try Data("x".utf8).write(to: URL(fileURLWithPath: server.root + "/gym/gym-export-20991231T000000.000Z/a.gz"))
    let damaged = try gym.run(["export", "status", "--remote", "-f", "csv"], environment: environment)
    #expect(damaged.status == 1, "\(damaged.stdout)")
    #expect(damaged.stdout.contains("damaged: workout.ndjson.gz.age is missing"))
    #expect(damaged.stdout.contains("incomplete: no manifest.json"))
    let bad = try gym.run(["export", "pull", name, "again"], environment: environment)
    #expect(bad.status == 65 && bad.stderr.contains("workout.ndjson.gz.age: the file is missing"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: gym.directory + "/again"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: gym.directory).allSatisfy { !$0.hasSuffix(".partial") })
  }

  /// A remote that refuses: the export stays here, exit 75, the failure in `export status`; the
  /// next export, once the remote answers, copies both.
  @Test func aFailedCopyIsKeptReportedAndRetried() throws {
    let gym = try GymProcess()
    try gym.seed(20)
    // Port 1 on the loopback: nothing listens there, so every connection is refused.
    let config = try gym.write("rclone.conf", "[offsite]\ntype = webdav\nurl = http://127.0.0.1:1/\n")
    let environment = ["RCLONE_CONFIG": config]
    let started = Date()
    let failed = try gym.run(["export", "--out", "backups", "--remote", "offsite:gym"], environment: environment)
    #expect(failed.status == 75, "\(failed.stderr)")
    #expect(failed.stderr.contains("failed after 3 tries") && failed.stderr.contains("connection refused"))
    // Two pauses between three tries: 1 s and 4 s.
    #expect(Date().timeIntervalSince(started) >= 5)
    let first = try #require(Self.exports(in: gym.directory + "/backups").first)
    #expect(try gym.run(["export", "verify", "backups/" + first]).status == 0)
    let status = try gym.run(["export", "status", "--out", "backups", "-f", "json"])
    #expect(status.stdout.contains("failed (3 tries) to offsite:gym"), "\(status.stdout)")
    // The remote comes back (here: the same name, now rclone's local backend, where `offsite:gym`
    // is the directory gym beside the database).
    _ = try gym.write("rclone.conf", "[offsite]\ntype = local\n")
    let next = try gym.run(["export", "--out", "backups", "--remote", "offsite:gym"], environment: environment)
    #expect(next.status == 0, "\(next.stderr)")
    #expect(next.stderr.contains("copied \(first) to offsite:gym (it had failed before)"), "\(next.stderr)")
    let all = Self.exports(in: gym.directory + "/backups")
    #expect(all.count == 2)
    #expect(Self.exports(in: gym.directory + "/gym") == all)
    let now = try gym.run(["export", "status", "--out", "backups", "-f", "csv"])
    #expect(now.stdoutLines.dropFirst().allSatisfy { $0.contains(",copied to offsite:") }, "\(now.stdout)")
  }

  /// The scheduler copies each export and thins the remote by the same rules as the directory.
  @Test func theScheduleCopiesAndThinsTheRemote() throws {
    let gym = try GymProcess()
    try gym.seed(20)
    let out = gym.directory + "/exports"
    let remote = gym.directory + "/remote"
    let (status, log) = try gym.runUntilLogged(
      ["export", "schedule", "--every", "1s", "--keep", "2", "--out", out, "--remote", remote],
      marker: " copied gym-export-", count: 4)
    #expect(status == 0, "\(log)")
    #expect(log.contains("removed from \(remote): gym-export-"), "\(log)")
    let here = Self.exports(in: out)
    #expect(here.count == 2)
    #expect(Self.exports(in: remote) == here, "\(log)")
  }

  /// `export prune` applies restic's rules to the remote's exports by the time in their manifests:
  /// ten exports at noon UTC from 25 October to 3 November, kept by --keep-daily 3 --keep-monthly 2.
  @Test func pruneThinsTheRemoteByTheCalendar() throws {
    let gym = try GymProcess()
    let remote = gym.directory + "/remote"
    let days = (25...31).map { "2026-10-\($0)" } + (1...3).map { "2026-11-0\($0)" }
    var names: [String] = []
    for day in days {
      let name = "gym-export-\(day.replacingOccurrences(of: "-", with: ""))T120000.000Z"
      names.append(name)
      try FileManager.default.createDirectory(atPath: remote + "/" + name, withIntermediateDirectories: true)
      let manifest = """
        {"kind":"gym-export","version":1,"gymVersion":"test","created":"\(day)T12:00:00.000Z","dataFormat":"ndjson",
        "compression":"gzip","schema":[],"tables":[],"files":[]}
        """
      try Data(manifest.utf8).write(to: URL(fileURLWithPath: remote + "/" + name + "/manifest.json"))
    }
    // Beside them, nothing prune may touch or count: a damaged copy dated the 4th (its manifest lists a
    // file that is not there), a copy without its manifest, and a directory that is not gym's.
    let damaged = remote + "/gym-export-20261104T120000.000Z"
    try FileManager.default.createDirectory(atPath: damaged, withIntermediateDirectories: true)
    try Data(
      """
      {"kind":"gym-export","version":1,"gymVersion":"test","created":"2026-11-04T12:00:00.000Z","dataFormat":"ndjson",
      "compression":"gzip","schema":[],"tables":[],"files":[{"name":"workout.ndjson.gz","bytes":10,"sha256":"00"}]}
      """.utf8
    ).write(to: URL(fileURLWithPath: damaged + "/manifest.json"))
    try FileManager.default.createDirectory(
      atPath: remote + "/gym-export-20260101T120000.000Z", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: remote + "/photos", withIntermediateDirectories: true)
    // The three newest days (3, 2 and 1 November), and the newest of each of the last two months:
    // November's is 3 November, already kept; October's is the 31st.
    let kept = ["2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03"].map {
      "gym-export-\($0.replacingOccurrences(of: "-", with: ""))T120000.000Z"
    }
    let arguments = [
      "export", "prune", "--out", "empty", "--keep", "0", "--keep-daily", "3", "--keep-monthly", "2", "--remote",
      remote,
    ]
    let dry = try gym.run(arguments + ["--dry-run"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdoutLines.map(String.init) == names.filter { !kept.contains($0) }.map { remote + "/" + $0 })
    #expect(Self.exports(in: remote).count == 12)
    let real = try gym.run(arguments)
    #expect(real.status == 0 && real.stderr.contains("deleted 6 exports on \(remote)"), "\(real.stderr)")
    #expect(
      Self.exports(in: remote)
        == ["gym-export-20260101T120000.000Z"] + kept + ["gym-export-20261104T120000.000Z"])
    #expect(FileManager.default.fileExists(atPath: remote + "/photos"))
    // Rules that keep nothing never empty a remote.
    let none = try gym.run(["export", "prune", "--out", "empty", "--keep", "0", "--remote", remote])
    #expect(none.status == 64 && none.stderr.contains("keep nothing"), "\(none.stderr)")
  }

  /// A remote rclone's configuration does not define: exit 78 at once (no retry helps), the export kept.
  @Test func aRemoteThatIsNotConfiguredIs78() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    let config = try gym.write("rclone.conf", "[other]\ntype = local\n")
    let started = Date()
    let made = try gym.run(
      ["export", "--out", "backups", "--remote", "nowhere:gym"], environment: ["RCLONE_CONFIG": config])
    #expect(made.status == 78 && made.stderr.contains("didn't find section in config file"), "\(made.stderr)")
    // No retry: rclone's three tries with their timeouts would take minutes (a loaded machine may
    // still take a few seconds to export and start rclone).
    #expect(Date().timeIntervalSince(started) < 15)
    #expect(Self.exports(in: gym.directory + "/backups").count == 1)
    let listed = try gym.run(
      ["export", "status", "--remote"], environment: ["RCLONE_CONFIG": config, "GYM_EXPORT_REMOTE": "nowhere:gym"])
    #expect(listed.status == 78, "\(listed.stderr)")
  }
}
