import Foundation
import GRDB
import GymCore
import Testing

/// Keys given after the rows are written (`RowKeying`): every row named gets the first key no other
/// row holds, what points at it follows, rows not named never move, and rows that take each
/// other's present rowids move without a clash.
@Suite struct RowKeyingTests {
  /// A parent and a child table; keys are worked out from the row by `key` below.
  static func database() throws -> DatabaseQueue {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE parent (seq INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
          CREATE TABLE child (
            seq INTEGER PRIMARY KEY, parentSeq INTEGER NOT NULL REFERENCES parent(seq), n INTEGER NOT NULL,
            UNIQUE (parentSeq, n)
          );
          """)
    }
    return queue
  }

  /// A key of 1000 × the name's length + the ordinal: names of one length meet, and are told apart
  /// by their ordinal (the first free of 1000×length, 1000×length + 1, …).
  static let parent = RowKeying(
    table: "parent", columns: ["name"], references: [.init("child", "parentSeq")]
  ) { values, ordinal in
    guard case .string(let name) = values[0].storage else { throw DatabaseError(message: "name") }
    return Int64(name.count * 1000 + ordinal)
  }

  static let child = RowKeying(table: "child", columns: ["parentSeq", "n"]) { values, ordinal in
    guard case .int64(let parent) = values[0].storage, case .int64(let n) = values[1].storage else {
      throw DatabaseError(message: "child")
    }
    return parent * 10 + n + Int64(ordinal)
  }

  @Test func everyRowGetsTheFirstFreeKeyAndItsChildrenFollow() throws {
    let queue = try Self.database()
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO parent (seq, name) VALUES (1, 'ab'), (2, 'cd'), (3, 'xyz');
          INSERT INTO child (parentSeq, n) VALUES (1, 1), (2, 1), (3, 2);
          """)
      #expect(try Self.parent.assign(db) == 3)
      #expect(try Self.child.assign(db) == 3)
      // 'ab' and 'cd' both have length 2: 'ab' (lower rowid) takes 2000, 'cd' the next, 2001; 'xyz' 3000.
      #expect(
        try Row.fetchAll(db, sql: "SELECT seq, name FROM parent ORDER BY seq").map {
          "\($0[0] as Int64)=\($0[1] as String)"
        }
          == ["2000=ab", "2001=cd", "3000=xyz"])
      // Children: parent key × 10 + n → 20001, 20011, 30002.
      #expect(
        try Row.fetchAll(db, sql: "SELECT seq, parentSeq FROM child ORDER BY seq").map { [$0[0] as Int64, $0[1]] } == [
          [20_001, 2000], [20_011, 2001], [30_002, 3000],
        ])
      #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
      // Keyed again: nothing moves.
      #expect(try Self.parent.assign(db) == 0)
    }
  }

  /// Rows not named keep their keys, and a named row never takes one of them; a row whose key is
  /// another named row's present rowid is moved without a clash.
  @Test func onlyTheRowsNamedMove() throws {
    let queue = try Self.database()
    try queue.write { db in
      try db.execute(sql: "INSERT INTO parent (seq, name) VALUES (2000, 'ab'), (2001, 'qq')")
      // SQLite's next rowids: 2002 ('cd'), 2003 ('efgh'), 2004 ('ij').
      try db.execute(sql: "INSERT INTO parent (name) VALUES ('cd'), ('efgh'), ('ij')")
      try db.execute(sql: "INSERT INTO child (parentSeq, n) VALUES (2002, 5), (2003, 6)")
      // 'cd': 2000 and 2001 are held by rows not named → 2002, its own rowid: it stays. 'efgh' → 4000.
      // 'ij': 2000 and 2001 held, 2002 taken by 'cd' → 2003, the rowid 'efgh' leaves. Two moved.
      #expect(try Self.parent.assign(db, rows: [2002, 2003, 2004]) == 2)
      let rows = try Row.fetchAll(db, sql: "SELECT name, seq FROM parent ORDER BY name").map {
        "\($0[0] as String)=\($0[1] as Int64)"
      }
      #expect(rows == ["ab=2000", "cd=2002", "efgh=4000", "ij=2003", "qq=2001"])
      // The children follow: 'cd''s stays at 2002, 'efgh''s moves to 4000.
      #expect(try Int64.fetchAll(db, sql: "SELECT parentSeq FROM child ORDER BY n") == [2002, 4000])
      #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
    }
  }

  /// A row stepping aside for another goes below every row and every new key: here 'k' (rowid 3000)
  /// is wanted by 'xyz' (key 3000) and steps aside; the lowest rowid less one (2000) is the key
  /// 'ab' takes, so it goes to the lowest new key less one (999). Had it gone to 2000, 'ab''s child
  /// (moved first: its rowid is lower) would have met 'k''s child at (2000, 1).
  @Test func aRowSteppingAsideMeetsNoOther() throws {
    let queue = try Self.database()
    try queue.write { db in
      try db.execute(sql: "INSERT INTO parent (seq, name) VALUES (2001, 'ab'), (3000, 'k'), (5000, 'xyz')")
      try db.execute(sql: "INSERT INTO child (parentSeq, n) VALUES (2001, 1), (3000, 1)")
      // 'ab' → 2000, 'k' → 1000, 'xyz' → 3000: all three move.
      #expect(try Self.parent.assign(db) == 3)
      let rows = try Row.fetchAll(db, sql: "SELECT name, seq FROM parent ORDER BY seq").map {
        "\($0[0] as String)=\($0[1] as Int64)"
      }
      #expect(rows == ["k=1000", "ab=2000", "xyz=3000"])
      #expect(try Int64.fetchAll(db, sql: "SELECT parentSeq FROM child ORDER BY seq") == [2000, 1000])
      #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
    }
  }
}
