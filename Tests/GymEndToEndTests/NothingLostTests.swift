import Foundation
import Testing

/// Paths and settings that would lose data without a word: an empty `--database` (SQLite's temporary
/// database, gone at close), a report written over the database, a read that would make an empty file
/// a database, a `TZ` the C library reads as UTC. Each is refused with one line and its exit status,
/// and nothing is changed.
@Suite struct NothingLostTests {
  @Test func anEmptyDatabasePathIsRefused() throws {
    let gym = try GymProcess()
    for arguments in [
      ["history", "add", "--plan-title", "X", "--focus", "push", "--duration", "5"], ["migrate", "up"],
      ["history", "count"],
    ] {
      let result = try gym.run(["--database", ""] + arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr == "gym: error: --database needs a path; give the database file's path\n")
      #expect(result.stdout.isEmpty)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: gym.directory).filter { $0.hasPrefix("gym") }.isEmpty)
  }

  /// `report --out` naming the database (or any SQLite file) is refused (73); the workouts stay.
  @Test func aReportIsNeverWrittenOverADatabase() throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let before = try Data(contentsOf: URL(fileURLWithPath: gym.databasePath))
    let result = try gym.run(["report", "--out", gym.databasePath])
    #expect(result.status == 73, "\(result.stderr)")
    #expect(result.stderr.contains("is an SQLite database, which gym never writes over"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: gym.databasePath)) == before)
    #expect(try gym.run(["history", "count"]).stdout == "3\n")
  }

  /// An empty file at the path is no database: reads and exports are 66 and leave it empty; the
  /// first add makes it one and says so.
  @Test func anEmptyFileIsNoDatabaseToARead() throws {
    let gym = try GymProcess()
    FileManager.default.createFile(atPath: gym.databasePath, contents: Data())
    for arguments in [
      ["history", "list"], ["history", "count"], ["export", "--out", gym.directory + "/ex"], ["migrate", "status"],
    ] {
      let result = try gym.run(arguments)
      #expect(result.status == 66, "\(arguments): \(result.stderr)")
      #expect(try FileManager.default.attributesOfItem(atPath: gym.databasePath)[.size] as? Int == 0, "\(arguments)")
    }
    let doctor = try gym.run(["doctor", "--format", "csv"])
    #expect(
      doctor.stdout.contains("an empty file, no database yet") && !doctor.stdout.contains("pending"), "\(doctor.stdout)"
    )
    #expect(try FileManager.default.attributesOfItem(atPath: gym.databasePath)[.size] as? Int == 0)
    let added = try gym.run(["history", "add", "--plan-title", "X", "--focus", "push", "--duration", "5"])
    #expect(added.status == 0)
    #expect(added.stderr == gym.createdNote)
  }

  /// A command that fails after it made the database removes it again, where no file was before; an
  /// empty file that was there, or a symbolic link to a file not made yet, stays (the link's target
  /// holds what the store made: a later command carries on there).
  @Test func aFailedCommandRemovesOnlyADatabaseWhereNothingWas() throws {
    let gym = try GymProcess()
    let refused = ["staples", "add", "Foo"]  // a new item without --category: refused after the store opened
    #expect(try gym.run(refused).status == 64)
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
    // Nor the folders made for it, while they are empty.
    #expect(try gym.run(["--database", gym.directory + "/new/sub/x.sqlite"] + refused).status == 64)
    #expect(!FileManager.default.fileExists(atPath: gym.directory + "/new"))
    FileManager.default.createFile(atPath: gym.databasePath, contents: Data())
    #expect(try gym.run(refused).status == 64)
    #expect(FileManager.default.fileExists(atPath: gym.databasePath))
    let link = gym.directory + "/link.sqlite"
    try FileManager.default.createDirectory(atPath: gym.directory + "/real", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: gym.directory + "/real/d.sqlite")
    #expect(try gym.run(["--database", link] + refused).status == 64)
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == gym.directory + "/real/d.sqlite")
  }

  /// A `TZ` glibc cannot read is UTC to it without a word, and a Strong file's 10:00 would be stored
  /// an hour off in Paris: refused (78) before anything is read. Names, paths and POSIX rules it can
  /// read run as they are.
  @Test func aTimeZoneTheSystemCannotReadIsRefused() throws {
    let gym = try GymProcess()
    for zone in [
      "Europe/Pariss", "Mars/Olympus", "../../etc/passwd", "/etc/passwd", "/usr/share/zoneinfo/Europe", "iso3166.tab",
      "UTC+2x",
    ] {
      let result = try gym.run(["history", "count"], environment: ["TZ": zone])
      #expect(result.status == 78, "\(zone): \(result.stderr)")
      #expect(result.stderr.contains("TZ '\(zone)' is no time zone this system knows"), "\(zone)")
    }
    try gym.seed(1)
    for zone in [
      "Europe/Paris", ":Europe/Paris", "", "UTC", "EST5EDT", "<+03>-3", "/usr/share/zoneinfo/Asia/Tokyo",
      "CET-1CEST,M3.5.0,M10.5.0/3",
    ] {
      let result = try gym.run(["history", "count"], environment: ["TZ": zone])
      #expect(result.status == 0, "\(zone): \(result.stderr)")
    }
    // time.zone, when it is set, is what counts.
    let configured = try gym.run(
      ["history", "count"], environment: ["TZ": "Mars/Olympus", "GYM_TIME_ZONE": "Europe/Paris"])
    #expect(configured.status == 0, "\(configured.stderr)")
  }

  /// SIGTERM or Ctrl-C during an import into a new path leaves nothing beside it: the staging database
  /// (`gym.sqlite.import-<id>.partial`, tens of MB) goes with the process, which still ends by the signal.
  @Test(arguments: [SIGTERM, SIGINT])
  func aSignalDuringAnImportLeavesNoStagingFile(signal: Int32) throws {
    let gym = try GymProcess()
    let workouts = try gym.run(["history", "sample", "--count", "300000", "--seed", "3"]).stdout
    let path = try gym.write("w.ndjson", workouts)
    func staged() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: gym.directory)) ?? []).filter { $0.contains(".partial") }
    }
    // Started as a shell starts a command: the signals at their defaults and none blocked (the test
    // runner's own mask and dispositions would otherwise be inherited).
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
        + "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGTERM)]; os.execv(sys.argv[1], sys.argv[1:])",
      GymProcess.executable, "history", "import", path, "-q",
    ]
    process.environment = gym.environment
    process.standardError = FileHandle.nullDevice
    try process.run()
    var seen = false
    for _ in 0..<600 where process.isRunning {
      if !staged().isEmpty {
        seen = true
        break
      }
      usleep(20_000)
    }
    try #require(seen, "the import ended before its staging file was seen")
    kill(process.processIdentifier, signal)
    for _ in 0..<1000 where process.isRunning { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
    #expect(staged().isEmpty, "\(staged())")
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
  }
}
