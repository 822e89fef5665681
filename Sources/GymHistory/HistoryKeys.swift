import GRDB
import GymCore

/// The history tables' keys, the same on every device (`GlobalKey`):
///
/// - a workout: derived from its id (a Strong or Hevy workout's id is the same on every device; its
///   time is not: the export's local times are read in each device's zone);
/// - a set: derived from its workout's key and its position;
/// - a sample: its day in the high bits, so that the rows of one day sit together: 1 + the days from
///   1900-01-01 to the UTC day it starts (at most 131,071: 17 bits) times 2^36, plus the low 36 bits
///   of the key derived from its type, start, end, source, stage and value (as Swift writes a Double);
/// - an exercise alias: derived from the exercise's key; a sample source: from its name.
///
/// Two records whose keys meet are told apart by an ordinal (`RowKeying`): the parts and `1`, `2` ….
/// Rows are loaded at SQLite's next rowid, at full speed, and keyed when sync begins or, once it
/// has, before each write is recorded.
enum HistoryKeys {
  static let hashBits: Int64 = 36
  static let hashMask: Int64 = (1 << 36) - 1

  /// 1 + days from 1900-01-01 to the day a canonical timestamp (`2026-11-21T10:00:00.000Z`) or date
  /// starts with, from 1 to 131,071; 1 for text that starts with no date.
  static func day(_ timestamp: String) -> Int64 {
    let bytes = Array(timestamp.utf8.prefix(10))
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return 1 }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[range] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int64(byte - 48)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let dayOfMonth = number(8..<10),
      (1...12).contains(month), (1...31).contains(dayOfMonth)
    else { return 1 }
    // 1900-01-01 is day −25,567 from 1970-01-01.
    let fromEpoch = Timestamp.days(year: year, month: month, day: dayOfMonth)
    return min(max(1 + fromEpoch + 25_567, 1), 131_071)
  }

  /// A day's key: the day times 2^36, plus the low 36 bits of the key derived from `parts`
  /// (and the ordinal, unless 0).
  static func dated(_ day: Int64, _ parts: [String], ordinal: Int) -> Int64 {
    (day << hashBits) | (GlobalKey.numbered(parts, ordinal) & hashMask)
  }

  static func workout(id: String, ordinal: Int = 0) -> Int64 { GlobalKey.numbered(["workout", id], ordinal) }

  static func set(workout: Int64, position: Int64, ordinal: Int = 0) -> Int64 {
    GlobalKey.numbered(["workout_set", String(workout), String(position)], ordinal)
  }

  /// A value as a key part: Swift's shortest exact decimal form (`72.0`, `0.1`); zero unsigned, as
  /// the table compares it.
  static func valuePart(_ value: Double) -> String { String(value == 0 ? 0 : value) }

  static func sample(
    type: String, start: String, end: String, source: String, stage: String, value: Double, ordinal: Int = 0
  ) -> Int64 {
    dated(day(start), ["sample", type, start, end, source, stage, valuePart(value)], ordinal: ordinal)
  }

  static func alias(_ aliasKey: String, ordinal: Int = 0) -> Int64 {
    GlobalKey.numbered(["exercise_alias", aliasKey], ordinal)
  }

  static func source(_ name: String, ordinal: Int = 0) -> Int64 {
    GlobalKey.numbered(["sample_source", name], ordinal)
  }

  /// The keyings, parents first: a set is keyed after its workout has moved.
  static let keyings = [
    RowKeying(table: "workout", columns: ["id"], references: [.init("workout_set", "workoutSeq")]) {
      values, ordinal in workout(id: try text(values[0]), ordinal: ordinal)
    },
    RowKeying(table: "workout_set", columns: ["workoutSeq", "position"]) { values, ordinal in
      set(workout: try integer(values[0]), position: try integer(values[1]), ordinal: ordinal)
    },
    RowKeying(table: "sample", columns: ["type", "start", "end", "source", "stage", "value"]) { values, ordinal in
      sample(
        type: try text(values[0]), start: try text(values[1]), end: try text(values[2]), source: try text(values[3]),
        stage: try text(values[4]), value: try real(values[5]), ordinal: ordinal)
    },
    RowKeying(table: "exercise_alias", columns: ["aliasKey"]) { values, ordinal in
      alias(try text(values[0]), ordinal: ordinal)
    },
    RowKeying(table: "sample_source", columns: ["name"]) { values, ordinal in
      source(try text(values[0]), ordinal: ordinal)
    },
  ]

  /// The tables `gym sync` shares: every one of them (no counters: a workout, a set, a sample is
  /// what it says).
  static let synced = keyings.map { SyncedTable($0.table) }

  /// When sync begins: every row gets its key.
  static func assignAll(_ db: Database) throws {
    for keying in keyings { try keying.assign(db) }
  }

  private static func text(_ value: DatabaseValue) throws -> String {
    guard case .string(let text) = value.storage else { throw DatabaseError(message: "a key part is not text") }
    return text
  }

  private static func integer(_ value: DatabaseValue) throws -> Int64 {
    guard case .int64(let number) = value.storage else { throw DatabaseError(message: "a key part is not an integer") }
    return number
  }

  private static func real(_ value: DatabaseValue) throws -> Double {
    switch value.storage {
    case .double(let number): return number
    case .int64(let number): return Double(number)
    default: throw DatabaseError(message: "a key part is not a number")
    }
  }

  /// `history/016`: the alias and source tables get an integer primary key of their own, which
  /// changesets address rows by (a table without one is never recorded). Their rowids stay; keys
  /// come when sync begins.
  static let migration = Migration(
    "history/016-sync-keys", .rebuild, touches: ["exercise_alias", "sample_source"],
    sql: """
      PRAGMA legacy_alter_table = ON;
      CREATE TABLE exercise_alias_new (seq INTEGER PRIMARY KEY, aliasKey TEXT NOT NULL, name TEXT NOT NULL);
      INSERT INTO exercise_alias_new (seq, aliasKey, name) SELECT rowid, aliasKey, name FROM exercise_alias ORDER BY rowid;
      DROP TABLE exercise_alias;
      ALTER TABLE exercise_alias_new RENAME TO exercise_alias;
      CREATE UNIQUE INDEX exercise_alias_key ON exercise_alias(aliasKey);
      CREATE TABLE sample_source_new (
        seq INTEGER PRIMARY KEY, name TEXT NOT NULL, model TEXT, manual INTEGER NOT NULL DEFAULT 0 CHECK (manual IN (0, 1))
      );
      INSERT INTO sample_source_new (seq, name, model, manual) SELECT rowid, name, model, manual FROM sample_source ORDER BY rowid;
      DROP TABLE sample_source;
      ALTER TABLE sample_source_new RENAME TO sample_source;
      CREATE UNIQUE INDEX sample_source_name ON sample_source(name);
      PRAGMA legacy_alter_table = OFF;
      """)
}
