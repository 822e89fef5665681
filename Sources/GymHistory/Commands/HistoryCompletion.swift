import GymCLI

/// What the shell completes for history commands, from the database.
enum HistoryCompletion {
  /// Workout ids: the newest first while nothing is typed, else those starting with what is typed
  /// (each an index walk: `workout_completedAt`, `workout_id`).
  @Sendable static func workoutIDs(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    DynamicCompletion.values(
      words,
      sql: prefix.isEmpty
        ? "SELECT id FROM workout WHERE ?1 = '' ORDER BY completedAt DESC LIMIT ?2"
        : "SELECT id FROM workout WHERE \(DynamicCompletion.prefixRange("id")) ORDER BY id LIMIT ?2",
      prefix: prefix.lowercased())
  }

  /// The sample types held: a skip scan of `sample_key` (type first), one seek per type, so a
  /// database of millions of samples answers as fast as an empty one.
  @Sendable static func sampleTypes(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    DynamicCompletion.values(
      words,
      sql: """
        WITH RECURSIVE held(type) AS (
          SELECT (SELECT MIN(type) FROM sample WHERE type >= ?1)
          UNION ALL SELECT (SELECT MIN(type) FROM sample WHERE type > held.type) FROM held
          WHERE held.type IS NOT NULL AND held.type < ?1 || char(1114111)
          LIMIT ?2 + 1
        )
        SELECT type FROM held WHERE type IS NOT NULL AND \(DynamicCompletion.prefixRange("type"))
        """, prefix: prefix)
  }
}
