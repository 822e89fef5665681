import Foundation
import Testing

@testable import GymCore

/// The lock every store takes while it opens, and a restore takes alone: one lock per database,
/// whatever path names it.
@Suite struct StoreOpenLockTests {
  /// A database reached through a link to its folder, or to the file, takes the lock of the folder
  /// it is really in: a restore through one path waits for a store opening through the other.
  @Test func aSymbolicLinkAndItsTargetTakeOneLock() throws {
    let root = try Fixtures.temporaryDirectory()
    let real = root + "/real"
    try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: root + "/folder-link", withDestinationPath: real)
    try Store(path: real + "/gym.sqlite", modules: [Fixtures.module]).close()
    try FileManager.default.createSymbolicLink(
      atPath: root + "/file-link.sqlite", withDestinationPath: real + "/gym.sqlite")
    let resolved = try #require(realpath(real, nil))
    defer { free(resolved) }
    for path in [real + "/gym.sqlite", root + "/folder-link/gym.sqlite", root + "/file-link.sqlite"] {
      #expect(StoreOpenLock.lockedDirectory(of: path) == String(cString: resolved), "\(path)")
    }
    let held = try #require(try StoreOpenLock.acquire(real + "/gym.sqlite", exclusive: true, timeoutMilliseconds: 0))
    for path in [root + "/folder-link/gym.sqlite", root + "/file-link.sqlite"] {
      #expect(throws: StoreError.busy(path: path, timeoutMilliseconds: 50)) {
        _ = try Store(path: path, modules: [Fixtures.module], options: .init(busyTimeoutMilliseconds: 50))
      }
    }
    held.release()
    try Store(path: root + "/file-link.sqlite", modules: [Fixtures.module]).close()
  }

  /// A reader of a store's own file (doctor, version, completion) opens as a store does: it waits
  /// while a restore holds the lock, and once open it holds SQLite's lock, which a restore waits for.
  @Test func aStoreReaderWaitsForARestoreAndHoldsItBack() throws {
    let path = try Fixtures.temporaryDirectory() + "/gym.sqlite"
    try Store(path: path, modules: [Fixtures.module]).close()
    let held = try #require(try StoreOpenLock.acquire(path, exclusive: true, timeoutMilliseconds: 0))
    #expect(throws: StoreError.busy(path: path, timeoutMilliseconds: 50)) {
      _ = try StoreReader(path: path, busyTimeoutMilliseconds: 50, ofStore: true)
    }
    // A backup or a copy is no store a restore replaces: read whatever its folder's lock.
    try StoreReader(path: path, busyTimeoutMilliseconds: 50).close()
    held.release()
    let reader = try StoreReader(path: path, busyTimeoutMilliseconds: 50, ofStore: true)
    #expect(throws: StoreError.busy(path: path, timeoutMilliseconds: 0)) {
      try StoreFile.whileNoConnectionIsOpen(path, timeoutMilliseconds: 0) {}
    }
    reader.close()
    try StoreFile.whileNoConnectionIsOpen(path, timeoutMilliseconds: 0) {}
  }
}
