import Foundation
import GRDB
import GymCLI
import GymCore

@testable import GymHistory

enum HistoryFixtures {
  static func directory() throws -> String {
    let path = NSTemporaryDirectory() + "gym-history-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func store() throws -> Store {
    try Store(path: try directory() + "/gym.sqlite", modules: [historyModule])
  }

  /// Inserts one workout; `at` is canonical UTC text.
  static func insert(
    _ db: Database, at: String, status: String = "completed", focus: String = "upper", minutes: Int? = 30
  ) throws {
    try db.execute(
      sql: """
        INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity)
        VALUES (?, ?, ?, 'Plan', ?, ?, 'moderate')
        """,
      arguments: [UUID().uuidString.lowercased(), at, status, focus, minutes])
  }

  static func file(_ name: String, _ text: String) throws -> String {
    let path = try directory() + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }
}
