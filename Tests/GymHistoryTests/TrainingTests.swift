import Foundation
import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymHistory

/// Records and the exercises list on a set history whose answers are worked out here from the
/// definitions (Docs/History/Training.md), not read back from gym.
@Suite struct TrainingTests {
  /// (workout, date, exercise, kind, weight, reps), in set order.
  static let sets: [(Int, String, String, String, Double?, Int?)] = [
    (1, "2026-01-05", "Bench Press (Barbell)", "warmup", 40, 10),
    (1, "2026-01-05", "Bench Press (Barbell)", "normal", 80, 5),
    (1, "2026-01-05", "Bench Press (Barbell)", "normal", 85, 3),
    (1, "2026-01-05", "Pull Up", "normal", nil, 8),
    (1, "2026-01-05", "Pull Up", "normal", nil, 10),
    (2, "2026-01-12", "bench press  (barbell)", "normal", 85, 5),
    (2, "2026-01-12", "bench press  (barbell)", "normal", 90, 1),
    (2, "2026-01-12", "bench press  (barbell)", "failure", 60, 15),
    (2, "2026-01-12", "Pull Up (Assisted)", "normal", 20, 8),
    (3, "2026-01-19", "Bench Press (Barbell)", "warmup", 100, 1),
    (3, "2026-01-19", "Bench Press (Barbell)", "normal", 85, 5),
    (3, "2026-01-19", "Bench Press (Barbell)", "dropset", 70, 12),
  ]

  static func id(_ workout: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", workout) }

  /// A store holding `sets`, each workout on its first set's date.
  static func store(_ sets: [(Int, String, String, String, Double?, Int?)] = sets) throws -> Store {
    let store = try HistoryFixtures.store()
    try store.write { db in
      for workout in Set(sets.map(\.0)).sorted() {
        let date = sets.first { $0.0 == workout }!.1
        try db.execute(
          sql: "INSERT INTO workout (seq, id, completedAt, status, planTitle) VALUES (?, ?, ?, 'completed', 'Push')",
          arguments: [workout, id(workout), date + "T18:00:00.000Z"])
      }
      for (position, set) in sets.enumerated() {
        try db.execute(
          sql:
            "INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps) VALUES (?, ?, ?, ?, ?, ?)",
          arguments: [set.0, position, set.2, set.3, set.4, set.5])
      }
    }
    return store
  }

  /// `record value weight reps workout` per row, for comparing.
  func records(_ store: Store, exercise: String? = nil, since: Timestamp? = nil, formula: OneRepMax = .epley) throws
    -> [String]
  {
    try store.read { try TrainingRecords.fetch($0, exercise: exercise, since: since, formula: formula) }.map { cells in
      cells.enumerated().filter { $0.offset != 5 }.map { $0.element.plainText(localTime: false) }.joined(separator: " ")
    }
  }

  @Test func recordsByTheDefinitions() throws {
    let store = try Self.store()
    // Bench (warm-ups out): heaviest 90 (w2). Epley: 80×5 → 93.33, 85×3 → 93.5, 85×5 → 99.17 (w2 first, w3
    // equal later), 90×1 → 90, 70×12 → 98; 60×15 has too many reps. Set volume: 60×15 = 900. Session volume:
    // w1 400 + 255 = 655, w2 425 + 90 + 900 = 1415, w3 425 + 840 = 1265.
    let e1rm = 85 * (1 + 5.0 / 30)  // 99.1666…, shown to one decimal
    let rows = try records(store)
    #expect(rows.contains("Bench Press (Barbell) heaviest 90 90 1 \(Self.id(2))"))
    #expect(rows.contains("Bench Press (Barbell) e1RM \(String(format: "%.1f", e1rm)) 85 5 \(Self.id(2))"))
    #expect(rows.contains("Bench Press (Barbell) setVolume 900 60 15 \(Self.id(2))"))
    #expect(rows.contains("Bench Press (Barbell) sessionVolume 1415  21 \(Self.id(2))"))
    // Bodyweight: the most reps; assisted: the most reps too, its weight shown, not ranked.
    #expect(rows.contains("Pull Up mostReps 10  10 \(Self.id(1))"))
    #expect(rows.contains("Pull Up (Assisted) mostReps 8 20 8 \(Self.id(2))"))
    #expect(rows.count == 6)
  }

  @Test func brzyckiAndOneExerciseWithRepsAtEachWeight() throws {
    let store = try Self.store()
    // Brzycki: 80×5 → 90, 85×3 → 90, 85×5 → 95.625, 90×1 → 90, 70×12 → 100.8 (w3).
    let rows = try records(store, exercise: "BENCH press (barbell)", formula: .brzycki)
    let brzycki: Double = 70 * 36 / (37 - 12)  // weight × 36 / (37 − reps) = 100.8
    #expect(rows.contains("Bench Press (Barbell) e1RM \(String(format: "%.1f", brzycki)) 70 12 \(Self.id(3))"))
    // The most reps at each weight, warm-ups out: 60 → 15, 70 → 12, 80 → 5, 85 → 5 (w2 first), 90 → 1.
    let perWeight = rows.filter { $0.contains(" mostRepsAt ") }.map {
      $0.split(separator: " ").suffix(4).joined(separator: " ")
    }
    #expect(
      perWeight == [
        "15 60 15 \(Self.id(2))", "12 70 12 \(Self.id(3))", "5 80 5 \(Self.id(1))", "5 85 5 \(Self.id(2))",
        "1 90 1 \(Self.id(2))",
      ])
    #expect(!rows.contains { $0.hasPrefix("Pull Up") })
  }

