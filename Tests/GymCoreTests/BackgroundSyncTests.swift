import Foundation
import Testing

@testable import GymCore

/// The background fsync's outcome reaches the caller: the kernel reports a write-back error to one
/// fsync only, so one the thread met must not be lost.
@Suite struct BackgroundSyncTests {
  @Test func aFileThatSyncsWaitsWithoutError() throws {
    let path = NSTemporaryDirectory() + "gym-background-sync-" + UUID().uuidString
    #expect(FileManager.default.createFile(atPath: path, contents: Data("rows".utf8)))
    defer { unlink(path) }
    let sync = BackgroundSync(path: path)
    try sync.wait()
    try sync.wait()  // a second wait returns at once
  }

  @Test func whatTheThreadMetIsThrownByEveryWait() {
    let path = NSTemporaryDirectory() + "gym-background-sync-missing-" + UUID().uuidString
    let sync = BackgroundSync(path: path)
    for _ in 0..<2 {
      #expect(throws: SystemError.self) { try sync.wait() }
    }
  }
}
