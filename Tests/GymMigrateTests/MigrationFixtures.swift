import Foundation
import GRDB
import GymCore

/// A small module whose schema evolves through each kind of migration, for the runner's tests.
enum MigrationFixtures {
  static let v1 = [
    Migration(
      "club/001-members-and-visits", .additive,
      sql: """
        CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT NOT NULL, level TEXT NOT NULL);
        CREATE INDEX member_name ON member(name);
        CREATE TABLE visit (id INTEGER PRIMARY KEY, memberId INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
          at TEXT NOT NULL);
        CREATE INDEX visit_member ON visit(memberId);
        """)
  ]
  /// An additive column with a default (the seed's required field done right), a rename, and a
  /// rebuild of the parent table that widens a CHECK: the visits must still point at their members.
  static let v2 =
    v1 + [
      Migration(
        "club/002-member-active", .additive, touches: ["member"],
        sql: "ALTER TABLE member ADD COLUMN isActive INTEGER NOT NULL DEFAULT 1 CHECK (isActive IN (0, 1))"),
      Migration(
        "club/003-visit-rename-at", .rename, touches: ["visit"],
        sql: "ALTER TABLE visit RENAME COLUMN at TO visitedAt"),
      Migration(
        "club/004-member-level-check", .rebuild, touches: ["member"],
        sql: """
          CREATE TABLE member_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
            level TEXT NOT NULL CHECK (level IN ('bronze', 'silver', 'gold')),
            isActive INTEGER NOT NULL DEFAULT 1 CHECK (isActive IN (0, 1)));
          INSERT INTO member_new (id, name, level, isActive) SELECT id, name, level, isActive FROM member;
          DROP TABLE member;
          ALTER TABLE member_new RENAME TO member;
          CREATE INDEX member_name ON member(name);
          """),
    ]

  static func module(_ migrations: [Migration], tables: [TableSchema] = []) -> GymModule {
    GymModule(name: "club", migrations: migrations, tables: tables)
  }

  static let memberTable = TableSchema(
    name: "member", fields: [Field("name", .text)], indexes: [IndexSchema("member_name", on: ["name"])],
    defaultSort: [SortKey("name")])

  static func temporaryPath() throws -> String {
    let directory = NSTemporaryDirectory() + "gym-migrate-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory + "/gym.sqlite"
  }

  /// A v1 database with `members` members and three visits each.
  static func filledV1(members: Int = 50) throws -> String {
    let path = try temporaryPath()
    let store = try Store(path: path, modules: [module(v1)])
    try store.write { db in
      for i in 1...members {
        try db.execute(
          sql: "INSERT INTO member (id, name, level) VALUES (?, ?, ?)",
          arguments: [i, "Member \(i)", ["bronze", "silver", "gold"][i % 3]])
        for v in 0..<3 {
          try db.execute(
            sql: "INSERT INTO visit (memberId, at) VALUES (?, ?)", arguments: [i, "2026-0\(1 + v)-01"])
        }
      }
    }
    return path
  }

  static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
}
