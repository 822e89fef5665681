import Foundation
import GRDB
import Testing

@testable import GymCore

/// A changeset from outside is walked before SQLite reads it: SQLite 3.40's iterator never returns
/// from some damaged ones (the single byte `T`), so every cut or stray byte must be refused here, at
/// once, and every changeset a session writes must pass.
@Suite struct ChangesetFormatTests {
  /// Inserts, an update and a delete on two tables, with every kind of value: what a session writes.
  static func changeset() throws -> Changeset {
    let db = try DatabaseQueue()
    return try db.write { db in
      try db.execute(
        sql: """
          CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, amount REAL, photo BLOB, note TEXT);
          CREATE TABLE pair (a INTEGER, b TEXT, n INTEGER, PRIMARY KEY (a, b));
          INSERT INTO item VALUES (1, 'Milk', 2.5, x'00ff', NULL), (2, 'Eggs', 6, NULL, 'brown');
          """)
      let recorder = try SessionRecorder(db, tables: ["item", "pair"])
      try db.execute(
        sql: """
          INSERT INTO item VALUES (3, 'Rice', 1e30, x'', 'long grain');
          UPDATE item SET amount = 1.5 WHERE id = 1;
          DELETE FROM item WHERE id = 2;
          INSERT INTO pair VALUES (9223372036854775807, 'ä', -1);
          """)
      return try recorder.changeset()
    }
  }

  @Test func whatASessionWritesPasses() throws {
    let changeset = try Self.changeset()
    #expect(ChangesetFormat.problem(changeset.bytes) == nil)
    // Three changes of item (insert, update, delete), one of pair.
    #expect(
      try changeset.changes().map(\.operation).sorted { "\($0)" < "\($1)" } == [.delete, .insert, .insert, .update])
  }

  @Test func everyCutAndStrayByteIsRefusedAtOnce() throws {
    let bytes = try Self.changeset().bytes
    // The byte that hangs SQLite 3.40's iterator, alone and after a whole changeset.
    #expect(ChangesetFormat.problem([0x54]) != nil)
    #expect(throws: ChangesetError.self) { try Changeset([0x54]).changes() }
    #expect(throws: ChangesetError.self) { try Changeset(bytes + [0x54]).changes() }
    #expect(ChangesetFormat.problem(bytes + [0x00]) != nil)
    // A change before any table header.
    #expect(ChangesetFormat.problem([0x12, 0x00, 0x05]) != nil)
    // Every cut: refused, unless it falls between two changes (then a shorter changeset, whose
    // changes SQLite reads).
    var whole = 0
    for length in 1..<bytes.count {
      let cut = Array(bytes[..<length])
      if ChangesetFormat.problem(cut) == nil {
        whole += 1
        #expect(try Changeset(cut).changes().count < 4)
      } else {
        #expect(throws: ChangesetError.self) { try Changeset(cut).changes() }
      }
    }
    // The cuts after the first, second and third change of item (the fourth ends its table, and
    // a cut after pair's header alone is a table with no change yet): at least those three.
    #expect(whole >= 3)
  }
}
