import Foundation
import Testing

/// What reaches rclone and what comes back from it is bounded: a remote that looks like a flag or
/// holds a control character is refused before anything runs; a manifest too large to be one is
/// not read; a copy cut short is recorded before it began and finished by the next run, its export
/// kept here meanwhile; rclone dies with gym; and a remote that accepts and never answers ends in
/// exit 75 within rclone's timeouts.
@Suite struct RemoteSafetyTests {
  /// A TCP port on 127.0.0.1 that accepts connections (the kernel completes them into the backlog)
  /// and never answers: a remote that hangs. Closed when the returned descriptor is.
  static func silentServer() throws -> (descriptor: Int32, port: Int) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    try #require(bound == 0 && listen(descriptor, 64) == 0)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
  }

  @Test func remotesThatLookLikeFlagsAreRefused() throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let logFile = gym.directory + "/rclone.log"
    let refused: [([String], [String: String], Int32)] = [
      (["export", "--out", "b", "--remote=--log-file=\(logFile)"], [:], 64),
      (["export", "--out", "b", "--remote", "nas:gym\nx"], [:], 64),
      (["export", "pull", "--", "--log-file=\(logFile)", "d"], [:], 64),
      (["export", "--out", "b"], ["GYM_EXPORT_REMOTE": "--log-file=\(logFile)"], 78),
      (["export", "status", "--remote"], ["GYM_EXPORT_REMOTE": "-vv"], 78),
    ]
    for (command, environment, status) in refused {
      let result = try gym.run(command, environment: environment)
      #expect(result.status == status, "\(command): \(result.status) \(result.stderr)")
      #expect(!result.stderr.contains("\n") || result.stderr.split(separator: "\n").count == 1)
    }
    #expect(!FileManager.default.fileExists(atPath: logFile))
    // Refused before the export was written.
    #expect(!FileManager.default.fileExists(atPath: gym.directory + "/b"))
  }

  /// A local directory whose relative name rclone would read otherwise (`bk:x`, the remote `bk`;
  /// `-bk`, a flag) is handed to it as an absolute path: the export itself is what gets copied.
  @Test(arguments: ["bk:x", "-bk"])
  func aLocalDirectoryIsNeverTakenForARemoteOrAFlag(out: String) throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let remote = gym.directory + "/remote"
    let made = try gym.run(["export", "--out=\(out)", "--remote", remote])
    #expect(made.status == 0, "\(made.stderr)")
    let name = made.stdout.split(separator: "/").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    let copied = try FileManager.default.contentsOfDirectory(atPath: remote)
    #expect(copied == [try #require(name)], "\(copied)")
    let local = try FileManager.default.contentsOfDirectory(atPath: gym.directory + "/" + out + "/" + copied[0])
    #expect(try FileManager.default.contentsOfDirectory(atPath: remote + "/" + copied[0]).sorted() == local.sorted())
  }

  /// A manifest of 5 MiB on the remote is not read: the export is named damaged.
  @Test func anOversizedRemoteManifestIsNotRead() throws {
    let gym = try GymProcess()
    let remote = gym.directory + "/remote"
    let export = remote + "/gym-export-20261101T120000.000Z"
    try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: export + "/manifest.json", contents: Data(count: 5 << 20)))
    let listed = try gym.run(["export", "status", "--remote", "-f", "csv"], environment: ["GYM_EXPORT_REMOTE": remote])
    #expect(listed.status == 1, "\(listed.stderr)")
    #expect(listed.stdout.contains("damaged: manifest.json is \(5 << 20) bytes"), "\(listed.stdout)")
  }

  /// gym killed while rclone copies to a remote that hangs: rclone dies with it, the log says the
  /// copy began, thinning keeps the export, and the next export (the remote back) copies both.
  @Test func aCopyCutShortIsFinishedByTheNextRun() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    let (server, port) = try Self.silentServer()
    defer { close(server) }
    let hanging = [
      "RCLONE_CONFIG_OFFSITE_TYPE": "webdav", "RCLONE_CONFIG_OFFSITE_URL": "http://127.0.0.1:\(port)",
      "RCLONE_CONFIG": "/dev/null",
    ]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: GymProcess.executable)
    process.arguments = ["export", "--out", "backups", "--remote", "offsite:gym", "-q"]
    process.environment = gym.environment.merging(hanging) { $1 }
    process.currentDirectoryURL = URL(fileURLWithPath: gym.directory)
    try process.run()
    let log = gym.directory + "/backups/.gym-remote.json"
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline, (try? String(contentsOfFile: log, encoding: .utf8))?.contains("copying") != true {
      usleep(20_000)
    }
    usleep(300_000)  // rclone started
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    // rclone, killed with its parent, is gone within a moment.
    var survivors: [String] = []
    for _ in 0..<50 {
      survivors = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { pid in
        guard Int(pid) != nil, let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
        else { return nil }
        return command.contains("rclone") && command.contains("offsite:gym") && command.contains(gym.directory)
          ? pid : nil
      }
      if survivors.isEmpty { break }
      usleep(100_000)
    }
    #expect(survivors.isEmpty, "rclone outlived gym: \(survivors)")
    let status = try gym.run(["export", "status", "--out", "backups", "-f", "csv"])
    #expect(status.stdout.contains("not finished"), "\(status.stdout)")
    let first = try #require(
      try FileManager.default.contentsOfDirectory(atPath: gym.directory + "/backups").first {
        $0.hasPrefix("gym-export-")
      })
    sleep(1)
    // A second export, thinned to one: the first is kept, its copy never finished.
    let local = ["RCLONE_CONFIG_OFFSITE_TYPE": "local", "RCLONE_CONFIG": "/dev/null"]
    #expect(try gym.run(["export", "--out", "backups", "--no-remote", "-q"]).status == 0)
    let pruned = try gym.run(["export", "prune", "--out", "backups", "--keep", "1"])
    #expect(pruned.status == 0 && !pruned.stdout.contains(first), "\(pruned.stdout)")
    // The remote is back: the next export copies the one cut short, then itself.
    let next = try gym.run(["export", "--out", "backups", "--remote", "offsite:gym"], environment: local)
    #expect(next.status == 0, "\(next.stderr)")
    #expect(next.stderr.contains("copied \(first) to offsite:gym (it had failed before)"), "\(next.stderr)")
    let copied = try FileManager.default.contentsOfDirectory(atPath: gym.directory + "/gym")
    #expect(copied.contains(first) && copied.count == 2, "\(copied)")
  }

  /// A remote that accepts and never answers is exit 75 within rclone's timeouts (here shortened
  /// through rclone's own variables); the export stays here.
  @Test func aSilentRemoteIsATemporaryFailure() throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let (server, port) = try Self.silentServer()
    defer { close(server) }
    let started = Date()
    let result = try gym.run(
      ["export", "--out", "backups", "--remote", "offsite:gym"],
      environment: [
        "RCLONE_CONFIG_OFFSITE_TYPE": "webdav", "RCLONE_CONFIG_OFFSITE_URL": "http://127.0.0.1:\(port)",
        "RCLONE_CONFIG": "/dev/null", "RCLONE_TIMEOUT": "1s", "RCLONE_CONTIMEOUT": "1s",
      ])
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains("after 3 tries"), "\(result.stderr)")
    // A guard against a hang, not a speed target: three tries of two 1 s timeouts and 5 s of pauses.
    #expect(Date().timeIntervalSince(started) < 120)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: gym.directory + "/backups").contains {
        $0.hasPrefix("gym-export-")
      })
  }

  /// A data file on a local remote replaced by a symbolic link to a file elsewhere with the same
  /// bytes, the link's own size (its path's length) and time made equal to theirs, so nothing but
  /// following it would show: `export pull` never follows it, and refuses the export.
  @Test func aLinkOnALocalRemoteIsNeverFollowed() throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let remote = gym.directory + "/remote"
    #expect(try gym.run(["export", "--out", "b", "--compress", "none", "--remote", remote, "-q"]).status == 0)
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: remote).first)
    let file = remote + "/" + name + "/workout.ndjson"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    // A target path exactly as long as the file: directories of 100 characters, then a name.
    var target = gym.directory + "/elsewhere"
    while bytes.count - target.count > 101 { target += "/" + String(repeating: "d", count: 99) }
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    target += "/" + String(repeating: "f", count: bytes.count - target.count - 1)
    #expect(target.utf8.count == bytes.count)
    try bytes.write(to: URL(fileURLWithPath: target))
    try FileManager.default.removeItem(atPath: file)
    try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: target)
    // The link and the file it points at share one modification time too.
    var times = [timeval(tv_sec: 1_700_000_000, tv_usec: 0), timeval(tv_sec: 1_700_000_000, tv_usec: 0)]
    #expect(utimes(target, &times) == 0 && lutimes(file, &times) == 0)
    let pulled = try gym.run(["export", "pull", remote + "/" + name, "restored"])
    #expect(pulled.status == 65, "\(pulled.status) \(pulled.stderr)")
    #expect(!FileManager.default.fileExists(atPath: gym.directory + "/restored"))
  }
}
