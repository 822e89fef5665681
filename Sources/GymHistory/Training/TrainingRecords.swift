import GRDB
import GymCLI
import GymCore

/// Personal records per exercise, from working sets (warm-ups never count): the heaviest weight, the
/// best estimated one-rep max, the best set volume (weight × reps) and the best session volume (the
/// sum over one workout's sets of the exercise); with one exercise named, also the most reps done at
/// each weight. An exercise with no weighted sets (bodyweight) and an assisted one (its weight helps,
/// so heavier is easier) are shown as they are: their most reps in a set, not ranked by weight. Each
/// record is the earliest set that reached it. Definitions: Docs/History/Training.md.
///
/// One pass over the sets (`SetPass`), each read as four numbers, time order coming from each
/// workout's rank: window functions over the same sets took 1.6 s for 200,000 of them
/// (Docs/History/Training.md, Performance).
enum TrainingRecords {
  static let columns = ["exercise", "record", "value", "weightKg", "reps", "completedAt", "workout"]

  /// A record: its value and the set (or session) that first reached it.
  struct Best {
    var value: Double
    var weight: Double?
    var reps: Int64?
    var workout: Int64
    /// When: the workout's rank in time, then the set's place in the pass.
    var rank = 0
    var order = 0
    /// The set's key (nil for a session's volume): its position in the workout settles a tie in one.
    var set: Int64?
  }

  /// What one exercise has reached so far in the pass.
  final class Tally {
    let key: String
    let assisted: Bool
    var name: String
    /// When the set that named it was done (rank, order).
    var latest = (-1, -1)
    var weighted = false
    var heaviest: Best?
    var e1rm: Best?
    var setVolume: Best?
    var sessionVolume: Best?
    var mostReps: Best?
    var mostRepsAt: [Double: Best] = [:]
    /// Each workout's volume and reps of this exercise so far.
    var sessions: [Int64: (volume: Double, reps: Int64, rank: Int, order: Int)] = [:]

    /// Finds where tied sets of one workout stand in it.
    let positions: SetPositions

    init(key: String, name: String, positions: SetPositions) {
      self.key = key
      self.name = name
      self.positions = positions
      assisted = key.contains("assisted")
    }

    /// The higher value wins; of equal ones (with `byReps`, the one of more reps first: at equal
    /// weight, the heaviest set is the one lifted more times), the earlier: the earlier workout, and
    /// in one workout the set done first (its `position`).
    func keep(_ best: inout Best?, _ candidate: Best, byReps: Bool = false) throws {
      guard let current = best else {
        best = candidate
        return
      }
      guard candidate.value == current.value else {
        if candidate.value > current.value { best = candidate }
        return
      }
      if byReps, candidate.reps ?? 0 != current.reps ?? 0 {
        if candidate.reps ?? 0 > current.reps ?? 0 { best = candidate }
        return
      }
      if candidate.rank != current.rank {
        if candidate.rank < current.rank { best = candidate }
      } else if let set = candidate.set, let held = current.set {
        if try positions.of(set) < positions.of(held) { best = candidate }
      } else if candidate.order < current.order {
        best = candidate
      }
    }

    /// One working set of this exercise, of the workout ranked `rank` in time, `order`th in the pass.
    func add(_ set: SetPass.Set, rank: Int, order: Int, formula: OneRepMax, perWeight: Bool) throws {
      let (weight, reps, workout) = (set.weight, set.reps, set.workout)
      func best(_ value: Double, _ weight: Double?) -> Best {
        Best(value: value, weight: weight, reps: reps, workout: workout, rank: rank, order: order, set: set.seq)
      }
      guard weight > 0, !assisted else {
        if let reps, reps > 0 { try keep(&mostReps, best(Double(reps), weight > 0 ? weight : nil)) }
        return
      }
      weighted = true
      // A set of 0 reps lifted nothing: no heaviest weight (unknown reps still count, shown without "× reps").
      guard reps != 0 else { return }
      try keep(&heaviest, best(weight, weight), byReps: true)
      guard let reps, reps > 0 else { return }
      if let e1rm = formula.estimate(weight: weight, reps: Int(reps)) { try keep(&self.e1rm, best(e1rm, weight)) }
      try keep(&setVolume, best(weight * Double(reps), weight))
      let session = sessions[workout] ?? (0, 0, rank, order)
      sessions[workout] = (session.volume + weight * Double(reps), session.reps + reps, session.rank, session.order)
      if perWeight {
        var most = mostRepsAt[weight]
        try keep(&most, best(Double(reps), weight))
        mostRepsAt[weight] = most
      }
    }

    /// The records this tally holds, in print order: by weight, then the most reps of the sets
    /// without a weight (a pull-up done with and without a belt has both); an exercise without
    /// weighted sets has only the most reps.
    var kinds: [(String, Best?)] {
      weighted
        ? [("heaviest", heaviest), ("e1RM", e1rm), ("setVolume", setVolume), ("sessionVolume", sessionVolume)]
          + (mostReps == nil ? [] : [("mostReps", mostReps)])
        : [("mostReps", mostReps)]
    }

