import Foundation
import Testing

/// `gym bench` runs at a tiny scale and reports every workload; its timings are not checked here.
@Suite struct BenchCommandTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  func items(_ gym: GymProcess, _ extra: [String] = []) throws -> (Int32, [[String: Any]]) {
    let result = try gym.run(["bench", "--scale", "300", "--repeat", "2", "--format", "json"] + extra)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    return (result.status, try #require(document["items"] as? [[String: Any]]))
  }

  @Test func benchReportsEveryModulesWorkloadsAsJSON() throws {
    let gym = try GymProcess()
    let (status, items) = try items(gym)
    #expect(status == 0)
    let names = items.compactMap { $0["operation"] as? String }
    for name in [
      "list newest 20", "page 20 after cursor at 150", "page 20 at offset 150", "stats 12 weeks", "summary",
      "library list (page of 20)", "library show --all (full graph)", "library search 'night'",
      "staples --category (index)", "recipes --most-used (no index)",
    ] {
      #expect(names.contains(name), "\(name)")
    }
    #expect(Set(items.compactMap { $0["module"] as? String }) == ["history", "library", "staples", "export"])
    let newest = try #require(items.first { $0["operation"] as? String == "list newest 20" })
    #expect(newest["rows"] as? Int == 20)
    #expect(newest["p50_ms"] is Double)
    #expect(newest["peak_mib"] is Double)
    #expect(items.first { $0["operation"] as? String == "count all" }?["rows"] as? Int == 300)
    let export = try #require(items.first { $0["id"] as? String == "export.ndjson_gzip" })
    #expect((export["rows"] as? Int ?? 0) > 300)
    #expect(items.first { $0["id"] as? String == "export.import" }?["rows"] as? Int == export["rows"] as? Int)
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath), "bench uses its own temporary database")
  }

  /// `--module sync`: two devices, 40 changes each (40 items), through a local directory: the push
  /// of 40, the merge of 40 with 40 (80 changes handled), the pull of 40, a compaction of all 80 and
  /// a new device starting from its base (80 items); the reference exports and imports the first
  /// device's rows at the end, 40 + 40 = 80 items.
  @Test func syncIsTimedBesideAnExportAndImportOfTheSameRows() throws {
    let gym = try GymProcess()
    let (status, items) = try items(gym, ["--module", "sync", "--scale", "40", "--repeat", "1"])
    #expect(status == 0)
    #expect(items.map { $0["module"] as? String } == Array(repeating: "sync", count: 6))
    #expect(
      items.map { $0["id"] as? String } == ["sync.push", "sync.merge", "sync.pull", nil, "sync.bootstrap", nil])
    #expect(items.map { $0["rows"] as? Int } == [40, 80, 40, 80, 80, 80])
    #expect(items.allSatisfy { $0["p50_ms"] is Double })
    // The reference's time is each sync's target, times ten; the compaction has none.
    let reference = try #require(items.last?["p50_ms"] as? Double)
    for item in items.dropLast() where item["id"] as? String != nil {
      let target = try #require(item["target_ms"] as? Double)
      #expect(abs(target - reference * 10) < 0.01)
    }
    #expect(items[3]["target_ms"] == nil || items[3]["target_ms"] is NSNull)
  }

  /// `--base 50`: a device holding 50 workouts syncs for the first time, compacts, and a new device
  /// starts from the base; every row of it counts the 50 workouts (the only rows the holder has), and
  /// the new device's target is ten times the export and import of those 50.
  @Test func aNewDeviceFromABaseIsTimedBesideItsReference() throws {
    let gym = try GymProcess()
    let (status, items) = try items(gym, ["--module", "sync", "--scale", "5", "--repeat", "1", "--base", "50"])
    #expect(status == 0)
    #expect(items.count == 6 + 4)
    let base = Array(items.suffix(4))
    #expect(base.map { $0["id"] as? String } == [nil, nil, "sync.bootstrap_base", nil])
    #expect(base.map { $0["rows"] as? Int } == [50, 50, 50, 50])
    let reference = try #require(base[3]["p50_ms"] as? Double)
    let target = try #require(base[2]["target_ms"] as? Double)
    #expect(abs(target - reference * 10) < 0.01)
  }

  /// Config/gym.yaml documents the built-in targets, and bench.targets changes them.
  @Test func targetsComeFromTheConfiguration() throws {
    let gym = try GymProcess()
    let (_, defaults) = try items(gym, ["--module", "staples"])
    let (_, documented) = try items(gym, ["--module", "staples", "--config", Self.root + "/Config/gym.yaml"])
    let targets = { (items: [[String: Any]]) in items.compactMap { $0["target_ms"] as? Double } }
    #expect(!targets(defaults).isEmpty && targets(defaults) == targets(documented))
    let strict = try gym.write("strict.yaml", "version: 1\nbench:\n  targets:\n    staples.category: 0.000001\n")
    let (status, items) = try items(gym, ["--module", "staples", "--config", strict, "--check"])
    #expect(status == 1)
    let category = try #require(items.first { $0["id"] as? String == "staples.category" })
    #expect(category["target_ms"] as? Double == 0.000001)
    #expect(category["result"] as? String == "FAIL")
  }
}
