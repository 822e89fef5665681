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
    let spellings = try ExerciseAliases.spellings(db, of: exercise).map(\.spelled)
    guard !spellings.isEmpty else { return [] }
    // The period of each workout that has a set of the exercise (found through the spelling index).
    var periodOf: [Int64: String] = [:]
    let marks = spellings.map { _ in "?" }.joined(separator: ", ")
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT seq, \(period.sql("completedAt")) FROM workout
        WHERE seq IN (SELECT workoutSeq FROM workout_set WHERE exercise IN (\(marks)))
          AND (? IS NULL OR completedAt >= ?)
        """, arguments: StatementArguments(spellings.map(\.databaseValue) + [since?.canonical, since?.canonical]))
    {
      periodOf[row[0]] = row[1]
    }
    struct Totals {
      var best: Double?
      var top: (weight: Double, reps: Int64)?
      var sets = 0
      var reps: Int64 = 0
      var volume = 0.0
      var weighted = false
    }
    var totals: [String: Totals] = [:]
    try SetPass.run(db, spellings: spellings) { set in
      guard !set.isWarmup, let name = periodOf[set.workout] else { return }
      var total = totals[name] ?? Totals()
      total.sets += 1
      total.reps += set.reps ?? 0
      if set.weight > 0 {
        let reps = set.reps ?? 0
        total.weighted = true
        if let e1rm = formula.estimate(weight: set.weight, reps: Int(reps)) { total.best = max(total.best ?? 0, e1rm) }
        if total.top.map({ (set.weight, reps) > ($0.weight, $0.reps) }) ?? true { total.top = (set.weight, reps) }
        if reps > 0 { total.volume += set.weight * Double(reps) }
      }
      totals[name] = total
    }
    return totals.keys.sorted().map { name in
      let total = totals[name]!
      return [
        .text(name), total.best.map { .real(($0 * 10).rounded() / 10) } ?? .null,
        total.top.map { .real($0.weight) } ?? .null, total.top.map { .integer($0.reps) } ?? .null,
        .integer(Int64(total.sets)), .integer(total.reps),
        total.weighted ? .real((total.volume * 10).rounded() / 10) : .null,
      ]
    }
  }
}