    func endSessions() throws {
      for (workout, session) in sessions where session.volume > 0 {
        try keep(
          &sessionVolume,
          Best(
            value: session.volume, weight: nil, reps: session.reps, workout: workout, rank: session.rank,
            order: session.order))
      }
    }
  }

  /// A record as computed: the exercise's key and name, its kind, and the set that holds it.
  struct Record {
    let key: String
    let name: String
    let kind: String
    let best: Best
  }

  static func fetch(
    _ db: Database, exercise: String?, since: Timestamp?, until: Timestamp? = nil, formula: OneRepMax,
    inPounds: Bool = false
  ) throws -> [[Cell]] {
    try cells(
      of: compute(db, exercise: exercise, since: since, until: until, formula: formula), db, inPounds: inPounds)
  }

  /// Records as rows of `columns`, each with its workout's time and id. A value is rounded to 0.1 kg;
  /// `inPounds`: left whole, for the display to round once in pounds (229.9 lb is not the 230 lb set
  /// that holds the record).
  static func cells(of records: [Record], _ db: Database, inPounds: Bool = false) throws -> [[Cell]] {
    let workouts = Set(records.map(\.best.workout))
    var when: [Int64: (String, String)] = [:]
    for row in try Row.fetchAll(
      db,
      sql:
        "SELECT seq, completedAt, id FROM workout WHERE seq IN (\(workouts.map { _ in "?" }.joined(separator: ", ")))",
      arguments: StatementArguments(workouts.map { $0 }))
    {
      when[row[0]] = (row[1], row[2])
    }
    return records.map { record in
      [
        .text(record.name), .text(record.kind),
        .real(inPounds && !record.kind.hasPrefix("mostReps") ? record.best.value : record.shown),
        record.best.weight.map(Cell.real) ?? .null,
        record.best.reps.map(Cell.integer) ?? .null, .timestamp(when[record.best.workout]?.0 ?? ""),
        .text(when[record.best.workout]?.1 ?? ""),
      ]
    }
  }

  /// Every record, in print order.
  static func compute(
    _ db: Database, exercise: String?, since: Timestamp?, until: Timestamp? = nil, formula: OneRepMax
  ) throws -> [Record] {
    // Each spelling once: its key through the aliases and the name it goes by.
    let spellings = try ExerciseAliases.spellings(db, of: exercise)
    guard !spellings.isEmpty else { return [] }
    var tallies: [String: Tally] = [:]
    let positions = try SetPositions(db)
    let tallyOf = spellings.map { spelling -> Tally in
      if let tally = tallies[spelling.key] { return tally }
      let tally = Tally(key: spelling.key, name: spelling.name, positions: positions)
      tallies[spelling.key] = tally
      return tally
    }
    let perWeight = exercise != nil
    let clock = try WorkoutClock(db, since: since, until: until)
    var order = 0
    try SetPass.run(db, spellings: spellings.map(\.spelled)) { set in
      order += 1
      guard !set.isWarmup, let rank = clock.rank(set.workout) else { return }
      let tally = tallyOf[set.spelling]
      if (rank, order) > tally.latest {  // the latest spelling names it
        tally.latest = (rank, order)
        tally.name = spellings[set.spelling].name
      }
      try tally.add(set, rank: rank, order: order, formula: formula, perWeight: perWeight)
    }
    for tally in tallies.values { try tally.endSessions() }
    var records: [Record] = []
    for tally in tallies.values.sorted(by: { $0.key < $1.key }) {
      for case (let kind, let best?) in tally.kinds {
        records.append(Record(key: tally.key, name: tally.name, kind: kind, best: best))
      }
      for weight in tally.mostRepsAt.keys.sorted() {
        records.append(Record(key: tally.key, name: tally.name, kind: "mostRepsAt", best: tally.mostRepsAt[weight]!))
      }
    }
    return records
  }

  /// The records an import brought: those of exercises gym had before that it now beats (a first
  /// session of a new exercise sets no record). `before` is `compute` from before the import.
  static func brought(since before: [Record], _ db: Database) throws -> [Record] {
    var had: [String: Double] = [:]
    for record in before { had[record.key + "|" + record.kind] = record.shown }
    return try compute(db, exercise: nil, since: nil, formula: .epley).filter { record in
      guard let old = had[record.key + "|" + record.kind] else { return false }
      return record.shown > old
    }
  }

  /// `3 new records: Squat e1RM 142.5 kg, …` (the first five named), or nil when there are none.
  static func summary(_ records: [Record]) -> String? {
    guard !records.isEmpty else { return nil }
    let named = records.prefix(5).map { record in
      record.kind == "mostReps"
        ? "\(record.name) most reps \(Int(record.shown))"
        : "\(record.name) \(record.kind) \(Cell.real(record.shown).plainText(localTime: false)) kg"
    }
    let more = records.count > 5 ? " and \(records.count - 5) more" : ""
    return "\(records.count) new record\(records.count == 1 ? "" : "s"): \(named.joined(separator: ", "))\(more)"
  }
}

extension TrainingRecords.Record {
  /// The value as printed: reps as they are, kilograms to 0.1.
  var shown: Double { kind.hasPrefix("mostReps") ? best.value : (best.value * 10).rounded() / 10 }
}
