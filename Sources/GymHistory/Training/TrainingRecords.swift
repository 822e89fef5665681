import GRDB
import GymCLI
import GymCore

/// Personal records per exercise, from working sets (warm-ups never count): the heaviest weight, the
/// best estimated one-rep max, the best set volume (weight × reps) and the best session volume (the
/// sum over one workout's sets of the exercise); with one exercise named, also the most reps done at
/// each weight. An exercise with no weighted sets (bodyweight) and an assisted one (its weight helps,
/// so heavier is easier) are shown as they are: their most reps in a set, not ranked by weight. Each
/// record is the earliest set that reached it. Definitions: Docs/History/Training.md.
enum TrainingRecords {
  static let columns = ["exercise", "record", "value", "weightKg", "reps", "completedAt", "workout"]

  /// Records in the order they print, each exercise's in this order.
  static let kinds = ["heaviest", "e1RM", "setVolume", "sessionVolume", "mostReps", "mostRepsAt"]

  static func sql(formula: OneRepMax, perWeight: Bool) -> String {
    let e1rm = formula.sql(weight: "w", reps: "r")
    let weighted = "coalesce(w, 0) > 0 AND exerciseKey NOT LIKE '%assisted%'"
    func ranked(
      _ record: String, value: String, weight: String, reps: String, from: String, order: String,
      partition: String = "exerciseKey"
    ) -> String {
      """
      SELECT '\(record)' AS record, exerciseKey, exercise, \(value) AS value, \(weight) AS w, \(reps) AS r, at, workout,
        ROW_NUMBER() OVER (PARTITION BY \(partition) ORDER BY \(order), at, seq) AS n
      FROM \(from)
      """
    }
    var parts = [
      ranked("heaviest", value: "w", weight: "w", reps: "r", from: "s WHERE \(weighted)", order: "w DESC"),
      ranked(
        "e1RM", value: "ROUND(\(e1rm), 1)", weight: "w", reps: "r", from: "s WHERE \(weighted) AND r BETWEEN 1 AND 12",
        order: "\(e1rm) DESC"),
      ranked(
        "setVolume", value: "ROUND(w * r, 1)", weight: "w", reps: "r", from: "s WHERE \(weighted) AND r > 0",
        order: "w * r DESC"),
      ranked(
        "sessionVolume", value: "ROUND(v, 1)", weight: "NULL", reps: "r",
        from: """
          (SELECT exerciseKey, MIN(exercise) AS exercise, SUM(w * r) AS v, SUM(r) AS r, at, workout, MIN(seq) AS seq
           FROM s WHERE \(weighted) AND r > 0 GROUP BY exerciseKey, session)
          """, order: "v DESC"),
      ranked(
        "mostReps", value: "r", weight: "w", reps: "r",
        from:
          "s WHERE r > 0 AND NOT (\(weighted)) AND exerciseKey NOT IN (SELECT exerciseKey FROM s WHERE \(weighted))",
        order: "r DESC"),
    ]
    if perWeight {
      parts.append(
        ranked(
          "mostRepsAt", value: "r", weight: "w", reps: "r", from: "s WHERE \(weighted) AND r > 0", order: "r DESC",
          partition: "exerciseKey, w"))
    }
    return """
      WITH s AS (
        SELECT * FROM (\(ExerciseAliases.setsSQL))
        WHERE kind <> 'warmup' AND (:since IS NULL OR at >= :since)
          AND (:exercise IS NULL OR exerciseKey = \(ExerciseAliases.resolvedKey(":exercise")))
      ),
      -- One name per exercise, its latest spelling: the one bare column beside a single MAX.
      names AS (SELECT exerciseKey, exercise AS name, MAX(at) FROM s GROUP BY exerciseKey),
      ranked AS (
      \(parts.joined(separator: "\nUNION ALL\n"))
      )
      SELECT names.name, record, value, w, r, at, workout FROM ranked JOIN names USING (exerciseKey) WHERE n = 1
      ORDER BY exerciseKey, CASE record \(kinds.enumerated().map { "WHEN '\($0.element)' THEN \($0.offset)" }.joined(separator: " ")) END, w
      """
  }

  /// The records as cells in `columns` order.
  static func fetch(_ db: Database, exercise: String?, since: Timestamp?, formula: OneRepMax) throws -> [[Cell]] {
    let rows = try Row.fetchAll(
      db, sql: sql(formula: formula, perWeight: exercise != nil),
      arguments: ["since": since?.canonical, "exercise": exercise])
    return rows.map { row in
      [
        .text(row[0]), .text(row[1]), (row[2] as Double?).map(Cell.real) ?? .null,
        (row[3] as Double?).map(Cell.real) ?? .null, (row[4] as Int64?).map(Cell.integer) ?? .null,
        .timestamp(row[5]), .text(row[6]),
      ]
    }
  }
}
