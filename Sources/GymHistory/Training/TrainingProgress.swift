import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// One exercise per local week (Monday first) or month: its best e1RM, its top set (the heaviest
/// weight, with the most reps done at it), working sets, reps and volume. Periods without a working
/// set are not listed. Definitions: Docs/History/Training.md.
enum TrainingProgress {
  enum Period: String, CaseIterable, ExpressibleByArgument, Sendable {
    case week, month

    /// The period of a UTC timestamp expression, in local time: `2026-01-05` (its Monday) or `2026-01`.
    func sql(_ at: String) -> String {
      switch self {
      case .week: "date(\(at), 'localtime', 'weekday 0', '-6 days')"
      case .month: "strftime('%Y-%m', \(at), 'localtime')"
      }
    }
  }

  static let columns = ["period", "bestE1RM", "topKg", "topReps", "sets", "reps", "volumeKg"]

  static func fetch(_ db: Database, exercise: String, by period: Period, since: Timestamp?, formula: OneRepMax) throws
    -> [[Cell]]
  {
    // The exercise's sets through the key index: one range per spelling's key.
    let keys = Array(Set(try ExerciseAliases.spellings(db, of: exercise).map(\.rawKey)))
    guard !keys.isEmpty else { return [] }
    let rows = try Row.fetchAll(
      db,
      sql: """
        WITH s AS (
          SELECT \(period.sql("wo.completedAt")) AS period, ws.weightKg AS w, ws.reps AS r,
            ROW_NUMBER() OVER (
              PARTITION BY \(period.sql("wo.completedAt")) ORDER BY coalesce(ws.weightKg, 0) DESC, ws.reps DESC) AS rank
          FROM workout_set ws JOIN workout wo ON wo.seq = ws.workoutSeq
          WHERE \(ExerciseKey.sql("ws.exercise")) IN (\(keys.map { _ in "?" }.joined(separator: ", ")))
            AND ws.kind <> 'warmup' AND (? IS NULL OR wo.completedAt >= ?)
        )
        SELECT period, ROUND(MAX(\(formula.sql(weight: "w", reps: "r"))), 1),
          MAX(CASE WHEN rank = 1 AND w > 0 THEN w END), MAX(CASE WHEN rank = 1 AND w > 0 THEN r END), COUNT(*),
          SUM(r), ROUND(SUM(CASE WHEN w > 0 AND r > 0 THEN w * r END), 1)
        FROM s GROUP BY period ORDER BY period
        """, arguments: StatementArguments(keys + [since?.canonical, since?.canonical]))
    return rows.map { row in
      [
        .text(row[0]), (row[1] as Double?).map(Cell.real) ?? .null, (row[2] as Double?).map(Cell.real) ?? .null,
        (row[3] as Int64?).map(Cell.integer) ?? .null, .integer(row[4]), (row[5] as Int64?).map(Cell.integer) ?? .null,
        (row[6] as Double?).map(Cell.real) ?? .null,
      ]
    }
  }
}