  /// A workout whose seq was written from outside gym (negative) is ranked like any other, never a trap.
  @Test func workoutsWithAnyRowid() throws {
    let store = try Self.store()
    try store.write { db in
      try db.execute(
        sql:
          "INSERT INTO workout (seq, id, completedAt, status, planTitle) VALUES (-3, ?, '2026-01-26T18:00:00.000Z', 'completed', 'Push')",
        arguments: [Self.id(9)])
      try db.execute(
        sql:
          "INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps) VALUES (-3, 1, 'Bench Press (Barbell)', 'normal', 95, 2)"
      )
    }
    // 95 × 2 is the heaviest now, from the workout of the 26th.
    let heaviest = try records(store).first { $0.hasPrefix("Bench Press (Barbell) heaviest") }
    #expect(heaviest == "Bench Press (Barbell) heaviest 95 95 2 \(Self.id(9))")
  }

  /// At equal weight the heaviest set is the one of more reps, then the earlier: 100 × 5 then
  /// 100 × 8 in one workout (the 8 entered second) shows 100 × 8; a later 100 × 8 takes nothing.
  @Test func theHeaviestSetAtEqualWeightHasTheMostReps() throws {
    let store = try Self.store()
    try store.write { db in
      for (seq, day) in [(11, 27), (12, 28)] {
        try db.execute(
          sql:
            "INSERT INTO workout (seq, id, completedAt, status, planTitle) VALUES (?, ?, ?, 'completed', 'Push')",
          arguments: [seq, Self.id(seq), "2026-01-\(day)T18:00:00.000Z"])
      }
      for (seq, position, reps) in [(11, 1, 5), (11, 2, 8), (12, 1, 8)] {
        try db.execute(
          sql:
            "INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps) VALUES (?, ?, 'Deadlift', 'normal', 100, ?)",
          arguments: [seq, position, reps])
      }
    }
    let heaviest = try records(store).first { $0.hasPrefix("Deadlift heaviest") }
    // value weight reps workout: 100 kg, 8 reps, the workout of the 27th (the 28th's is only equal).
    #expect(heaviest == "Deadlift heaviest 100 100 8 \(Self.id(11))")
  }

  /// Ties in one workout go to the set done first (its position), not to the one the index lists
  /// first (by kind, then weight: the drop set): Row 100 × 6 (position 1) and a drop set 90 × 10
  /// (position 3) both have Epley's e1RM 100 × (1 + 6/30) = 90 × (1 + 10/30) = 120; the set volumes
  /// 60 × 15 (position 2) and 90 × 10 are both 900 (60 × 15 has no e1RM: over 12 reps). The sets are
  /// written last position first, so neither the rowid nor the index's order is the position order.
  @Test func aTieInOneWorkoutGoesToTheSetDoneFirst() throws {
    let store = try Self.store()
    try store.write { db in
      try db.execute(
        sql: "INSERT INTO workout (seq, id, completedAt, status, planTitle) VALUES (21, ?, ?, 'completed', 'Pull')",
        arguments: [Self.id(21), "2026-02-02T18:00:00.000Z"])
      for (position, kind, weight, reps) in [(3, "dropset", 90, 10), (2, "normal", 60, 15), (1, "normal", 100, 6)] {
        try db.execute(
          sql:
            "INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps) VALUES (21, ?, 'Row', ?, ?, ?)",
          arguments: [position, kind, weight, reps])
      }
    }
    let rows = try records(store).filter { $0.hasPrefix("Row ") }
    #expect(rows.contains("Row e1RM 120 100 6 \(Self.id(21))"), "\(rows)")
    #expect(rows.contains("Row setVolume 900 60 15 \(Self.id(21))"), "\(rows)")
  }

