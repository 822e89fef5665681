import GRDB
import GymCore

/// Workout history: one row per finished or skipped session (seed 000).
public enum WorkoutSchema {
  public static let statuses = ["completed", "skipped"]
  public static let focuses = [
    "fullBody", "upper", "lower", "push", "pull", "legs", "core", "cardio", "mobility", "sport",
  ]
  public static let intensities = ["low", "moderate", "high"]

  public static let table = TableSchema(
    name: "workout",
    fields: [
      Field("id", .uuid, default: .newUUID),
      Field("completedAt", .timestamp),
      Field("status", .enumeration(statuses), default: .value("completed")),
      Field("planTitle", .text),
      Field("focus", .enumeration(focuses), nullable: true),
      Field("durationMinutes", .real, nullable: true, bounds: PlausibleRange.minutes),
      Field("intensity", .enumeration(intensities), nullable: true),
      Field("notes", .text, nullable: true),
      Field("distanceKm", .real, nullable: true, bounds: PlausibleRange.kilometres),
      Field("activeEnergyKcal", .real, nullable: true, bounds: PlausibleRange.kilocalories),
    ],
    indexes: [
      IndexSchema("workout_id", on: ["id"], unique: true),
      IndexSchema("workout_completedAt", on: ["completedAt"]),
      IndexSchema("workout_status", on: ["status"]),
      IndexSchema("workout_status_completedAt", on: ["status", "completedAt"]),
    ],
    defaultSort: [SortKey("completedAt", descending: true)],
    checksFollowFromFields: true
  )

  /// Released migrations: never edit one; add the next (`WorkoutEvolution` holds the later ones).
  static let migrations = [
    // A rowid table with the UUID in its own unique column: random UUID keys as the primary
    // key made bulk loads 2.3× slower (Docs/Architecture.md). `seq` is the stable rowid behind cursors.
    Migration(
      "history/001-workouts", .additive,
      sql: """
        CREATE TABLE workout (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL,
          completedAt TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('completed', 'skipped')),
          planTitle TEXT NOT NULL,
          focus TEXT NOT NULL CHECK (focus IN ('fullBody', 'upper', 'lower', 'push', 'pull', 'legs', 'core', 'cardio', 'mobility')),
          durationMinutes INTEGER NOT NULL CHECK (durationMinutes >= 0),
          intensity TEXT NOT NULL CHECK (intensity IN ('low', 'moderate', 'high'))
        );
        CREATE UNIQUE INDEX workout_id ON workout(id);
        CREATE INDEX workout_completedAt ON workout(completedAt);
        CREATE INDEX workout_status ON workout(status);
        CREATE INDEX workout_status_completedAt ON workout(status, completedAt);
        """)
  ]
}
