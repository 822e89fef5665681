import GymCore

/// What the training commands read: every set with its exercise's key, and the exercises list.
enum TrainingSchema {
  /// `history/009`: the index every training query walks, and the exercises list as a view (a list
  /// like the others: `--where`, `--sort`, `--fields`, cursors), best e1RM by Epley.
  static let migration = Migration(
    "history/009-exercise-key-and-exercises", .additive, touches: ["workout_set"],
    sql: """
      CREATE INDEX workout_set_exercise_key ON workout_set(
        lower(trim(replace(replace(replace(replace(exercise, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' '))),
        weightKg);
      CREATE VIEW training_exercises AS
      WITH s AS (
        SELECT lower(trim(replace(replace(replace(replace(ws.exercise, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
            AS exerciseKey,
          ws.seq AS seq, ws.exercise AS exercise, ws.kind AS kind, ws.weightKg AS w, ws.reps AS r,
          ws.workoutSeq AS session, wo.completedAt AS at
        FROM workout_set ws JOIN workout wo ON wo.seq = ws.workoutSeq
      ),
      -- The latest spelling names the exercise: the one bare column beside a single MAX.
      names AS (SELECT exerciseKey, exercise, MAX(at) FROM s GROUP BY exerciseKey),
      totals AS (
        SELECT exerciseKey, MIN(seq) AS id, COUNT(*) AS sets, COUNT(DISTINCT session) AS sessions, MIN(at) AS first,
          MAX(at) AS last,
          ROUND(MAX(CASE WHEN kind <> 'warmup' AND w > 0 AND r BETWEEN 1 AND 12 AND exerciseKey NOT LIKE '%assisted%'
            THEN CASE WHEN r = 1 THEN w ELSE w * (1 + r / 30.0) END END), 1) AS bestE1RM,
          MAX(CASE WHEN kind <> 'warmup' AND w > 0 AND exerciseKey NOT LIKE '%assisted%' THEN w END) AS heaviestKg
        FROM s GROUP BY exerciseKey
      )
      SELECT totals.id AS id, names.exercise AS exercise, sets, sessions, first, last, bestE1RM, heaviestKg
      FROM totals JOIN names ON names.exerciseKey = totals.exerciseKey;
      """)

  /// `history/012`: the key index of `history/009` goes. Every training query now finds an exercise's
  /// spellings by a skip scan of `workout_set_exercise` (`history/011`) and keys each spelling once, so
  /// nothing reads it, and it cost every imported set a key expression and an index insert.
  static let dropKeyIndex = Migration(
    "history/012-drop-exercise-key-index", .additive, touches: ["workout_set"],
    sql: "DROP INDEX IF EXISTS workout_set_exercise_key;")

  /// The exercises list: one row per exercise, named by its latest spelling.
  static let exercises = TableSchema(
    name: "training_exercises",
    fields: [
      Field("exercise", .text), Field("sets", .integer), Field("sessions", .integer), Field("first", .timestamp),
      Field("last", .timestamp), Field("bestE1RM", .real, nullable: true), Field("heaviestKg", .real, nullable: true),
    ],
    indexes: [], defaultSort: [SortKey("last", descending: true)], rowKey: "id")
}
