import Foundation
import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymHistory

/// History's global keys (`HistoryKeys`) and history's rows as devices sync them: keys worked out
/// from their definition, writes keyed before they are recorded, the same import on two devices one
/// record, and history beginning later on a log that synced before it did.
@Suite struct HistorySyncTests {
  static let modules = [historyModule, syncModule]

  /// One device: a database whose log has begun on `tables` (history's by default).
  final class Device {
    let name: String
    let store: Store

    init(_ name: String, tables: [SyncedTable] = HistoryKeys.synced) throws {
      self.name = name
      store = try Store(path: try HistoryFixtures.directory() + "/gym.sqlite", modules: HistorySyncTests.modules)
      try store.writeSyncing { db in
        try HistoryKeys.assignAll(db)
        try ChangeLog.begin(db, device: name, tables: tables, now: Date())
      }
    }

    /// Pulls what `other` holds that this log lacks.
    func pull(from other: Device) throws {
      let entries = try other.store.read { db in
        try Row.fetchAll(db, sql: "SELECT device, seq, hlc, changeset FROM sync_change ORDER BY hlc").map {
          ChangeLog.Entry(device: $0[0], seq: $0[1], hlc: $0[2], changeset: Changeset([UInt8]($0[3] as Data)))
        }
      }
      let have = try store.read { db in
        try Set(
          Row.fetchAll(db, sql: "SELECT device, seq FROM sync_change").map { "\($0[0] as String)/\($0[1] as Int64)" })
      }
      let wanted = entries.filter { !have.contains("\($0.device)/\($0.seq)") }
      try store.writeSyncing { db in _ = try ChangeLog.integrate(db, wanted, tables: HistoryKeys.synced) }
    }

    /// Every history row, keys and all, in key order.
    func contents() throws -> String {
      try store.read { db in
        try [
          "SELECT seq, id, completedAt, planTitle FROM workout ORDER BY seq",
          "SELECT seq, workoutSeq, position, exercise, weightKg, reps FROM workout_set ORDER BY seq",
          "SELECT seq, type, start, \"end\", value, source, stage FROM sample ORDER BY seq",
          "SELECT seq, aliasKey, name FROM exercise_alias ORDER BY seq",
          "SELECT seq, name, model, manual FROM sample_source ORDER BY seq",
        ].map { try Row.fetchAll(db, sql: $0).map(\.description).joined(separator: "\n") }.joined(separator: "\n--\n")
      }
    }
  }

