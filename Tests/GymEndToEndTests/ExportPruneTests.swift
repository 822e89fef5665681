import Foundation
import Testing

/// `export prune`: what --dry-run lists is what a real run deletes, oldest first; only gym's exports.
@Suite struct ExportPruneTests {
  @Test func pruneKeepsByTheRules() throws {
    let gym = try GymProcess()
    try gym.seed(20)
    for _ in 0..<3 { #expect(try gym.run(["export", "create", "--out", "backups", "-q"]).status == 0) }
    let backups = gym.directory + "/backups"
    try "<p>not an export</p>".write(toFile: backups + "/report.html", atomically: true, encoding: .utf8)
    let exports = try FileManager.default.contentsOfDirectory(atPath: backups).filter { $0.hasPrefix("gym-export-") }
      .sorted()
    #expect(exports.count == 3)
    // Three exports today: the newest is the last one and today's newest, so the two older go.
    let dry = try gym.run(["export", "prune", "--out", "backups", "--keep", "1", "--keep-daily", "1", "--dry-run"])
    #expect(dry.status == 0 && dry.stdoutLines.map(String.init) == Array(exports.prefix(2)))
    #expect(dry.stderr.contains("would delete 2 exports"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: backups).count == 4)
    let real = try gym.run(["export", "prune", "--out", "backups", "--keep", "1", "--keep-daily", "1"])
    #expect(real.stdoutLines.map(String.init) == Array(exports.prefix(2)))
    #expect(try FileManager.default.contentsOfDirectory(atPath: backups).sorted() == [exports[2], "report.html"])
    #expect(try gym.run(["export", "prune", "--out", "backups", "--keep-daily", "-1"]).status == 64)
  }

  /// `count` exports of a database of five workouts, in `backups`, their names oldest first.
  static func exports(_ count: Int) throws -> (GymProcess, String, [String]) {
    let gym = try GymProcess()
    try gym.seed(5)
    let backups = gym.directory + "/backups"
    for _ in 0..<count {
      #expect(try gym.run(["export", "create", "--out", backups, "--no-remote", "-q"]).status == 0)
      Thread.sleep(forTimeInterval: 0.01)
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: backups).filter { $0.hasPrefix("gym-export-") }
      .sorted()
    try #require(names.count == count)
    return (gym, backups, names)
  }

  /// Three exports, oldest to newest A, B, C, with `--keep 1`: C damaged (a file emptied) and B dated
  /// in 2099 (a wrong clock) count for nothing and are kept, so A is the newest whole one and stays;
  /// nothing is deleted. `export status --max-age 1h` judges A, dated two hours ago: it fails (the
  /// damaged C, made a moment ago, would have passed), and `doctor` names C as damaged.
  @Test func aDamagedOrFutureExportNeverTakesAWholeOnesPlace() throws {
    let (gym, backups, names) = try Self.exports(3)
    let newest = backups + "/" + names[2]
    let data = try FileManager.default.contentsOfDirectory(atPath: newest).first { $0.hasSuffix(".gz") }!
    try Data().write(to: URL(fileURLWithPath: newest + "/" + data))
    func redate(_ name: String, _ created: String) throws {
      let path = backups + "/" + name + "/manifest.json"
      let manifest = try String(contentsOfFile: path, encoding: .utf8)
      let field = try #require(manifest.range(of: #""created" *: *"[^"]*""#, options: .regularExpression))
      try manifest.replacingCharacters(in: field, with: #""created":"\#(created)""#)
        .write(toFile: path, atomically: true, encoding: .utf8)
    }
    try redate(names[1], "2099-12-31T00:00:00.000Z")
    let twoHoursAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7200))
    try redate(names[0], String(twoHoursAgo.dropLast()) + ".000Z")
    let pruned = try gym.run(["export", "prune", "--out", backups, "--keep", "1"])
    #expect(pruned.status == 0 && pruned.stdoutLines.isEmpty, "\(pruned.stdout)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: backups).filter { $0.hasPrefix("gym-export-") }
        .sorted() == names)
    let stale = try gym.run(["export", "status", "--out", backups, "--max-age", "1h"])
    #expect(stale.status == 1 && stale.stderr.contains("no complete, intact export"), "\(stale.stderr)")
    #expect(try gym.run(["export", "status", "--out", backups, "--max-age", "3h"]).status == 0)
    let doctor = try gym.run(["doctor"], environment: ["GYM_EXPORT_DIRECTORY": backups])
    #expect(doctor.stdout.contains("is damaged"), "\(doctor.stdout)")
  }

  /// Two exports, `--keep 1`: the newer damaged where it lies (one byte changed, its size the same,
  /// so only its checksum tells) is not kept in place of the older, intact one, which stays.
  @Test func aByteChangedInTheNewestKeepsTheOlderOne() throws {
    let (gym, backups, names) = try Self.exports(2)
    let newest = backups + "/" + names[1]
    let file =
      newest + "/" + (try FileManager.default.contentsOfDirectory(atPath: newest).first { $0.hasSuffix(".gz") }!)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    bytes[bytes.count / 2] ^= 0xFF
    try bytes.write(to: URL(fileURLWithPath: file))
    let pruned = try gym.run(["export", "prune", "--out", backups, "--keep", "1"])
    #expect(pruned.status == 0 && pruned.stdoutLines.isEmpty, "\(pruned.stdout)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: backups).filter { $0.hasPrefix("gym-export-") }
        .sorted() == names)
    // With both intact, the older one goes.
    let again = try gym.run(["export", "create", "--out", backups, "--no-remote", "-q"])
    #expect(again.status == 0)
    try FileManager.default.removeItem(atPath: newest)
    let thinned = try gym.run(["export", "prune", "--out", backups, "--keep", "1"])
    #expect(thinned.stdoutLines.map(String.init) == [names[0]], "\(thinned.stdout)")
  }
}