  /// The timeline ranks the heaviest set as `prs` does: 120 × 5 in one workout, then 120 × 7 in a
  /// later one beats it (the same weight, more reps), so both are listed.
  @Test func theTimelineCountsMoreRepsAtTheSameWeight() throws {
    let store = try Self.store()
    try store.write { db in
      for (seq, day, reps) in [(31, "2026-03-02", 5), (32, "2026-03-09", 7)] {
        try db.execute(
          sql: "INSERT INTO workout (seq, id, completedAt, status, planTitle) VALUES (?, ?, ?, 'completed', 'Legs')",
          arguments: [seq, Self.id(seq), day + "T10:00:00.000Z"])
        try db.execute(
          sql:
            "INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps) VALUES (?, 1, 'Hack Squat', 'normal', 120, ?)",
          arguments: [seq, reps])
      }
    }
    let heaviest = try store.read { db in
      try TrainingRecords.timeline(db, exercise: "Hack Squat", since: nil, until: nil, formula: .epley)
    }.filter { $0.kind == "heaviest" }.map { "\($0.best.weight ?? 0) \($0.best.reps ?? 0) \($0.best.workout)" }
    #expect(heaviest == ["120.0 5 31", "120.0 7 32"])
  }

  @Test func sinceCountsOnlyThePeriod() throws {
    let store = try Self.store()
    // From 2026-01-19: only w3, warm-up 100×1 out: heaviest 85, Epley 85×5 → 99.17 vs 70×12 → 98.
    let rows = try records(store, since: try Timestamp(parsing: "2026-01-19T00:00:00Z").unwrap())
    #expect(rows.contains("Bench Press (Barbell) heaviest 85 85 5 \(Self.id(3))"))
    #expect(rows.contains("Bench Press (Barbell) e1RM 99.2 85 5 \(Self.id(3))"))
    #expect(rows.contains("Bench Press (Barbell) sessionVolume 1265  17 \(Self.id(3))"))
  }

  @Test func exercisesListOneRowPerExercise() throws {
    let store = try Self.store()
    let rows = try store.read { db in
      try Row.fetchAll(
        db,
        sql:
          "SELECT exercise, sets, sessions, first, last, bestE1RM, heaviestKg FROM training_exercises ORDER BY exercise"
      )
    }.map { row in
      (0..<7).map { (row[$0] as DatabaseValue).description }.joined(separator: "|")
    }
    #expect(
      rows == [
        // 9 sets in 3 sessions, named by the latest spelling; e1RM and heaviest from working sets.
        "\"Bench Press (Barbell)\"|9|3|\"2026-01-05T18:00:00.000Z\"|\"2026-01-19T18:00:00.000Z\"|99.2|90.0",
        "\"Pull Up\"|2|1|\"2026-01-05T18:00:00.000Z\"|\"2026-01-05T18:00:00.000Z\"|NULL|NULL",
        "\"Pull Up (Assisted)\"|1|1|\"2026-01-12T18:00:00.000Z\"|\"2026-01-12T18:00:00.000Z\"|NULL|NULL",
      ])
  }

  /// Both formulas on a grid of sets, each value from the definition: a single is its weight, more
  /// than 12 reps or no weight has no estimate.
  @Test func theFormulasByTheDefinitions() throws {
    let cases: [(weight: Double, reps: Int, epley: Double?, brzycki: Double?)] = [
      (100, 1, 100, 100), (100, 5, 100 * (1 + 5.0 / 30), 100 * 36 / 32.0), (62.5, 12, 87.5, 90),
      (80, 13, nil, nil), (0, 5, nil, nil),
    ]
    for c in cases {
      #expect(OneRepMax.epley.estimate(weight: c.weight, reps: c.reps) == c.epley, "Epley \(c.weight)×\(c.reps)")
      #expect(OneRepMax.brzycki.estimate(weight: c.weight, reps: c.reps) == c.brzycki, "Brzycki \(c.weight)×\(c.reps)")
    }
    let epley: Double = 100 * (1 + 5.0 / 30)
    let brzycki: Double = 100 * 36 / 32.0
    #expect(OneRepMax.epley.estimate(weight: 100, reps: 5) == epley)
    #expect(OneRepMax.brzycki.estimate(weight: 100, reps: 5) == brzycki)
  }
}

