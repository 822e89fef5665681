import Foundation
import GRDB
import Testing

@testable import GymCore

/// `gym migrate repair`: an index missing rows (as gym 0.1.0's imports into a new database could
/// leave one) is made again, and rows that repeat its unique key go only when they are the same row.
@Suite struct IndexRepairTests {
  /// A table whose unique index lacks row 3: written while the index, by its schema text, covered no
  /// row (`WHERE 0`), then given its text back. Row 3 repeats row 1's key `x`, with `third` as its value.
  static func damaged(third: String) throws -> DatabaseQueue {
    let path = try Fixtures.temporaryDirectory() + "/damaged.sqlite"
    var queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE t (seq INTEGER PRIMARY KEY, a TEXT NOT NULL, b TEXT COLLATE NOCASE);
          CREATE UNIQUE INDEX t_a ON t(a);
          CREATE INDEX t_b ON t(b);
          INSERT INTO t (seq, a, b) VALUES (1, 'x', 'p'), (2, 'y', 'q');
          """)
    }
    func schema(_ sql: String) throws {
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA writable_schema = ON")
        try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE name = 't_a'", arguments: [sql])
        try db.execute(sql: "PRAGMA writable_schema = OFF")
      }
      try queue.close()
      queue = try DatabaseQueue(path: path)
    }
    try schema("CREATE UNIQUE INDEX t_a ON t(a) WHERE 0")
    try queue.write { try $0.execute(sql: "INSERT INTO t (seq, a, b) VALUES (3, 'x', ?)", arguments: [third]) }
    try schema("CREATE UNIQUE INDEX t_a ON t(a)")
    return queue
  }

  @Test func aRepeatedSameRowIsRemovedAndTheIndexMadeAgain() throws {
    let queue = try Self.damaged(third: "p")
    #expect(try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } != ["ok"])
    let outcome = try queue.write { try IndexRepair.run($0) }
    // Row 3 is row 1 but for its seq: one row removed, t_a made again; t_b was whole and stays.
    #expect(outcome.rebuilt == ["t_a": 1])
    try queue.read { db throws in
      #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
      #expect(try Int.fetchAll(db, sql: "SELECT seq FROM t ORDER BY seq") == [1, 2])
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t INDEXED BY t_a") == 2)
    }
    #expect(try queue.write { try IndexRepair.run($0) } == IndexRepair.Outcome())
  }

  /// `other` differs; `P` differs from `p` only in case, which the column's NOCASE would call equal:
  /// the same row is the same in every byte, so both are refused.
  @Test(arguments: ["other", "P"]) func aRepeatedKeyWithOtherValuesChangesNothing(third: String) throws {
    let queue = try Self.damaged(third: third)
    do {
      _ = try queue.write { try IndexRepair.run($0) }
      Issue.record("expected a refusal")
    } catch let error as StoreError {
      #expect("\(error)".contains("repeat the key of index t_a"), "\(error)")
    }
    try queue.read { db throws in
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 3)
      #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") != ["ok"])
    }
  }
}
