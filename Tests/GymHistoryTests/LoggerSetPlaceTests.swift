import Foundation
import GRDB
import GymCLI
import GymCore
import TestTimeZone
import Testing

@testable import GymHistory

/// A set keeps its place in its session when a row before it cannot be read, a newer export's
/// session replaces the older's sets, and what an export does not say is kept as unknown.
@Suite(.serialized) struct LoggerSetPlaceTests {
  init() throws { try TestTimeZone.requireUTC() }

  static let header = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n"
  static func row(_ order: Int, _ weight: String, date: String = "2024-01-01 10:00:00") -> String {
    "\(date),A,Bench,\(order),\(weight),10\n"
  }
  let kilograms = StrongFormat(kilogramsPerUnit: 1, kilometresPerUnit: 1)

  func run(_ format: any LoggerFormat, _ text: String, store: Store, strict: Bool = false) throws -> LoggerCounts {
    let path = try HistoryFixtures.file("export.csv", text)
    var job = LoggerImport(format: format, path: path)
    job.strict = strict
    return try job.run(openStore: { store }, progress: ProgressLine("t", enabled: false))
  }

  func sets(_ store: Store) throws -> [[String?]] {
    try store.read {
      try Row.fetchAll($0, sql: "SELECT position, weightKg FROM workout_set ORDER BY position").map {
        [($0[0] as Int64?).map(String.init), ($0[1] as Double?).map { String($0) }]
      }
    }
  }

  /// The second of three sets unreadable (`7O`): the third keeps position 3, and the stored second
  /// (70 kg, from the whole file before) is neither overwritten by the third nor removed.
  @Test func aSetAfterAnUnreadableOneKeepsItsPlace() throws {
    let store = try HistoryFixtures.store()
    let whole = Self.header + Self.row(1, "60") + Self.row(2, "70") + Self.row(3, "80")
    _ = try run(kilograms, whole, store: store)
    let damaged = Self.header + Self.row(1, "60") + Self.row(2, "7O") + Self.row(3, "80")
    let counts = try run(kilograms, damaged, store: store)
    #expect(counts.skips.count == 1)
    #expect(try sets(store) == [["1", "60.0"], ["2", "70.0"], ["3", "80.0"]])
    #expect(counts.setsRemoved == 0)
    // 60×10 + 70×10 + 80×10 = 2100 kg, the session volume already stored: no new record.
    #expect(counts.newRecords.isEmpty, "\(counts.newRecords)")
    // Into an empty database the held place stays empty: sets 1 and 3.
    let fresh = try HistoryFixtures.store()
    _ = try run(kilograms, damaged, store: fresh)
    #expect(try sets(fresh) == [["1", "60.0"], ["3", "80.0"]])
  }

  /// A newer export whose session lost a set (deleted in the app) removes it; one whose session
  /// has an unreadable set removes nothing past it, since the file does not say what it holds.
  @Test func aSetTheNewerExportNoLongerHasIsRemoved() throws {
    let store = try HistoryFixtures.store()
    _ = try run(kilograms, Self.header + Self.row(1, "60") + Self.row(2, "70") + Self.row(3, "80"), store: store)
    let shorter = try run(kilograms, Self.header + Self.row(1, "60") + Self.row(2, "70"), store: store)
    #expect(shorter.setsRemoved == 1)
    #expect(try sets(store) == [["1", "60.0"], ["2", "70.0"]])
    // The other session of the file, and a session this file does not have, keep theirs.
    let other = Self.row(1, "100", date: "2024-02-01 10:00:00")
    _ = try run(kilograms, Self.header + Self.row(1, "60") + Self.row(2, "70") + other, store: store)
    let unreadable = try run(kilograms, Self.header + Self.row(1, "6O"), store: store)
    #expect(unreadable.setsRemoved == 0 && unreadable.skips.count == 1)
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout_set") } == 3)
  }