  /// A Strong-like import: two workouts, three sets, and five heart-rate samples loaded as an import
  /// loads them (`BulkLoader`, appending at SQLite's next rowid), an alias and a source.
  static func importSession(_ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity) VALUES
          ('167e88c8-8cb5-8bb0-af06-d68bdddb883f', '2024-01-02T07:45:00.000Z', 'completed', 'Push', 'push', 45, 'moderate'),
          ('510e9a69-4182-8f91-9a6e-eb1a222f335a', '2024-01-04T07:50:00.000Z', 'completed', 'Pull', 'pull', 50, 'moderate');
        INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps)
          SELECT seq, 1, 'Bench Press (Barbell)', 'normal', 60, 8 FROM workout WHERE planTitle = 'Push';
        INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps)
          SELECT seq, 2, 'Bench Press (Barbell)', 'normal', 65, 6 FROM workout WHERE planTitle = 'Push';
        INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps)
          SELECT seq, 1, 'Deadlift (Barbell)', 'normal', 100, 5 FROM workout WHERE planTitle = 'Pull';
        INSERT INTO exercise_alias (aliasKey, name) VALUES ('bench press (barbell)', 'Bench Press');
        INSERT INTO sample_source (name, model, manual) VALUES ('Watch', 'Watch', 0);
        """)
    let loader = try BulkLoader(table: SampleSchema.table, conflict: SampleSchema.conflict, db: db)
    var values = RecordValues(fieldNames: SampleSchema.table.fieldNames)
    for minute in 0..<5 {
      values.reset()
      values.set(0, "heartRate")
      values.set(1, String(format: "2024-01-02T07:%02d:00.000Z", minute))
      values.set(2, String(format: "2024-01-02T07:%02d:00.000Z", minute))
      values.set(3, String(60 + minute), kind: .number)
      values.set(4, "count/min")
      values.set(6, "Watch")
      try loader.add(&values, line: minute + 1)
    }
    try loader.finish()
  }

  /// Days from 1900-01-01, counted by hand: 124 years to 2024, 30 of them leap (1904 … 2020; 1900
  /// is not), then one day into January; the key's day is one more.
  @Test func keysFollowTheirDefinition() {
    let january2 = Int64(1 + 124 * 365 + 30 + 1)  // 45,292
    #expect(HistoryKeys.day("2024-01-02T07:45:00.000Z") == january2)
    #expect(HistoryKeys.day("1900-01-01T00:00:00.000Z") == 1)
    #expect(HistoryKeys.day("1899-12-31T23:59:59.000Z") == 1)  // before 1900: the first day
    #expect(HistoryKeys.day("not a date") == 1)
    // Day 131,071 is the last (in 2258); 2300 is past it.
    #expect(HistoryKeys.day("2300-01-01T00:00:00.000Z") == 131_071)
    // 2000 is a leap year: 1 + 100 × 365 + 24 leap days (1904 … 1996) + January's 31 + February's 29.
    let march2000: Int64 = 1 + 100 * 365 + 24 + 31 + 29
    #expect(HistoryKeys.day("2000-03-01") == march2000)
    #expect(HistoryKeys.day("2000-02-29") == march2000 - 1)

    let id = "167e88c8-8cb5-8bb0-af06-d68bdddb883f"
    let low36: Int64 = (1 << 36) - 1
    // A workout's and a set's keys are derived keys alone (no day: a workout's time depends on the
    // zone its export was read in).
    let workout = GlobalKey.derived("workout", id)
    #expect(HistoryKeys.workout(id: id) == workout)
    // The next ordinal adds the number as a last part.
    #expect(HistoryKeys.workout(id: id, ordinal: 1) == GlobalKey.derived("workout", id, "1"))
    #expect(HistoryKeys.set(workout: workout, position: 2) == GlobalKey.derived("workout_set", String(workout), "2"))
    let start = "2024-01-02T07:00:00.000Z"
    #expect(
      HistoryKeys.sample(type: "heartRate", start: start, end: start, source: "Watch", stage: "none", value: 60)
        == january2 * (1 << 36)
        + (GlobalKey.derived("sample", "heartRate", start, start, "Watch", "none", "60.0") & low36))
    #expect(HistoryKeys.valuePart(-0.0) == "0.0")
    #expect(HistoryKeys.valuePart(0.1) == "0.1")
    #expect(HistoryKeys.alias("bench press") == GlobalKey.derived("exercise_alias", "bench press"))
    #expect(HistoryKeys.source("Watch") == GlobalKey.derived("sample_source", "Watch"))
  }

  /// Rows written once sync has begun are keyed before the write is recorded: the log's change
  /// names the keys, never the rowids the load gave them, and each set points at its workout's key.
  @Test func writesAreKeyedBeforeTheyAreRecorded() throws {
    let device = try Device("laptop")
    try device.store.write { db in try Self.importSession(db) }
    try device.store.read { db in
      let workouts = try Row.fetchAll(db, sql: "SELECT seq, id FROM workout")
      #expect(workouts.count == 2)
      for row in workouts {
        #expect(row[0] as Int64 == HistoryKeys.workout(id: row[1]))
      }
      for row in try Row.fetchAll(db, sql: "SELECT seq, workoutSeq, position FROM workout_set") {
        #expect(row[0] as Int64 == HistoryKeys.set(workout: row[1], position: row[2]))
      }
      let samples = try Row.fetchAll(db, sql: "SELECT seq, type, start, \"end\", source, stage, value FROM sample")
      #expect(samples.count == 5)
      for row in samples {
        #expect(
          row[0] as Int64
            == HistoryKeys.sample(
              type: row[1], start: row[2], end: row[3], source: row[4], stage: row[5], value: row[6]))
      }
      #expect(
        try Int64.fetchOne(db, sql: "SELECT seq FROM exercise_alias") == HistoryKeys.alias("bench press (barbell)"))
      #expect(try Int64.fetchOne(db, sql: "SELECT seq FROM sample_source") == HistoryKeys.source("Watch"))
      #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
      // The one change recorded: 2 workouts + 3 sets + 5 samples + 1 alias + 1 source = 12 inserts,
      // each at its key.
      let blob = try Data.fetchOne(db, sql: "SELECT changeset FROM sync_change")!
      let changes = try Changeset([UInt8](blob)).changes()
      #expect(changes.count == 2 + 3 + 5 + 1 + 1)
      #expect(changes.allSatisfy { $0.operation == .insert })
      let keys = Set(
        changes.compactMap { change -> Int64? in
          guard case .int64(let key) = change.key.first?.storage else { return nil }
          return key
        })
      let held = Set(
        try Int64.fetchAll(
          db,
          sql: """
            SELECT seq FROM workout UNION ALL SELECT seq FROM workout_set UNION ALL SELECT seq FROM sample
            UNION ALL SELECT seq FROM exercise_alias UNION ALL SELECT seq FROM sample_source
            """))
      #expect(keys == held)
    }
  }

  /// A write that deletes the row with the highest rowid and then inserts (a set import replacing a
  /// workout's sets) makes SQLite give the new row a rowid below the old highest: it is still keyed.
  @Test func aRowAtAReusedRowidIsKeyedToo() throws {
    let device = try Device("laptop")
    try device.store.write { db in try Self.importSession(db) }
    let (workout, position) = try device.store.write { db -> (Int64, Int64) in
      let highest = try Row.fetchOne(db, sql: "SELECT workoutSeq, position FROM workout_set ORDER BY seq DESC LIMIT 1")!
      try db.execute(sql: "DELETE FROM workout_set WHERE seq = (SELECT MAX(seq) FROM workout_set)")
      try db.execute(
        sql: "INSERT INTO workout_set (workoutSeq, position, exercise, kind) VALUES (?, 9, 'Plank', 'normal')",
        arguments: [highest[0] as Int64])
      return (highest[0], 9)
    }
    let seq = try device.store.read {
      try Int64.fetchOne($0, sql: "SELECT seq FROM workout_set WHERE position = 9")
    }
    #expect(seq == HistoryKeys.set(workout: workout, position: position))
  }

  /// One workout (one id) recorded with different times on two devices (a Strong export's local
  /// times read in two zones) is one record, whose fields are the later import's.
  @Test func aWorkoutReadInTwoZonesIsOneRecord() throws {
    // Named in the order they write: on a tie of clock readings, the log orders by device name.
    let laptop = try Device("a-laptop")
    let desktop = try Device("b-desktop")
    let id = "167e88c8-8cb5-8bb0-af06-d68bdddb883f"
    for (device, time) in [(laptop, "2024-01-02T04:00:00.000Z"), (desktop, "2024-01-01T20:00:00.000Z")] {
      try device.store.write { db in
        try db.execute(
          sql: """
            INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity)
            VALUES (?, ?, 'completed', 'Push', 'push', 45, 'moderate')
            """, arguments: [id, time])
      }
    }
    try laptop.pull(from: desktop)
    try desktop.pull(from: laptop)
    #expect(try laptop.contents() == desktop.contents())
    let rows = try laptop.store.read { try Row.fetchAll($0, sql: "SELECT seq, completedAt FROM workout") }
    // The desktop's import was made later (its clock reading is after the laptop's).
    #expect(
      rows.map { "\($0[0] as Int64) \($0[1] as String)" } == ["\(HistoryKeys.workout(id: id)) 2024-01-01T20:00:00.000Z"]
    )
  }

  /// The same export imported on two devices apart is one record on both once they sync; a workout
  /// removed on one device goes with its sets on the other.
  @Test func theSameImportOnTwoDevicesIsOneRecord() throws {
    let laptop = try Device("laptop")
    let desktop = try Device("desktop")
    try laptop.store.write { db in try Self.importSession(db) }
    try desktop.store.write { db in try Self.importSession(db) }
    try desktop.store.write { db in
      try db.execute(sql: "DELETE FROM workout WHERE planTitle = 'Pull'")
    }
    try laptop.pull(from: desktop)
    try desktop.pull(from: laptop)
    #expect(try laptop.contents() == desktop.contents())
    let counts = try laptop.store.read { db in
      try [
        "SELECT count(*) FROM workout", "SELECT count(*) FROM workout_set", "SELECT count(*) FROM sample",
        "SELECT count(*) FROM exercise_alias", "SELECT count(*) FROM sample_source",
      ].map { try Int.fetchOne(db, sql: $0)! }
    }
    // One workout left (Pull removed) with its 2 sets; 5 samples, 1 alias, 1 source: not doubled.
    #expect(counts == [1, 2, 5, 1, 1])
  }

  /// A log that began before history synced (a gym of the version before) records none of history's
  /// writes; the next sync begins history: its rows get their keys and become one change, and
  /// later writes are recorded.
  @Test func historyBeginsLaterOnALogThatBeganWithoutIt() throws {
    let device = try Device("laptop", tables: [])
    try device.store.write { db in try Self.importSession(db) }
    try device.store.read { (db: Database) throws in
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_change") == 0)
      // Not keyed: SQLite's rowids, 1 and 2.
      #expect(try Int64.fetchAll(db, sql: "SELECT seq FROM workout ORDER BY seq") == [1, 2])
    }
    let begun = try device.store.writeSyncing { db in
      try ChangeLog.beginLater(db, device: "laptop", tables: HistoryKeys.synced, now: Date()) { _ in
        try HistoryKeys.assignAll(db)
      }
    }
    #expect(begun == ["workout", "workout_set", "sample", "exercise_alias", "sample_source"])
    try device.store.read { db in
      for row in try Row.fetchAll(db, sql: "SELECT seq, id FROM workout") {
        #expect(row[0] as Int64 == HistoryKeys.workout(id: row[1]))
      }
      let blob = try Data.fetchOne(db, sql: "SELECT changeset FROM sync_change")!
      #expect(try Changeset([UInt8](blob)).changes().count == 12)
    }
    try device.store.write { db in
      try HistoryFixtures.insert(db, at: "2024-01-05T08:00:00.000Z")
    }
    #expect(try device.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_change") } == 2)
    // Begun once: nothing more the next time.
    let again = try device.store.writeSyncing { db in
      try ChangeLog.beginLater(db, device: "laptop", tables: HistoryKeys.synced, now: Date()) { _ in }
    }
    #expect(again.isEmpty)
  }
}