extension TrainingTests {
  /// Volume per muscle group by week, with the shipped map: bench press (barbell) is chest, half
  /// triceps and front delts; pull up and its assisted form are lats, half biceps and upper back.
  @Test func volumePerMuscleGroupByTheDefinitions() throws {
    let store = try Self.store()
    let map = try MuscleMap.load(environment: [:])
    #expect(
      map.groups("bench press (barbell)")
        == MuscleMap.Groups(primary: ["chest"], secondary: ["triceps", "front delts"]))
    let rows = try store.read { try TrainingVolume.fetch($0, by: .week, muscle: nil, since: nil, map: map) }.map {
      $0.map { $0.plainText(localTime: false) }.joined(separator: " ")
    }
    // Week of the 5th: bench 80×5, 85×3 (the warm-up out): 2 sets, 8 reps, 655 kg; pull ups 8 + 10 reps.
    // Week of the 12th: bench 85×5, 90×1, 60×15: 3 sets, 21 reps, 1415 kg; assisted 20×8: no tonnage.
    // Week of the 19th: bench 85×5, 70×12: 2 sets, 17 reps, 1265 kg.
    #expect(
      rows == [
        "2026-01-05 biceps 1 9 0", "2026-01-05 chest 2 8 655", "2026-01-05 front delts 1 4 327.5",
        "2026-01-05 lats 2 18 0", "2026-01-05 triceps 1 4 327.5", "2026-01-05 upper back 1 9 0",
        "2026-01-12 biceps 0.5 4 0", "2026-01-12 chest 3 21 1415", "2026-01-12 front delts 1.5 10.5 707.5",
        "2026-01-12 lats 1 8 0", "2026-01-12 triceps 1.5 10.5 707.5", "2026-01-12 upper back 0.5 4 0",
        "2026-01-19 chest 2 17 1265", "2026-01-19 front delts 1 8.5 632.5", "2026-01-19 triceps 1 8.5 632.5",
      ])
    let chest = try store.read { try TrainingVolume.fetch($0, by: .month, muscle: "CHEST", since: nil, map: map) }
    #expect(
      chest.map { $0.map { $0.plainText(localTime: false) }.joined(separator: " ") } == ["2026-01 chest 7 46 3335"])
  }

  /// More workouts without sets (a watch's runs, between and around the lifts) than there are sets:
  /// only the workouts with sets are ranked then, and every answer is the one without the runs.
  @Test func workoutsWithoutSetsChangeNoAnswer() throws {
    let plain = try Self.store()
    let withRuns = try Self.store()
    try withRuns.write { db in
      for day in 1...20 {
        try db.execute(
          sql: "INSERT INTO workout (id, completedAt, status, planTitle) VALUES (?, ?, 'completed', 'Run')",
          arguments: [Self.id(100 + day), String(format: "2026-01-%02dT07:00:00.000Z", day)])
      }
    }
    let map = try MuscleMap.load(environment: [:])
    func volume(_ store: Store, since: Timestamp?) throws -> [String] {
      try store.read { try TrainingVolume.fetch($0, by: .week, muscle: nil, since: since, map: map) }.map {
        $0.map { $0.plainText(localTime: false) }.joined(separator: " ")
      }
    }
    let since = Array("2026-01-10T00:00:00Z".utf8).withUnsafeBufferPointer { Timestamp(parsing: $0) }
    #expect(try volume(withRuns, since: nil) == volume(plain, since: nil))
    #expect(try volume(withRuns, since: since) == volume(plain, since: since))
    #expect(try volume(plain, since: since).count == 9)
    #expect(try records(withRuns) == records(plain))
    #expect(try records(withRuns, since: since) == records(plain, since: since))
  }

  @Test func muscleMapKeysAndRefusals() throws {
    #expect(MuscleMap.key("  Bench\t Press  (Barbell) ") == "bench press (barbell)")
    #expect(MuscleMap.key("Élan Curl") == "Élan curl")  // ASCII letters only, as SQLite's lower
    #expect(throws: GymError.self) {
      try MuscleMap.parse("version: 1\nexercises:\n  curl: {secondary: [biceps]}\n", file: "m.yaml")
    }
    #expect(throws: GymError.self) { try MuscleMap.parse("exercises: {}\n", file: "m.yaml") }
    let shipped = try MuscleMap.parse(MuscleMapText.shipped, file: "Config/muscles.yaml")
    #expect(shipped.count >= 80)
  }
}