  /// A line of another shape than the header (a field short, one cut off) still names its session
  /// by its first fields: its place is held, in the middle of a session or at its end, and nothing of
  /// that session is removed. One that names no session turns removal off for the whole file.
  @Test func aRowOfAnotherShapeHoldsItsPlace() throws {
    let whole = Self.header + Self.row(1, "60") + Self.row(2, "70") + Self.row(3, "80") + Self.row(4, "90")
    let short = "2024-01-01 10:00:00,A,Bench,2,70\n"
    let store = try HistoryFixtures.store()
    _ = try run(kilograms, whole, store: store)
    let middle = try run(
      kilograms, Self.header + Self.row(1, "60") + short + Self.row(3, "80") + Self.row(4, "90"), store: store)
    #expect(middle.skips.count == 1 && middle.setsRemoved == 0)
    #expect(try sets(store) == [["1", "60.0"], ["2", "70.0"], ["3", "80.0"], ["4", "90.0"]])
    let cut = try run(kilograms, Self.header + Self.row(1, "60") + short, store: store)
    #expect(cut.skips.count == 1 && cut.setsRemoved == 0)
    #expect(try sets(store).count == 4)
    // Another session's set gone from the file, beside a line naming no session: nothing removed.
    let other = Self.row(1, "100", date: "2024-02-01 10:00:00") + Self.row(2, "110", date: "2024-02-01 10:00:00")
    _ = try run(kilograms, whole + other, store: store)
    let nameless = try run(kilograms, whole + Self.row(1, "100", date: "2024-02-01 10:00:00") + ",,,,\n", store: store)
    #expect(nameless.skips.count == 1 && nameless.setsRemoved == 0)
    // Without it, the set the file no longer has goes.
    let removed = try run(kilograms, whole + Self.row(1, "100", date: "2024-02-01 10:00:00"), store: store)
    #expect(removed.setsRemoved == 1)
  }

  /// A last line cut off inside the workout's name (`Push D` for `Push Day`) names a session the
  /// file does not have: which session lost its tail is not known, and nothing is removed.
  @Test func aLineCutInsideTheNameRemovesNothing() throws {
    func push(_ order: Int, _ weight: String) -> String { "2024-02-01 10:00:00,Push Day,Bench,\(order),\(weight),10\n" }
    let store = try HistoryFixtures.store()
    _ = try run(kilograms, Self.header + push(1, "60") + push(2, "70") + push(3, "80"), store: store)
    let cut = try run(kilograms, Self.header + push(1, "60") + "2024-02-01 10:00:00,Push D", store: store)
    #expect(cut.skips.count == 1 && cut.setsRemoved == 0)
    #expect(try sets(store) == [["1", "60.0"], ["2", "70.0"], ["3", "80.0"]])
  }

  /// A rest timer refused with its session (a duration gym cannot read) holds no place and turns
  /// no removal off: another session's set the file no longer has is removed.
  @Test func aRefusedRestRowIsNoSet() throws {
    let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n"
    let store = try HistoryFixtures.store()
    _ = try run(
      kilograms, header + "2024-01-01 10:00:00,A,1h,Bench,1,60,10\n2024-01-01 10:00:00,A,1h,Bench,2,70,10\n",
      store: store)
    let counts = try run(
      kilograms,
      header + "2024-01-01 10:00:00,A,1h,Bench,1,60,10\n" + "2024-02-01 10:00:00,B,soon,Bench,Rest Timer,,\n",
      store: store)
    #expect(counts.skips.count == 1 && counts.setsRemoved == 1)
    #expect(try sets(store) == [["1", "60.0"]])
  }

