import Foundation
import Testing

/// An import that fails into a database that does not exist yet creates nothing: no database, no
/// journal, no folder it made. The next read then says there is no database (66), not "no records".
@Suite struct FailedImportTests {
  @Test func aFailedImportLeavesNoTrace() throws {
    let gym = try GymProcess()
    let good = #"{"id":"00000000-0000-4000-8000-000000000001","completedAt":"2026-01-01T10:00:00Z","planTitle":"W"}"#
    let cases: [([String], String)] = [
      (
        ["history", "import", "-"],
        good + "\n" + good.replacingOccurrences(of: "0001\"", with: "0002\"") + "\n{\"nope\":1}\n"
      ),
      (["history", "samples", "import", "-"], "{\"type\":\"steps\"}\n"),
      (["staples", "import", "-"], "{\"name\":1}\n"),
      (
        ["history", "import-health", "-", "--strict"],
        "<HealthData><Record type=\"HKQuantityTypeIdentifierStepCount\"/></HealthData>\n"
      ),
    ]
    for (command, input) in cases {
      let target = gym.directory + "/new/folder/gym.sqlite"
      let result = try gym.run(command + ["--database", target], stdin: input)
      #expect(result.status == 65, "\(command): \(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: gym.directory + "/new"), "\(command) left a folder")
      let read = try gym.run(["history", "count", "--database", target])
      #expect(read.status == 66, "\(command): \(read.stderr)")
    }
    // Into a folder that exists: nothing beside what was there.
    let before = try FileManager.default.contentsOfDirectory(atPath: gym.directory).sorted()
    #expect(try gym.run(["history", "import", "-"], stdin: "{\"nope\":1}\n").status == 65)
    #expect(try FileManager.default.contentsOfDirectory(atPath: gym.directory).sorted() == before)
  }
}
