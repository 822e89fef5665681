import GymCore

/// The history module's schema changes after its first release, one of each kind, each for a
/// need users have.
enum WorkoutEvolution {
  static let migrations = [notes, setDuration, sportFocus, unknownValues, SampleSchema.everyType]

  /// Strong's "Workout Notes" and Hevy's "description" were dropped on import: a nullable column
  /// keeps them (existing workouts get NULL, nothing else changes).
  static let notes = Migration(
    "history/004-workout-notes", .additive, touches: ["workout"],
    sql: "ALTER TABLE workout ADD COLUMN notes TEXT")

  /// `seconds` in `history show` read as rest time as often as set duration; it is the duration,
  /// named as the workout's `durationMinutes` is.
  static let setDuration = Migration(
    "history/005-set-duration-seconds", .rename, touches: ["workout_set"],
    sql: "ALTER TABLE workout_set RENAME COLUMN seconds TO durationSeconds")

  /// A football match or a tennis game is not a full-body gym session: `sport` joins the focus
  /// values. SQLite cannot change a CHECK in place, so `workout` is rebuilt (the 12-step way:
  /// foreign keys are off while the runner applies it, `workout_set` keeps pointing at the same
  /// `seq` values, the indexes are recreated) and Apple Health's sport workouts, imported as
  /// fullBody until now, move to `sport`. The titles are those Apple Health's sport workouts were
  /// imported with before (as `HealthKitMapping` wrote them), frozen with the migration, and written
  /// out rather than interpolated: the SQL is a literal, like every released migration's.
  static let sportFocus = Migration(
    "history/006-workout-focus-sport", .rebuild, touches: ["workout"],
    sql: """
      CREATE TABLE workout_new (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        completedAt TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('completed', 'skipped')),
        planTitle TEXT NOT NULL,
        focus TEXT NOT NULL CHECK (focus IN ('fullBody', 'upper', 'lower', 'push', 'pull', 'legs', 'core', 'cardio', 'mobility', 'sport')),
        durationMinutes INTEGER NOT NULL CHECK (durationMinutes >= 0),
        intensity TEXT NOT NULL CHECK (intensity IN ('low', 'moderate', 'high')),
        notes TEXT
      );
      INSERT INTO workout_new (seq, id, completedAt, status, planTitle, focus, durationMinutes, intensity, notes)
        SELECT seq, id, completedAt, status, planTitle,
          CASE WHEN focus = 'fullBody' AND planTitle IN (\
      'American Football', 'Australian Football', 'Badminton', 'Baseball', 'Basketball', \
      'Cricket', 'Curling', 'Fencing', 'Golf', 'Handball', 'Hockey', 'Lacrosse', 'Pickleball', \
      'Racquetball', 'Rugby', 'Soccer', 'Softball', 'Squash', 'Table Tennis', 'Tennis', \
      'Volleyball', 'Water Polo', 'Wrestling', 'Martial Arts', 'Climbing', 'Archery', 'Bowling', \
      'Equestrian', 'Fishing', 'Hunting', 'Sailing', 'Surfing Sports', 'Water Sports', \
      'Disc Sports', 'Fitness Gaming', 'Play') THEN 'sport' ELSE focus END,
          durationMinutes, intensity, notes
        FROM workout;
      DROP TABLE workout;
      ALTER TABLE workout_new RENAME TO workout;
      CREATE UNIQUE INDEX workout_id ON workout(id);
      CREATE INDEX workout_completedAt ON workout(completedAt);
      CREATE INDEX workout_status ON workout(status);
      CREATE INDEX workout_status_completedAt ON workout(status, completedAt);
      """)

  /// What a source does not say is unknown, not a default that looks real: focus, intensity and
  /// duration become nullable (a Strong export of 2016 has no duration, none of Strong, Hevy or
  /// Apple Health has an intensity), the duration keeps its fraction (a paused 28.81-minute run is
  /// not 28), and a workout keeps the distance and active energy its source totalled. Existing
  /// values stay as they are; the table is rebuilt as in history/006.
  static let unknownValues = Migration(
    "history/007-workout-unknown-values-and-totals", .rebuild, touches: ["workout"],
    sql: """
      CREATE TABLE workout_new (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        completedAt TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('completed', 'skipped')),
        planTitle TEXT NOT NULL,
        focus TEXT CHECK (focus IN ('fullBody', 'upper', 'lower', 'push', 'pull', 'legs', 'core', 'cardio', 'mobility', 'sport')),
        durationMinutes REAL CHECK (durationMinutes >= 0),
        intensity TEXT CHECK (intensity IN ('low', 'moderate', 'high')),
        notes TEXT,
        distanceKm REAL CHECK (distanceKm >= 0),
        activeEnergyKcal REAL CHECK (activeEnergyKcal >= 0)
      );
      INSERT INTO workout_new (seq, id, completedAt, status, planTitle, focus, durationMinutes, intensity, notes)
        SELECT seq, id, completedAt, status, planTitle, focus, durationMinutes, intensity, notes FROM workout;
      DROP TABLE workout;
      ALTER TABLE workout_new RENAME TO workout;
      CREATE UNIQUE INDEX workout_id ON workout(id);
      CREATE INDEX workout_completedAt ON workout(completedAt);
      CREATE INDEX workout_status ON workout(status);
      CREATE INDEX workout_status_completedAt ON workout(status, completedAt);
      """)
}
