import Foundation
import GRDB
import Testing

/// Exports whose files decompress to far more than they should, and snapshots that hold more or
/// less than their manifest lists. Each is refused with exit 65, in seconds, in a few hundred MB of
/// address space at most, and without writing a byte to the temporary directory.
@Suite struct ExportBombTests {
  /// Runs a shell command line (the test's own tools: gzip, sha256sum).
  @discardableResult
  func shell(_ script: String) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  func exported(_ gym: GymProcess, format: String) throws -> String {
    try gym.seed(30)
    let result = try gym.run(["export", "--format", format, "--out", gym.directory + "/exports"])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Replaces a data file and makes the manifest's size and checksum match it: only what the file
  /// holds can give it away.
  func replace(_ name: String, in export: String, by script: String) throws {
    let file = export + "/" + name
    #expect(try shell("set -o pipefail; \(script) > '\(file).new' && mv '\(file).new' '\(file)'") == 0)
    let sha = try GymProcess.sha256(file)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
    let url = URL(fileURLWithPath: export + "/manifest.json")
    var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var files = try #require(manifest["files"] as? [[String: Any]])
    let index = try #require(files.firstIndex { $0["name"] as? String == name })
    files[index]["bytes"] = size
    files[index]["sha256"] = sha
    manifest["files"] = files
    try JSONSerialization.data(withJSONObject: manifest).write(to: url)
  }

  /// `export verify` and `import`, each under a 300 MB address-space limit and with a temporary
  /// directory of its own: exit 65 naming `message`, in seconds, nothing imported, nothing left.
  func expectRefused(_ gym: GymProcess, _ export: String, _ message: String) throws {
    let temporary = gym.directory + "/tmp"
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    var limited = gym
    limited.environment["TMPDIR"] = temporary
    let target = gym.directory + "/restored.sqlite"
    for command in [["export", "verify", export], ["import", export, "--database", target]] {
      let started = Date()
      let result = try limited.run(
        ["-c", #"ulimit -v 307200; exec "$0" "$@""#, GymProcess.executable] + command, executable: "/bin/bash")
      #expect(Date().timeIntervalSince(started) < 30, "\(command)")
      #expect(result.status == 65, "\(command): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(command): \(result.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "\(command)")
    }
    #expect(!FileManager.default.fileExists(atPath: target))
    // Nor the database built beside it (the import into a new path commits its rows before it
    // checks them).
    let beside = try FileManager.default.contentsOfDirectory(atPath: gym.directory)
    #expect(!beside.contains { $0.hasPrefix("restored.sqlite") }, "\(beside)")
  }

  @Test func aTableOfNothingButBlankLinesIsReadInConstantMemory() throws {
    let gym = try GymProcess()
    let export = try exported(gym, format: "ndjson")
    try replace("workout.ndjson.gz", in: export, by: "head -c 268435456 /dev/zero | tr '\\0' '\\n' | gzip -1")
    try expectRefused(gym, export, "workout.ndjson.gz: 0 rows, the manifest says 30")
  }

  @Test func aRecordLongerThan16MiBIsRefused() throws {
    let gym = try GymProcess()
    let export = try exported(gym, format: "ndjson")
    try replace(
      "workout.ndjson.gz", in: export,
      by: "{ printf '{\"id\":\"'; head -c 100000000 /dev/zero | tr '\\0' x; } | gzip -1")
    try expectRefused(gym, export, "workout.ndjson.gz: line 1: a record is longer than 16 MiB")
  }

  @Test func aSnapshotOfZerosIsRefusedBeforeAnythingIsWritten() throws {
    let gym = try GymProcess()
    let export = try exported(gym, format: "sqlite")
    try replace("gym.sqlite.gz", in: export, by: "head -c 2147483648 /dev/zero | gzip -1")
    try expectRefused(gym, export, "gym.sqlite.gz: is not an SQLite database with a valid header")
  }

  @Test func aSnapshotThatGrowsPastItsHeaderIsRefused() throws {
    let gym = try GymProcess()
    let export = try exported(gym, format: "sqlite")
    // The real database, then 1 GB of zeros after it: the header still declares the real size.
    try replace(
      "gym.sqlite.gz", in: export, by: "{ gzip -dc '\(export)/gym.sqlite.gz'; head -c 1073741824 /dev/zero; } | gzip -1"
    )
    try expectRefused(gym, export, "gym.sqlite.gz: expands beyond the")
  }

  @Test(arguments: ["omitted", "extra"])
  func aSnapshotThatDoesNotHoldExactlyItsManifestIsRefused(change: String) throws {
    let gym = try GymProcess()
    let export = try exported(gym, format: "sqlite")
    let expected: String
    if change == "omitted" {
      // The manifest no longer lists the sample table the snapshot holds.
      let url = URL(fileURLWithPath: export + "/manifest.json")
      var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
      manifest["tables"] = try #require(manifest["tables"] as? [[String: Any]]).filter {
        $0["name"] as? String != "sample"
      }
      try JSONSerialization.data(withJSONObject: manifest).write(to: url)
      expected = "holds table sample, which the manifest does not list"
    } else {
      // A table no gym schema has, added to the snapshot.
      let plain = gym.directory + "/plain.sqlite"
      #expect(try shell("gzip -dc '\(export)/gym.sqlite.gz' > '\(plain)'") == 0)
      try DatabaseQueue(path: plain).write { try $0.execute(sql: "CREATE TABLE extra (x)") }
      try replace("gym.sqlite.gz", in: export, by: "gzip -c '\(plain)'")
      expected = "holds table extra"
    }
    try expectRefused(gym, export, expected)
  }

  /// A row that breaks one of its table's CHECKs, in a file whose checksum was made to match:
  /// `import` loads without SQLite's row-by-row CHECKs and scans each table once after the rows,
  /// so it refuses the export naming the row and the CHECK, as `verify` (the same load, into a
  /// throwaway database) does; nothing is imported.
  @Test(arguments: [
    (#"s/"status":"[a-z]*"/"status":"done"/"#, "status IN ('completed', 'skipped')"),
    (#"s/"durationMinutes":[0-9.]+/"durationMinutes":-0.5/"#, "durationMinutes >= 0"),
  ])
  func aRowThatBreaksACheckIsRefused(edit: String, check: String) throws {
    let gym = try GymProcess()
    let export = try exported(gym, format: "ndjson")
    let file = "'\(export)/workout.ndjson.gz'"
    // The third row (seq 3) is changed, and only it: the edit must match that line.
    #expect(try shell("gzip -dc \(file) | sed -n 3p | sed -E -n '\(edit)p' | grep -q .") == 0)
    try replace("workout.ndjson.gz", in: export, by: "gzip -dc \(file) | sed -E '3\(edit)' | gzip -1")
    try expectRefused(gym, export, check)
    let imported = try gym.run(["import", export, "--database", gym.directory + "/restored.sqlite"])
    #expect(imported.stderr.contains("row 3 of workout breaks CHECK (\(check))"), "\(imported.stderr)")
  }
}
