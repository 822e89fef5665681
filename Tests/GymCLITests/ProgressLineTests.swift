import Foundation
import Testing

@testable import GymCLI

/// The progress line: share of the file read, rate and time left, worked out from the file's size,
/// the read position and the clock; nothing for a pipe.
@Suite struct ProgressLineTests {
  func file(bytes: Int) throws -> Int32 {
    let path = NSTemporaryDirectory() + "progress-\(UUID().uuidString)"
    try Data(count: bytes).write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY)
    unlink(path)
    return descriptor
  }

  @Test func shareRateAndTimeLeftOfAFile() throws {
    nonisolated(unsafe) var now: Int64 = 10_000
    let line = ProgressLine("importing", output: BufferedOutput(descriptor: -1), enabled: true, clock: { now })
    let descriptor = try file(bytes: 4000)
    defer { close(descriptor) }
    line.measure(descriptor)
    #expect(line.describe(0, "records") == "0 records")  // nothing read yet: no share to tell
    lseek(descriptor, 1000, SEEK_SET)
    #expect(line.describe(2048, "records") == "25% · 2048 records")  // under a second: no rate yet
    now += 2000
    // 1000 of 4000 bytes in 2 s: 3000 more take 6 s; 2048 records in 2 s is 1024 a second.
    #expect(line.describe(2048, "records") == "25% · 2048 records · 1024 records/s · 6 s left")
    lseek(descriptor, 4000, SEEK_SET)
    #expect(line.describe(8192, "rows") == "100% · 8192 rows · 4096 rows/s")
  }

  @Test func aPipeHasNoShare() throws {
    nonisolated(unsafe) var now: Int64 = 0
    let line = ProgressLine("importing", output: BufferedOutput(descriptor: -1), enabled: true, clock: { now })
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    line.measure(ends[0])
    now = 4000
    #expect(line.describe(4000, "records") == "4000 records · 1000 records/s")
  }

  @Test func durationsReadAsPeopleSayThem() {
    #expect(ProgressLine.duration(42) == "42 s")
    #expect(ProgressLine.duration(185) == "3 min 5 s")
    #expect(ProgressLine.duration(3720) == "1 h 2 min")
  }
}
