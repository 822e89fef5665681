import Foundation
import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymHistory

/// What the training figures count: the sets of completed workouts (a skipped workout's sets are its
/// plan), and no heaviest or top set of 0 reps. Expected values from the definitions
/// (Docs/History/Training.md).
@Suite struct TrainingCountsTests {
  /// Workout 1 (completed, 2026-01-05): bench 100 × 5, then 120 × 0 (a failed attempt).
  /// Workout 2 (skipped, 2026-01-07, the same week): bench 140 × 5, the plan.
  static func store() throws -> Store {
    let store = try HistoryFixtures.store()
    try store.write { db in
      for (seq, date, status) in [(1, "2026-01-05", "completed"), (2, "2026-01-07", "skipped")] {
        try db.execute(
          sql: "INSERT INTO workout (seq, id, completedAt, status, planTitle) VALUES (?, ?, ?, ?, 'Push')",
          arguments: [seq, TrainingTests.id(seq), date + "T18:00:00.000Z", status])
      }
      for (workout, position, weight, reps) in [(1, 1, 100.0, 5), (1, 2, 120, 0), (2, 1, 140, 5)] {
        try db.execute(
          sql:
            "INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps) VALUES (?, ?, 'Bench Press (Barbell)', 'normal', ?, ?)",
          arguments: [workout, position, weight, reps])
      }
    }
    return store
  }

  @Test func recordsCountTheCompletedWorkoutsLiftedSetsOnly() throws {
    let store = try Self.store()
    let rows = try store.read { try TrainingRecords.fetch($0, exercise: nil, since: nil, formula: .epley) }.map {
      cells in [1, 2, 3, 4].map { cells[$0].plainText(localTime: false) }.joined(separator: " ")
    }
    // Only 100 × 5 counts: heaviest 100 (not the skipped 140, not 120 × 0); e1RM 100 × (1 + 5/30) =
    // 116.67 → 116.7; set volume 100 × 5 = 500; session volume 500 (0 reps add nothing).
    #expect(rows == ["heaviest 100 100 5", "e1RM 116.7 100 5", "setVolume 500 100 5", "sessionVolume 500  5"])
  }

  @Test func progressTopSetIsOneThatLifted() throws {
    let store = try Self.store()
    let weeks = try store.read {
      try TrainingProgress.fetch($0, exercise: "Bench Press (Barbell)", by: .week, since: nil, formula: .epley)
    }.map { $0.map { $0.plainText(localTime: false) }.joined(separator: " ") }
    // Week of 2026-01-05: the completed workout's two sets; best e1RM 116.7, top 100 × 5, reps 5 + 0 = 5,
    // volume 100 × 5 + 120 × 0 = 500. The skipped workout's 140 × 5 is not there.
    #expect(weeks == ["2026-01-05 116.7 100 5 2 5 500"])
  }

  /// The `training_exercises` view (`history exercises`): two sets in one session, heaviest 100.
  @Test func theExercisesViewCountsTheCompletedWorkoutsSets() throws {
    let store = try Self.store()
    let row = try store.read {
      try Row.fetchOne($0, sql: "SELECT sets, sessions, bestE1RM, heaviestKg, first, last FROM training_exercises")
    }
    #expect(row?["sets"] == 2)
    #expect(row?["sessions"] == 1)
    #expect(row?["bestE1RM"] == 116.7)
    #expect(row?["heaviestKg"] == 100.0)
    #expect(row?["last"] == "2026-01-05T18:00:00.000Z")
  }

  @Test func volumeCountsTheCompletedWorkoutsSets() throws {
    let store = try Self.store()
    let map = try MuscleMap.load(environment: [:])
    let rows = try store.read { try TrainingVolume.fetch($0, by: .week, muscle: "chest", since: nil, map: map) }
      .map { $0.map { $0.plainText(localTime: false) }.joined(separator: " ") }
    // Bench press works the chest as a primary group: 2 hard sets, 5 + 0 reps, 500 kg of tonnage.
    #expect(rows == ["2026-01-05 chest 2 5 500"])
  }

  /// In pounds `progress` rounds once, as `prs` does: 225 lb (225 × 0.45359237 kg) × 5 has an e1RM of
  /// 225 × (1 + 5/30) = 262.5 lb, a top set of 225 and a volume of 225 × 5 = 1125; rounded to 0.1 kg
  /// first (119.1) it read 262.6.
  @Test func progressInPoundsRoundsOnce() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try db.execute(
        sql:
          "INSERT INTO workout (seq, id, completedAt, status, planTitle) VALUES (1, ?, '2024-02-05T18:00:00.000Z', 'completed', 'Legs')",
        arguments: [TrainingTests.id(1)])
      try db.execute(
        sql:
          "INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps) VALUES (1, 1, 'Squat (Barbell)', 'normal', ?, 5)",
        arguments: [225 * WeightDisplay.kilogramsPerPound])
    }
    let rows = try store.read {
      try TrainingProgress.fetch(
        $0, exercise: "Squat (Barbell)", by: .week, since: nil, formula: .epley, inPounds: true)
    }
    let pounds = WeightDisplay(unit: .lb, columns: ["bestE1RM", "topKg", "volumeKg"])
    let shown = rows.map { pounds.cells($0, names: TrainingProgress.columns).map { $0.plainText(localTime: false) } }
    #expect(shown == [["2024-02-05", "262.5", "225", "5", "1", "5", "1125"]])
  }
}
