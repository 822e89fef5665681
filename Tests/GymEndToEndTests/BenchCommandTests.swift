import Foundation
import Testing

/// `gym bench` runs at a tiny scale and reports every workload; its timings are not checked here.
@Suite struct BenchCommandTests {
  @Test func benchReportsEveryHistoryWorkloadAsJSON() throws {
    let gym = try GymProcess()
    let result = try gym.run(["bench", "--scale", "300", "--repeat", "2", "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let items = try #require(document["items"] as? [[String: Any]])
    let names = items.compactMap { $0["operation"] as? String }
    #expect(names.contains("list newest 20"))
    #expect(names.contains("page 20 after cursor at 150"))
    #expect(names.contains("page 20 at offset 150"))
    #expect(names.contains("stats 12 weeks"))
    let newest = try #require(items.first { $0["operation"] as? String == "list newest 20" })
    #expect(newest["rows"] as? Int == 20)
    #expect(newest["p50_ms"] is Double)
    #expect(items.first { $0["operation"] as? String == "count all" }?["rows"] as? Int == 300)
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath), "bench uses its own temporary database")
  }
}