  /// A session stored by a gym that numbered only the readable sets (A 1, C 2, D 3 with B
  /// unreadable) and imported again from the same file: C and D move to their places (3, 4), not
  /// stored twice. One stored whole from an earlier file (A, B, C, D) keeps B.
  @Test func setsNumberedTheOldWayMoveToTheirPlaces() throws {
    let file = Self.header + Self.row(1, "60") + Self.row(2, "7O") + Self.row(3, "80") + Self.row(4, "90")
    let store = try HistoryFixtures.store()
    _ = try run(kilograms, Self.header + Self.row(1, "60") + Self.row(3, "80") + Self.row(4, "90"), store: store)
    #expect(try sets(store) == [["1", "60.0"], ["2", "80.0"], ["3", "90.0"]])
    _ = try run(kilograms, file, store: store)
    #expect(try sets(store) == [["1", "60.0"], ["3", "80.0"], ["4", "90.0"]])
    let whole = try HistoryFixtures.store()
    _ = try run(
      kilograms, Self.header + Self.row(1, "60") + Self.row(2, "70") + Self.row(3, "80") + Self.row(4, "90"),
      store: whole)
    _ = try run(kilograms, file, store: whole)
    #expect(try sets(whole) == [["1", "60.0"], ["2", "70.0"], ["3", "80.0"], ["4", "90.0"]])
  }

