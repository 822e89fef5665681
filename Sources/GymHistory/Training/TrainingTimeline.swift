import GRDB
import GymCore

extension TrainingRecords {
  /// Each time a record was set or broken, oldest first within each exercise and kind: a workout
  /// whose best beats the best of every workout before it (the first workout sets it). One row per
  /// workout and kind: two sets that beat the old best in one session are one record, the better.
  /// The most reps at each weight are not followed over time. Definitions: Docs/History/Training.md.
  static func timeline(
    _ db: Database, exercise: String?, since: Timestamp?, until: Timestamp?, formula: OneRepMax
  ) throws -> [Record] {
    let spellings = try ExerciseAliases.spellings(db, of: exercise)
    guard !spellings.isEmpty else { return [] }
    let clock = try WorkoutClock(db, since: since, until: until)
    // Per exercise, the latest spelling's name and one tally per workout.
    var names: [String: (name: String, latest: (Int, Int))] = [:]
    var sessions: [String: [Int64: Tally]] = [:]
    var ranks: [Int64: Int] = [:]
    var order = 0
    let positions = try SetPositions(db)
    try SetPass.run(db, spellings: spellings.map(\.spelled)) { set in
      order += 1
      guard !set.isWarmup, let rank = clock.rank(set.workout) else { return }
      let spelling = spellings[set.spelling]
      if names[spelling.key].map({ (rank, order) > $0.latest }) ?? true {
        names[spelling.key] = (spelling.name, (rank, order))
      }
      ranks[set.workout] = rank
      let tally =
        sessions[spelling.key, default: [:]][set.workout]
        ?? Tally(key: spelling.key, name: spelling.name, positions: positions)
      sessions[spelling.key, default: [:]][set.workout] = tally
      try tally.add(set, rank: rank, order: order, formula: formula, perWeight: false)
    }
    var records: [Record] = []
    for (key, byWorkout) in sessions.sorted(by: { $0.key < $1.key }) {
      let workouts = byWorkout.sorted { ranks[$0.key]! < ranks[$1.key]! }.map(\.value)
      for tally in workouts { try tally.endSessions() }
      // An exercise is ranked by weight when any of its sets had one, as its records are.
      let weighted = workouts.contains(where: \.weighted)
      let kinds = weighted ? ["heaviest", "e1RM", "setVolume", "sessionVolume"] : ["mostReps"]
      for kind in kinds {
        var best: Best?
        for tally in workouts {
          guard let candidate = tally.kinds.first(where: { $0.0 == kind })?.1 ?? nil,
            beats(candidate, best, byReps: kind == "heaviest")
          else { continue }
          best = candidate
          records.append(Record(key: key, name: names[key]!.name, kind: kind, best: candidate))
        }
      }
    }
    return records
  }

  /// Whether a workout's best beats the best before it: a higher value, or for the heaviest set the
  /// same weight lifted more times, as `prs` ranks them.
  static func beats(_ candidate: Best, _ best: Best?, byReps: Bool) -> Bool {
    guard let best else { return true }
    if candidate.value != best.value { return candidate.value > best.value }
    return byReps && (candidate.reps ?? 0) > (best.reps ?? 0)
  }
}
