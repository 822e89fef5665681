import GRDB
import GymCore

/// The sets of a workout imported from a workout logger (Strong, Hevy): deleted with their workout.
public enum WorkoutSetSchema {
  public static let kinds = ["normal", "warmup", "dropset", "failure"]

  public static let table = TableSchema(
    name: "workout_set",
    fields: [
      Field("workoutSeq", .integer),
      Field("position", .integer),
      Field("exercise", .text),
      Field("kind", .enumeration(kinds)),
      Field("weightKg", .real, nullable: true, bounds: PlausibleRange.kilograms),
      Field("reps", .integer, nullable: true, bounds: PlausibleRange.reps),
      Field("distanceKm", .real, nullable: true, bounds: PlausibleRange.kilometres),
      Field("durationSeconds", .real, nullable: true, bounds: PlausibleRange.seconds),
      Field("rpe", .real, nullable: true, bounds: PlausibleRange.rpe),
      Field("notes", .text, nullable: true),
    ],
    indexes: [IndexSchema("workout_set_position", on: ["workoutSeq", "position"], unique: true)],
    defaultSort: [SortKey("workoutSeq"), SortKey("position")])

  /// The upsert clause every set import ends with: a set at a position that exists changes in place
  /// where a value differs, and an unchanged one is not written.
  static let updateChanged = """
    ON CONFLICT(workoutSeq, position) DO UPDATE SET exercise = excluded.exercise, kind = excluded.kind,
      weightKg = excluded.weightKg, reps = excluded.reps, distanceKm = excluded.distanceKm,
      durationSeconds = excluded.durationSeconds, rpe = excluded.rpe, notes = excluded.notes
    WHERE (workout_set.exercise, workout_set.kind, workout_set.weightKg, workout_set.reps, workout_set.distanceKm,
           workout_set.durationSeconds, workout_set.rpe, workout_set.notes)
      IS NOT (excluded.exercise, excluded.kind, excluded.weightKg, excluded.reps, excluded.distanceKm,
           excluded.durationSeconds, excluded.rpe, excluded.notes)
    """

  static let migrations = [
    // References the workout's rowid, which no bulk load ever drops an index for.
    Migration(
      "history/003-workout-sets", .additive,
      sql: """
        CREATE TABLE workout_set (
          seq INTEGER PRIMARY KEY,
          workoutSeq INTEGER NOT NULL REFERENCES workout(seq) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          exercise TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('normal', 'warmup', 'dropset', 'failure')),
          weightKg REAL,
          reps INTEGER,
          distanceKm REAL,
          seconds REAL,
          rpe REAL,
          notes TEXT
        );
        CREATE UNIQUE INDEX workout_set_position ON workout_set(workoutSeq, position);
        """)
  ]
}
