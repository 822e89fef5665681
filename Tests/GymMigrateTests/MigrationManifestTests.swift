import Crypto
import Foundation
import GymCore
import GymModules
import Testing

/// Released migrations never change: `Config/migrations.sha256` holds the SHA-256 of each one's
/// kind and SQL, and this test fails when a registered migration differs from it or is missing.
@Suite struct MigrationManifestTests {
  static let manifestPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Config/migrations.sha256").path

  static func checksum(_ migration: Migration) -> String {
    SHA256.hash(data: Data(migration.checksumInput.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  /// `sha256  identifier` per line, as `sha256sum` writes.
  static func manifest() throws -> [(checksum: String, identifier: String)] {
    try String(contentsOfFile: manifestPath, encoding: .utf8).split(separator: "\n")
      .filter { !$0.hasPrefix("#") && !$0.isEmpty }
      .map { line in
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        return (String(parts[0]), String(parts[1]))
      }
  }

  @Test func everyReleasedMigrationIsUnchanged() throws {
    let released = try Self.manifest()
    let registered = registeredModules.flatMap(\.migrations)
    for (checksum, identifier) in released {
      let migration = try #require(
        registered.first { $0.identifier == identifier }, "released migration \(identifier) is gone")
      #expect(
        Self.checksum(migration) == checksum,
        "released migration \(identifier) was edited: write a new migration instead")
    }
    for migration in registered where !released.contains(where: { $0.identifier == migration.identifier }) {
      Issue.record(
        """
        \(migration.identifier) is not in Config/migrations.sha256; once it is final, add the line \
        '\(Self.checksum(migration))  \(migration.identifier)'
        """)
    }
  }

  /// `<module>/<NNN>-<what>`, numbered 001, 002 … without gaps within each module.
  @Test func identifiersFollowTheConvention() {
    for module in registeredModules {
      for (i, migration) in module.migrations.enumerated() {
        let number = String(format: "%03d", i + 1)
        #expect(migration.identifier.hasPrefix("\(module.name)/\(number)-"), "\(migration.identifier)")
        #expect(migration.identifier.count > module.name.count + 5)
      }
    }
  }
}
