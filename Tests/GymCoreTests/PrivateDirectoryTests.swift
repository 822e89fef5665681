import Foundation
import GymCore
import Testing

/// Where decrypted rows and database copies are written for a moment: a directory only its owner
/// can enter, under an unguessable name.
@Suite struct PrivateDirectoryTests {
  @Test func itIsTheOwnersAloneAndNamedApart() throws {
    let first = try #require(PrivateDirectory.make(prefix: "gym-test-"))
    let second = try #require(PrivateDirectory.make(prefix: "gym-test-"))
    defer {
      try? FileManager.default.removeItem(atPath: first)
      try? FileManager.default.removeItem(atPath: second)
    }
    var info = stat()
    #expect(stat(first, &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFDIR)
    // rwx for the owner, nothing for group and others: 0o700.
    #expect(info.st_mode & 0o777 == 0o700)
    #expect(first != second)
    let base = URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path
    #expect(first.hasPrefix(base + "/gym-test-") && first.hasPrefix("/"))
  }
}
