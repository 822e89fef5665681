import Foundation
import Testing

/// Exports edited to reach outside themselves or to trap the reader: a manifest naming a path, a
/// data file replaced by a link to `/dev/zero` or by a FIFO, a snapshot export listing no file,
/// counts that overflow when added up, a date in the future. Each is refused with exit 65 (or an
/// unhealthy status), promptly, and nothing is imported.
@Suite struct ExportEscapeTests {
  /// An export of 30 workouts, and its manifest as JSON to edit.
  func exported(_ gym: GymProcess, _ arguments: [String] = []) throws -> String {
    try gym.seed(30)
    let result = try gym.run(["export", "--out", gym.directory + "/exports"] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func editManifest(_ path: String, _ edit: (inout [String: Any]) -> Void) throws {
    let url = URL(fileURLWithPath: path + "/manifest.json")
    var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    edit(&manifest)
    try JSONSerialization.data(withJSONObject: manifest).write(to: url)
  }

  /// verify and import both refuse with 65, naming `message`, within seconds; nothing is imported.
  func expectRefused(_ gym: GymProcess, _ path: String, _ message: String) throws {
    for command in [["export", "verify", path], ["import", path, "--database", gym.directory + "/new.sqlite"]] {
      let started = Date()
      let result = try gym.run(command)
      // A guard against reading a bomb whole, not a speed target: milliseconds alone, seconds under load.
      #expect(Date().timeIntervalSince(started) < 60, "\(command)")
      #expect(result.status == 65, "\(command): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: gym.directory + "/new.sqlite"))
  }

  @Test func aManifestNamingAPathIsRefused() throws {
    let gym = try GymProcess()
    let path = try exported(gym)
    try editManifest(path) { manifest in
      var files = manifest["files"] as! [[String: Any]]
      files[0]["name"] = "../../outside/workout.ndjson.gz"
      manifest["files"] = files
    }
    try expectRefused(gym, path, "is not a plain file name")
  }

  @Test(arguments: ["link", "fifo"]) func aDataFileThatIsNotARegularFileIsRefused(kind: String) throws {
    let gym = try GymProcess()
    let path = try exported(gym)
    let file = path + "/workout.ndjson.gz"
    try FileManager.default.removeItem(atPath: file)
    if kind == "link" {
      try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/dev/zero")
    } else {
      #expect(mkfifo(file, 0o600) == 0)
    }
    try expectRefused(gym, path, "is not a regular file")
    let status = try gym.run(["export", "status", "--out", gym.directory + "/exports", "--format", "csv"])
    #expect(status.stdout.contains("damaged"), "\(status.stdout)")
  }

  @Test func aSnapshotExportListingNoFileIsRefused() throws {
    let gym = try GymProcess()
    let path = try exported(gym, ["--format", "sqlite"])
    try editManifest(path) { $0["files"] = [] as [Any] }
    try expectRefused(gym, path, "it lists no files")
  }

  @Test func countsThatOverflowAreDamageNotATrap() throws {
    let gym = try GymProcess()
    let path = try exported(gym)
    try editManifest(path) { manifest in
      var tables = manifest["tables"] as! [[String: Any]]
      for i in tables.indices { tables[i]["rows"] = Int.max }
      manifest["tables"] = tables
    }
    try expectRefused(gym, path, "overflow when added up")
    let status = try gym.run(["export", "status", "--out", gym.directory + "/exports", "--format", "csv"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout.contains("damaged"))
  }

  @Test func anExportDatedInTheFutureIsNotRecent() throws {
    let gym = try GymProcess()
    let path = try exported(gym)
    try editManifest(path) { $0["created"] = "2099-01-01T00:00:00.000Z" }
    let status = try gym.run(["export", "status", "--out", gym.directory + "/exports", "--max-age", "25h"])
    #expect(status.status == 1)
    #expect(status.stderr.contains("not dated in the future"))
  }

  /// What killed runs leave (`.gym-export-….partial`, `….import-….partial` and its -wal, a verify's
  /// `gym-verify-…` in the temporary directory) is pruned by the next export, import or verify once
  /// it is a day old; a younger one may be a run in progress.
  @Test func partialsOlderThanADayArePruned() throws {
    let gym = try GymProcess()
    let out = gym.directory + "/exports"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let stale = out + "/.gym-export-20260101T000000Z.partial"
    let fresh = out + "/.gym-export-20991231T000000Z.partial"
    for path in [stale, fresh] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    let staleImport = gym.directory + "/restored.sqlite.import-0000.partial"
    let staleWAL = staleImport + "-wal"
    for path in [staleImport, staleWAL] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    }
    var old = [
      timeval(tv_sec: time(nil) - 2 * 86_400, tv_usec: 0), timeval(tv_sec: time(nil) - 2 * 86_400, tv_usec: 0),
    ]
    for path in [stale, staleImport, staleWAL] { #expect(utimes(path, &old) == 0) }
    let path = try exported(gym)
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: fresh))
    #expect(try gym.run(["import", path, "--database", gym.directory + "/restored.sqlite"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: staleImport) && !FileManager.default.fileExists(atPath: staleWAL))
    // A killed `export verify` leaves its throwaway database in the temporary directory: the next
    // verify removes one a day old and leaves a younger one (a verify in progress).
    let temporary = gym.directory + "/tmp"
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    let staleVerify = temporary + "/gym-verify-0000.sqlite.import-0000.partial"
    let freshVerify = temporary + "/gym-verify-1111.sqlite.import-1111.partial"
    for path in [staleVerify, freshVerify] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    }
    #expect(utimes(staleVerify, &old) == 0)
    let verified = try gym.run(["export", "verify", path], environment: ["TMPDIR": temporary])
    #expect(verified.status == 0, "\(verified.stderr)")
    #expect(!FileManager.default.fileExists(atPath: staleVerify))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: temporary) == ["gym-verify-1111.sqlite.import-1111.partial"])
  }

  /// `verify` checks what `import` relies on: a table or a column the export's schema does not have
  /// (an edited manifest) is refused by both with exit 65 — verify no longer says "ok" to an export
  /// import then fails on with exit 1.
  @Test(arguments: ["table", "column"]) func aManifestThatDoesNotFitItsSchemaIsRefused(edit: String) throws {
    let gym = try GymProcess()
    let path = try exported(gym)
    try editManifest(path) { manifest in
      var tables = manifest["tables"] as! [[String: Any]]
      let i = tables.firstIndex { $0["name"] as? String == "workout" }!
      if edit == "table" {
        tables[i]["name"] = "nosuch"
      } else {
        var columns = tables[i]["columns"] as! [String]
        columns[columns.count - 1] = "colour"
        tables[i]["columns"] = columns
      }
      manifest["tables"] = tables
    }
    try expectRefused(gym, path, edit == "table" ? "do not fit its schema" : "unknown field 'activeEnergyKcal'")
  }
}
