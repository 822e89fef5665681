import Foundation
import GRDB

@testable import GymCore

/// A small module for store-level tests, independent of the feature modules.
enum Fixtures {
  static let table = TableSchema(
    name: "item",
    fields: [
      Field("id", .uuid), Field("name", .text), Field("kind", .enumeration(["a", "b"])),
      Field("size", .integer), Field("at", .timestamp), Field("note", .text, nullable: true),
    ],
    indexes: [IndexSchema("item_id", on: ["id"], unique: true), IndexSchema("item_kind_at", on: ["kind", "at"])],
    defaultSort: [SortKey("at", descending: true)])

  static let module = GymModule(
    name: "fixture",
    migrations: [
      Migration(
        "fixture/001-items", .additive,
        sql: """
          CREATE TABLE item (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL,
            kind TEXT NOT NULL, size INTEGER NOT NULL, at TEXT NOT NULL, note TEXT);
          CREATE UNIQUE INDEX item_id ON item(id);
          CREATE INDEX item_kind_at ON item(kind, at);
          """)
    ],
    tables: [table])

  static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "gym-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func store(rows: Int = 0) throws -> Store {
    let store = try Store(path: try temporaryDirectory() + "/gym.sqlite", modules: [module])
    try store.write { db in
      for i in 0..<rows {
        try db.execute(
          sql: "INSERT INTO item (id, name, kind, size, at) VALUES (?, ?, ?, ?, ?)",
          arguments: [
            UUID().uuidString.lowercased(), "item \(i)", i % 3 == 0 ? "a" : "b", i,
            // Pairs of equal timestamps, so ties have to be broken by rowid.
            Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(i / 2) * 1000).canonical,
          ])
      }
    }
    return store
  }
}
