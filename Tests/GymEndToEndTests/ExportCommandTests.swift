import Foundation
import GRDB
import Testing

/// `gym export`, `gym export verify` and `gym import` end to end, with broken archives and a kill.
@Suite struct ExportCommandTests {
  /// A database with workouts, the sample pantry and an export of it.
  func exported(_ gym: GymProcess, _ arguments: [String] = []) throws -> String {
    try gym.seed(300)
    try gym.run(["staples", "seed"])
    let result = try gym.run(["export", "--out", gym.directory + "/exports"] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func exportVerifyAndImportIntoANewDatabase() throws {
    let gym = try GymProcess()
    let path = try exported(gym)
    #expect((path as NSString).lastPathComponent.hasPrefix("gym-export-"))
    let files = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    #expect(files.contains("manifest.json") && files.contains("workout.ndjson.gz"))
    #expect(try gym.run(["export", "verify", path]).stderr.hasPrefix("ok: "))
    let restored = gym.directory + "/restored.sqlite"
    let imported = try gym.run(["import", path, "--database", restored])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try gym.run(["history", "count", "--database", restored]).stdout == "300\n")
    let again = try gym.run(["import", path, "--database", restored])
    #expect(again.status == 65)
    #expect(again.stderr.contains("already holds"))
    let merged = try gym.run(["import", path, "--database", restored, "--merge"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stderr.hasPrefix("imported 0 rows into"))
    #expect(merged.stderr.contains("already there, left alone"))
  }

  @Test func anExportDirectoryThatCannotBeWrittenIsExit73AndLeavesNothing() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    let file = try gym.write("not-a-directory", "x")
    let result = try gym.run(["export", "--out", file + "/exports"])
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("gym: error: cannot create the export directory"))
    // What is wrong and what to do, not Foundation's "error 512".
    #expect(
      result.stderr.hasSuffix("'\(file)' is not a directory; choose another --out\n"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
  }

  /// A flipped byte, a truncated gzip, a missing file, an edited manifest: verify and import exit
  /// 65 naming the file, and nothing is imported.
  @Test(arguments: ["flip", "truncate", "missing", "manifest"])
  func aDamagedExportIsRefused(damage: String) throws {
    let gym = try GymProcess()
    let path = try exported(gym)
    let file = path + "/workout.ndjson.gz"
    var expected = "workout.ndjson.gz: its checksum does not match"
    switch damage {
    case "flip":
      var data = try Data(contentsOf: URL(fileURLWithPath: file))
      data[data.count / 2] ^= 0x40
      try data.write(to: URL(fileURLWithPath: file))
    case "truncate":
      // Truncated, with the manifest updated to match: only decompression can tell.
      let data = try Data(contentsOf: URL(fileURLWithPath: file))
      try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: file))
      try rewriteManifest(path) { manifest in
        var files = manifest["files"] as! [[String: Any]]
        let index = files.firstIndex { $0["name"] as? String == "workout.ndjson.gz" }!
        files[index]["bytes"] = data.count / 2
        files[index]["sha256"] = try GymProcess.sha256(file)
        manifest["files"] = files
      }
      expected = "workout.ndjson.gz: the gzip stream is truncated"
    case "missing":
      try FileManager.default.removeItem(atPath: file)
      expected = "workout.ndjson.gz: the file is missing"
    default:
      try rewriteManifest(path) { manifest in
        var tables = manifest["tables"] as! [[String: Any]]
        tables[0]["rows"] = 301
        manifest["tables"] = tables
      }
      expected = "workout.ndjson.gz: 300 rows, the manifest says 301"
    }
    let verify = try gym.run(["export", "verify", path])
    #expect(verify.status == 65)
    #expect(verify.stderr.contains(expected), "\(verify.stderr)")
    let restored = gym.directory + "/restored.sqlite"
    let imported = try gym.run(["import", path, "--database", restored])
    #expect(imported.status == 65)
    #expect(imported.stderr.contains(expected))
    #expect(!FileManager.default.fileExists(atPath: restored))
  }

  func rewriteManifest(_ path: String, _ change: (inout [String: Any]) throws -> Void) throws {
    let url = URL(fileURLWithPath: path + "/manifest.json")
    var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    try change(&manifest)
    try JSONSerialization.data(withJSONObject: manifest).write(to: url)
  }

  /// Killed at random points, an export never leaves a directory under its final name that is
  /// not complete: every `gym-export-*` there verifies.
  @Test func killedMidExportNothingPartialHasTheFinalName() throws {
    var timing = KillTiming("killedMidExportNothingPartialHasTheFinalName")
    let gym = try GymProcess()
    try gym.seed(60_000)
    let out = gym.directory + "/exports"
    for _ in 0..<6 * Stress.factor {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: GymProcess.executable)
      process.arguments = ["export", "--out", out, "--format", "csv", "--level", "9"]
      process.environment = gym.environment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(timing.microseconds(in: 10_000...400_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
    for name in names where name.hasPrefix("gym-export-") {
      let verify = try gym.run(["export", "verify", out + "/" + name])
      #expect(verify.status == 0, "\(name): \(verify.stderr)")
    }
    #expect(names.allSatisfy { $0.hasPrefix("gym-export-") || $0.hasSuffix(".partial") })
  }
}