extension TrainingTests {
  /// The muscle map's key and the SQL key the stored aliases use agree for every run of spaces and
  /// tabs (SQL's chain of replacements leaves 2 spaces of a run of 11, so must Swift's), case and
  /// trimming. SQLite computes the reference here.
  @Test func theSwiftKeyIsTheSQLKey() throws {
    let names =
      (1...40).flatMap { n in
        ["Bench" + String(repeating: " ", count: n) + "Press", String(repeating: " ", count: n) + "SQUAT\t(Bar)"]
      } + ["Déadlift  ÉZ", "\t\tRow\t", "Curl \u{301} Bar", ""]
    // By hand: 11 spaces lose 4 → 1 twice (11 = 4 + 4 + 3 → 1 + 1 + 3 = 5), then 2 → 1 (5 → 3), then
    // 2 → 1 again (3 → 2): two spaces stay. Tabs are spaces first; only spaces are trimmed.
    #expect(MuscleMap.key("Bench" + String(repeating: " ", count: 11) + "Press") == "bench  press")
    #expect(MuscleMap.key("Bench" + String(repeating: " ", count: 4) + "Press") == "bench press")
    #expect(MuscleMap.key("  SQUAT\t(Bar)") == "squat (bar)")
    #expect(MuscleMap.key("Déadlift ÉZ") == "déadlift Éz")  // ASCII letters only, as SQLite's lower()
    let queue = try DatabaseQueue()
    for name in names {
      let sql = try queue.read { try String.fetchOne($0, sql: "SELECT \(ExerciseKey.sql("?"))", arguments: [name]) }
      #expect(MuscleMap.key(name) == sql, "\(name.debugDescription)")
    }
  }

  /// A user's muscles.yaml is held to gym.yaml's limits: aliases, size, nesting, and a version read
  /// as text.
  @Test func aUsersMuscleMapHasTheConfigurationsLimits() throws {
    func refusal(_ text: String) -> String? {
      do {
        _ = try MuscleMap.parse(text, file: "muscles.yaml")
        return nil
      } catch {
        return "\(error)"
      }
    }
    func aliased(_ count: Int) -> String {
      "version: 1\nshared: &groups {primary: [chest]}\nexercises:\n"
        + (1...count).map { "  Lift \($0): *groups\n" }.joined()
    }
    let entries = (1...17).map { "  Lift \($0): *groups\n" }.joined()
    let aliased17 = "version: 1\nshared: &groups {primary: [chest]}\nexercises:\n" + entries
    #expect(throws: GymError.self) { try MuscleMap.parse(aliased17, file: "muscles.yaml") }
    // 16 aliases are a map; the 17th (line 3 + 17 = 20) is one too many.
    #expect(refusal(aliased(YAMLLimits.maximumAliases)) == nil)
    #expect(refusal(aliased17)?.contains("muscles.yaml:20: the file uses more than 16 aliases") == true)
    // Over 64 KiB of entries that are each a valid map entry: refused for its size alone.
    let big = "version: 1\nexercises:\n" + (1...2500).map { "  Lift number \($0): {primary: [chest]}\n" }.joined()
    #expect(big.utf8.count > YAMLLimits.maximumBytes)
    #expect(throws: GymError.self) { try MuscleMap.parse(big, file: "muscles.yaml") }
    #expect(refusal(big)?.contains("bytes; a configuration is at most 65536") == true)
    #expect(refusal(String(big.prefix(60_000)).components(separatedBy: "\n").dropLast().joined(separator: "\n")) == nil)
    #expect(throws: GymError.self) {
      try MuscleMap.parse("version: 1:30\nexercises:\n  Row: {primary: [back]}\n", file: "muscles.yaml")
    }
    // A base-60 number past Int64 (make fuzz's find for gym.yaml), as the version or anywhere: read as
    // text, never converted, so refused or kept as a name, never a trap.
    #expect(
      refusal("version: 7990071992547409932:758\nexercises:\n  Row: {primary: [back]}\n")?
        .contains("'version: 1' is missing") == true)
    #expect(refusal("version: 1\nexercises:\n  Row: {primary: [7990071992547409932:758]}\n") == nil)
    let fine = try MuscleMap.parse("version: 1\nexercises:\n  Row: {primary: [back]}\n", file: "muscles.yaml")
    #expect(fine["row"]?.primary == ["back"])
  }
}

extension Optional {
  fileprivate func unwrap() throws -> Wrapped {
    guard let self else { throw CancellationError() }
    return self
  }
}
