import Foundation
import GymCore
import Testing

@testable import GymCLI

@Suite struct CommandStoresTests {
  /// What a command opened is closed when it ends (the WAL gone from disk), without waiting for
  /// the store to be deallocated — which it never is: the process exits next.
  @Test func closeAllClosesEveryStoreACommandOpened() throws {
    let directory = NSTemporaryDirectory() + "gym-stores-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let stores = try (1...2).map { try CommandStores.keep(Store(path: "\(directory)/\($0).sqlite", modules: [])) }
    for store in stores { #expect(FileManager.default.fileExists(atPath: store.path + "-wal")) }
    CommandStores.closeAll()
    for store in stores { #expect(!FileManager.default.fileExists(atPath: store.path + "-wal")) }
  }
}
