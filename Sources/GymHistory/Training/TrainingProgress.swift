import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// One exercise per local week (Monday first) or month: its best e1RM, its top set (the heaviest
/// weight, with the most reps done at it), working sets, reps and volume. Periods without a working
/// set are not listed. Definitions: Docs/History/Training.md.
enum TrainingProgress {
  static let columns = ["period", "bestE1RM", "topKg", "topReps", "sets", "reps", "volumeKg"]

  static func fetch(
    _ db: Database, exercise: String, by period: WorkoutClock.Period, since: Timestamp?, until: Timestamp? = nil,
    formula: OneRepMax
  ) throws
    -> [[Cell]]
  {
    let spellings = try ExerciseAliases.spellings(db, of: exercise).map(\.spelled)
    guard !spellings.isEmpty else { return [] }
    var clock = try WorkoutClock(db, since: since, until: until, period: period)
    struct Totals {
      var best: Double?
      var top: (weight: Double, reps: Int64)?
      var sets = 0
      var reps: Int64 = 0
      var volume = 0.0
      var weighted = false
    }
    var totals: [Int64: Totals] = [:]
    try SetPass.run(db, spellings: spellings) { set in
      guard !set.isWarmup, let rank = clock.rank(set.workout) else { return }
      let key = clock.periodKey(rank: rank)
      var total = totals[key] ?? Totals()
      total.sets += 1
      total.reps += set.reps ?? 0
      if set.weight > 0 {
        let reps = set.reps ?? 0
        total.weighted = true
        if let e1rm = formula.estimate(weight: set.weight, reps: Int(reps)) { total.best = max(total.best ?? 0, e1rm) }
        if total.top.map({ (set.weight, reps) > ($0.weight, $0.reps) }) ?? true { total.top = (set.weight, reps) }
        if reps > 0 { total.volume += set.weight * Double(reps) }
      }
      totals[key] = total
    }
    return totals.keys.sorted().map { key in
      let total = totals[key]!
      return [
        .text(period.name(key)), total.best.map { .real(($0 * 10).rounded() / 10) } ?? .null,
        total.top.map { .real($0.weight) } ?? .null, total.top.map { .integer($0.reps) } ?? .null,
        .integer(Int64(total.sets)), .integer(total.reps),
        total.weighted ? .real((total.volume * 10).rounded() / 10) : .null,
      ]
    }
  }
}
