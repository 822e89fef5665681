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
}
