import Foundation
import GRDB
import Testing

/// Every importer against empty, binary, enormous, invalid-UTF-8, deeply nested and entity-bomb
/// input, and a file-size limit reached mid-import: exit 65 (74 for the limit), one line on stderr
/// of bounded length, and not a row written.
@Suite struct HostileInputTests {
  static let commands: [[String]] = [
    ["history", "import"], ["history", "import", "--from", "strong", "--weight-unit", "kg"],
    ["history", "import", "--from", "hevy"], ["history", "import-health"], ["library", "import", "goodreads"],
    ["history", "samples", "import"],
  ]

  static let inputs: [(name: String, bytes: @Sendable () -> [UInt8])] = [
    ("empty", { [] }),
    ("binary", { (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) } }),
    ("enormous line", { Array(repeating: UInt8(ascii: "x"), count: 8_000_000) }),
    (
      "nested JSON",
      { Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000) }
    ),
    (
      "invalid UTF-8",
      {
        Array("id,completedAt,status,planTitle,focus,durationMinutes,intensity\n".utf8)
          + Array("6f9619ff-8b86-d011-b42d-00c04fc964ff,2026-01-01T00:00:00Z,completed,".utf8) + [0xFF, 0xFE]
          + Array(",push,30,low\n".utf8)
      }
    ),
    (
      "billion laughs",
      {
        var xml = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">"#
        for i in 1...9 {
          xml += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">"
        }
        xml += #"]><HealthData><Record type="HKQuantityTypeIdentifierStepCount" unit="count" value="&lol9;" "#
        xml +=
          #"sourceName="x" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:05:00 +0000"/></HealthData>"#
        return Array(xml.utf8)
      }
    ),
  ]

  /// Rows in every table gym has: what "nothing written" is checked against.
  func rows(_ gym: GymProcess) throws -> [Int] {
    try DatabaseQueue(path: gym.databasePath).read { db in
      try ["workout", "sample", "workout_set", "work", "author", "grocery_item"].map {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)")!
      }
    }
  }

  @Test(arguments: inputs.indices) func everyImporterRefusesHostileInput(input: Int) throws {
    let gym = try GymProcess()
    try gym.seed(5)
    let before = try rows(gym)
    let (name, bytes) = Self.inputs[input]
    // A path with spaces and Unicode, as users' downloads have.
    let path = gym.directory + "/Téléchargements export (1).data"
    try Data(bytes()).write(to: URL(fileURLWithPath: path))
    for command in Self.commands {
      let result = try gym.run(command + [path])
      #expect(result.status == 65, "\(name), \(command): \(result.stderr)")
      #expect(result.stderr.hasPrefix("gym: error: "), "\(name), \(command)")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(name), \(command): \(result.stderr.prefix(300))")
      #expect(result.stderr.count < 800, "\(name), \(command): \(result.stderr.count) characters")
      #expect(!result.stderr.unicodeScalars.contains { $0.value < 32 && $0 != "\n" }, "\(name), \(command)")
    }
    #expect(try rows(gym) == before, "\(name)")
  }

  /// A file-size limit (ulimit -f) reached in the middle of an import: exit 74, one line, rolled back.
  @Test func aFileSizeLimitMidImportIsExit74AndRollsBack() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    let before = try rows(gym)
    let big = try gym.write("big.ndjson", try gym.run(["history", "sample", "--count", "20000"]).stdout)
    let result = try gym.run(
      ["-c", "ulimit -f 200; exec \"$0\" history import \"$1\"", GymProcess.executable, big], executable: "/bin/sh")
    #expect(result.status == 74, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("gym: error: cannot write the database"))
    #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    #expect(try rows(gym) == before)
    let integrity = try DatabaseQueue(path: gym.databasePath).read {
      try String.fetchOne($0, sql: "PRAGMA integrity_check")
    }
    #expect(integrity == "ok")
  }

  /// A snapshot export restored into a new path, the file-size limit reached: nothing at the path
  /// (it used to leave an empty gym database there, which reads as a restored one).
  @Test func aSnapshotRestoreCutShortLeavesNothingAtThePath() throws {
    let gym = try GymProcess()
    let samples = try gym.write(
      "w.ndjson", try gym.run(["history", "sample", "--count", "20000", "--seed", "3"]).stdout)
    #expect(try gym.run(["history", "import", samples, "-q"]).status == 0)
    let exported = try gym.run(["export", "--format", "sqlite", "--compress", "none", "--out", "exports", "-q"])
    #expect(exported.status == 0, "\(exported.stderr)")
    let export = exported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let target = gym.directory + "/restored.sqlite"
    let result = try gym.run(
      ["-c", "ulimit -f 200; exec \"$0\" import \"$1\" --database \"$2\"", GymProcess.executable, export, target],
      executable: "/bin/sh")
    #expect(result.status == 74, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: target), "\(result.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: gym.directory).filter { $0.hasPrefix("restored") }
    #expect(left.isEmpty, "\(left)")
    // Unconstrained, the same restore is whole: 20,000 workouts.
    #expect(try gym.run(["import", export, "--database", target, "-q"]).status == 0)
    #expect(try gym.run(["history", "count", "--database", target]).stdout == "20000\n")
  }

  /// A check or restore that cannot write (the file-size limit) is the machine's failure, exit 74,
  /// never "the export was edited or damaged" (exit 65), which could make someone throw a good
  /// backup away.
  @Test func aWriteFailureIsNotADamagedExport() throws {
    let gym = try GymProcess()
    let samples = try gym.write(
      "w.ndjson", try gym.run(["history", "sample", "--count", "20000", "--seed", "4"]).stdout)
    #expect(try gym.run(["history", "import", samples, "-q"]).status == 0)
    let exported = try gym.run(["export", "--out", "exports", "-q"])
    let export = exported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    for command in [["export", "verify", export], ["import", export, "--database", gym.directory + "/new.sqlite"]] {
      let result = try gym.run(
        ["-c", "ulimit -f 200; exec \"$0\" \"$@\"", GymProcess.executable] + command, executable: "/bin/sh")
      #expect(result.status == 74, "\(command): \(result.status) \(result.stderr)")
      #expect(!result.stderr.contains("edited or damaged"), "\(result.stderr)")
    }
    #expect(try gym.run(["export", "verify", export]).status == 0)
  }

  /// `gym history import` killed at random points: the import is all there or not at all.
  @Test func killedMidImportTheDataIsBeforeOrAfter() throws {
    var timing = KillTiming("killedMidImportTheDataIsBeforeOrAfter")
    let gym = try GymProcess()
    try gym.seed(5)
    let big = try gym.write("big.ndjson", try gym.run(["history", "sample", "--count", "60000", "--seed", "9"]).stdout)
    for _ in 0..<6 * Stress.factor {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: GymProcess.executable)
      process.arguments = ["history", "import", big]
      process.environment = gym.environment
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(timing.microseconds(in: 10_000...600_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let count = try rows(gym)[0]
      #expect(count == 5 || count == 60_005, "half an import: \(count)")
      let integrity = try DatabaseQueue(path: gym.databasePath).read {
        try String.fetchOne($0, sql: "PRAGMA integrity_check")
      }
      #expect(integrity == "ok")
      if count != 5 { break }
    }
  }
}
