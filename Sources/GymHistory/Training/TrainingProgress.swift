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
    formula: OneRepMax, inPounds: Bool = false
  ) throws
    -> [[Cell]]
  {
    let spellings = try ExerciseAliases.spellings(db, of: exercise)
    guard !spellings.isEmpty else { return [] }
    // An assisted exercise's weight helps rather than loads: no e1RM, top weight or volume.
    let assisted = spellings.map { $0.key.contains("assisted") }
    var clock = try WorkoutClock(db, since: since, until: until, period: period)
    struct Totals {
      var best: Double?
      /// The heaviest weight, with the most reps done at it (nil: none of its sets says).
      var top: (weight: Double, reps: Int64?)?
      var sets = 0
      /// The reps of the sets that say theirs: nil when none does (unknown, not 0).
      var reps: Int64?
      /// Weight × reps of the weighted sets that say their reps; nil when none does.
      var volume: Double?
    }
    var totals: [Int64: Totals] = [:]
    try SetPass.run(db, spellings: spellings.map(\.spelled)) { set in
      guard !set.isWarmup, let rank = clock.rank(set.workout) else { return }
      let key = clock.periodKey(rank: rank)
      var total = totals[key] ?? Totals()
      total.sets += 1
      if let reps = set.reps { total.reps = (total.reps ?? 0) + reps }
      if set.weight > 0, !assisted[set.spelling] {
        if let reps = set.reps, let e1rm = formula.estimate(weight: set.weight, reps: Int(reps)) {
          total.best = max(total.best ?? 0, e1rm)
        }
        // At one weight, more reps are the better set; unknown reps are fewer than any. A set of 0
        // reps lifted nothing and is no top set.
        if set.reps != 0, total.top.map({ (set.weight, set.reps ?? -1) > ($0.weight, $0.reps ?? -1) }) ?? true {
          total.top = (set.weight, set.reps)
        }
        if let reps = set.reps { total.volume = (total.volume ?? 0) + set.weight * Double(reps) }
      }
      totals[key] = total
    }
    // To 0.1 kg; in pounds left whole, for the display to round once (225 lb × 7/6 is 262.5 lb, where
    // 119.1 kg converted is 262.6).
    func tenth(_ kilograms: Double) -> Double { inPounds ? kilograms : (kilograms * 10).rounded() / 10 }
    return totals.keys.sorted().map { key in
      let total = totals[key]!
      return [
        .text(period.name(key)), total.best.map { .real(tenth($0)) } ?? .null,
        total.top.map { .real($0.weight) } ?? .null, total.top?.reps.map { .integer($0) } ?? .null,
        .integer(Int64(total.sets)), total.reps.map { .integer($0) } ?? .null,
        total.volume.map { .real(tenth($0)) } ?? .null,
      ]
    }
  }
}