  /// A session whose rows are apart in the file continues its places where they stopped, and a
  /// rest timer or note row takes none.
  @Test func aSessionMetAgainContinuesItsPlaces() throws {
    let store = try HistoryFixtures.store()
    let text =
      Self.header + Self.row(1, "60") + Self.row(1, "100", date: "2024-02-01 10:00:00")
      + "2024-01-01 10:00:00,A,Bench,Rest Timer,,\n" + Self.row(2, "7O") + Self.row(3, "80")
    let counts = try run(kilograms, text, store: store)
    #expect(counts.skips.count == 1)
    let placed = try store.read {
      try Row.fetchAll(
        $0,
        sql: """
          SELECT w.completedAt, s.position, s.weightKg FROM workout_set s JOIN workout w ON w.seq = s.workoutSeq
          ORDER BY w.completedAt, s.position
          """
      ).map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Double)" }
    }
    #expect(
      placed == [
        "2024-01-01T10:00:00.000Z 1 60.0", "2024-01-01T10:00:00.000Z 3 80.0", "2024-02-01T10:00:00.000Z 1 100.0",
      ])
  }

  /// Strong's runaway timer (`264h 1m` = 15,841 minutes, past a week's 10,080): the sets are kept,
  /// the duration is unknown and the workout ends at its start; told once for the session.
  @Test func aRunawayTimerKeepsTheSetsWithTheDurationUnknown() throws {
    let store = try HistoryFixtures.store()
    let text =
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n"
      + "2024-01-01 10:00:00,A,264h 1m,Bench,1,60,10\n2024-01-01 10:00:00,A,264h 1m,Bench,2,70,10\n"
    let counts = try run(kilograms, text, store: store)
    #expect(counts.skips.count == 0 && counts.skips.keptCount == 1)
    #expect(counts.skips.summary == "; 1 record kept with a value unknown (line 2)")
    #expect(counts.sets.inserted == 2)
    let workout = try #require(try store.read { try Row.fetchOne($0, sql: "SELECT * FROM workout") })
    #expect(workout["durationMinutes"] == nil as Double?)
    #expect(workout["completedAt"] == "2024-01-01T10:00:00.000Z")
    // All or nothing: --strict refuses the file, nothing written.
    let strict = try HistoryFixtures.store()
    #expect(throws: GymError.self) { try run(kilograms, text, store: strict, strict: true) }
    #expect(try strict.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout") } == 0)
  }

  /// A Hevy workout that ends before it starts: its duration unknown, not zero; seconds, when a
  /// time gives them, are read and checked.
  @Test func hevyTimesAreTakenAsWritten() throws {
    let store = try HistoryFixtures.store()
    let header =
      "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,set_index,set_type,weight_kg,reps,distance_km,duration_seconds,rpe\n"
    let text =
      header + "\"A\",\"9 Apr 2026, 17:45\",\"9 Apr 2026, 16:50\",,Squat,,,0,normal,100,5,,,\n"
      + "\"B\",\"10 Apr 2026, 16:50:30\",\"10 Apr 2026, 17:45:15\",,Squat,,,0,normal,100,5,,,\n"
      + "\"C\",\"11 Apr 2026, 16:50:99\",\"11 Apr 2026, 17:45\",,Squat,,,0,normal,100,5,,,\n"
      + "\"D\",\"2026-04-12\",\"2026-04-12\",,Squat,,,0,normal,100,5,,,\n"
    let counts = try run(HevyFormat(), text, store: store)
    #expect(counts.skips.count == 2 && counts.skips.keptCount == 1)
    let rows = try store.read {
      try Row.fetchAll($0, sql: "SELECT planTitle, completedAt, durationMinutes FROM workout ORDER BY planTitle")
    }
    #expect(rows.map { $0["planTitle"] as String } == ["A", "B"])
    // A: ends, as far as gym knows, at its start (17:45); nothing made up for how long it took.
    #expect(rows[0]["completedAt"] == "2026-04-09T17:45:00.000Z")
    #expect(rows[0]["durationMinutes"] == nil as Double?)
    // B: 16:50:30 → 17:45:15 is 54 min 45 s = 54.75 minutes.
    #expect(rows[1]["completedAt"] == "2026-04-10T17:45:15.000Z")
    #expect(rows[1]["durationMinutes"] == 54.75)
  }

  /// A weight or distance whose row and column name no unit, with no unit given on the command
  /// line, is skipped and told; the rest of the file is read.
  @Test func aWeightOrDistanceWithoutAUnitIsNotGuessed() throws {
    let header =
      "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes\n"
    let text =
      header + "2024-03-17 10:00:00;Lift;Bench;1;135;;10;;;;;;\n" + "2024-03-17 10:00:00;Lift;Bench;2;60;kg;10;;;;;;\n"
      + "2024-03-18 10:00:00;Run;Run;1;;;;;3;;1800;;\n" + "2024-03-18 10:00:00;Run;Run;2;;;;;2;mi.;900;;\n"
      // Zero is zero in any unit: a lift's `0` distance and a `0` weight need none.
      + "2024-03-19 10:00:00;Lift;Plank;1;0;;1;;0;;60;;\n"
    let store = try HistoryFixtures.store()
    let counts = try run(StrongFormat(kilogramsPerUnit: nil, kilometresPerUnit: nil), text, store: store)
    #expect(counts.skips.count == 2 && counts.skips.summary.contains("(lines 2, 4)"), "\(counts.skips.summary)")
    let stored = try store.read {
      try Row.fetchAll($0, sql: "SELECT weightKg, distanceKm FROM workout_set ORDER BY weightKg IS NULL, seq")
    }
    // 60 kg as written, then the plank's 0; 2 mi = 2 × 1.609344 = 3.218688 km, kept to a thousandth: 3.219.
    #expect(stored.map { $0["weightKg"] as Double? } == [60, 0, nil])
    #expect(stored.map { $0["distanceKm"] as Double? } == [nil, 0, 3.219])
    // With the units given, 135 lb = 135 × 0.45359237 = 61.234970 kg → 61.235; 3 km as written.
    let given = try HistoryFixtures.store()
    let lb = StrongFormat(kilogramsPerUnit: WeightUnit.lb.kilograms, kilometresPerUnit: 1)
    #expect(try run(lb, text, store: given).skips.count == 0)
    let weights = try given.read {
      try Double.fetchAll($0, sql: "SELECT weightKg FROM workout_set WHERE weightKg IS NOT NULL ORDER BY seq")
    }
    #expect(weights == [61.235, 60, 0])
  }

  /// Strong writes a time with every date: a date alone is skipped and told, never read as midnight.
  @Test func aStrongDateWithoutATimeIsSkipped() throws {
    let store = try HistoryFixtures.store()
    let counts = try run(
      kilograms, Self.header + Self.row(1, "60", date: "2024-01-12") + Self.row(1, "70"), store: store)
    #expect(counts.skips.count == 1 && counts.skips.summary.contains("(line 2)"))
    #expect(
      try store.read { try String.fetchAll($0, sql: "SELECT completedAt FROM workout") } == [
        "2024-01-01T10:00:00.000Z"
      ])
  }
}
