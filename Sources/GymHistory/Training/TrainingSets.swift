import GymCore

/// Every set with its workout's id and time: the list `gym history sets` pages through, an
/// exercise's history as the loggers show it (newest first).
enum TrainingSets {
  /// `history/015`: the sets as a view, so the list takes `--where`, `--sort`, `--fields` and
  /// cursors like every other. An exercise is picked by its spellings (the spelling index).
  static let migration = Migration(
    "history/015-training-sets", .additive, touches: ["training_sets"],
    sql: """
      CREATE VIEW training_sets AS
      SELECT ws.seq AS id, wo.id AS workoutId, wo.completedAt AS completedAt, ws.position AS position,
        ws.exercise AS exercise, ws.kind AS kind, ws.weightKg AS weightKg, ws.reps AS reps,
        ws.distanceKm AS distanceKm, ws.durationSeconds AS durationSeconds, ws.rpe AS rpe, ws.notes AS notes
      FROM workout_set ws JOIN workout wo ON wo.seq = ws.workoutSeq;
      """)

  static let table = TableSchema(
    name: "training_sets",
    fields: [
      Field("workoutId", .uuid), Field("completedAt", .timestamp), Field("position", .integer),
      Field("exercise", .text), Field("kind", .enumeration(WorkoutSetSchema.kinds)),
      Field("weightKg", .real, nullable: true), Field("reps", .integer, nullable: true),
      Field("distanceKm", .real, nullable: true), Field("durationSeconds", .real, nullable: true),
      Field("rpe", .real, nullable: true), Field("notes", .text, nullable: true),
    ],
    // A workout's sets together, in their order, when workouts end at the same instant.
    indexes: [],
    defaultSort: [SortKey("completedAt", descending: true), SortKey("workoutId"), SortKey("position")], rowKey: "id")
}
