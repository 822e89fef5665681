import Foundation
import Testing

/// Every seed input and every input a fuzzer once crashed on, replayed through its target by the
/// plain `gym-fuzz` build: `make fuzz` finds crashes, this keeps them fixed.
@Suite struct FuzzCorpusTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
  static let targets = ["where", "config", "ndjson", "csv", "goodreads", "storygraph", "strong", "hevy", "health"]

  @Test(arguments: targets) func corpusAndRegressionsRunClean(target: String) throws {
    var files: [String] = []
    for folder in ["Fuzz/corpus/\(target)", "Fuzz/regressions/\(target)"] {
      let directory = Self.root + "/" + folder
      for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
        files.append(directory + "/" + name)
      }
    }
    #expect(!files.isEmpty, "Fuzz/corpus/\(target) has seeds")
    let process = Process()
    process.executableURL = GymProcess.buildDirectory.appendingPathComponent("gym-fuzz")
    process.arguments = [target] + files
    process.environment = ["SWIFT_BACKTRACE": "enable=no"]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0 && process.terminationReason == .exit)
  }
}
