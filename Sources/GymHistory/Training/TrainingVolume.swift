import GRDB
import GymCLI
import GymCore

/// Hard sets, reps and tonnage per muscle group per local week or month, from working sets
/// (warm-ups never count) of the exercises the muscle map knows: each primary group gets the set
/// in full, each secondary group half of it (half a set, half its reps and tonnage). Tonnage is
/// weight × reps; an assisted exercise's weight helps rather than loads, so it adds no tonnage.
/// Definitions: Docs/History/Training.md.
enum TrainingVolume {
  static let columns = ["period", "muscle", "sets", "reps", "tonnageKg"]

  static func fetch(
    _ db: Database, by period: WorkoutClock.Period, muscle: String?, since: Timestamp?, until: Timestamp? = nil,
    map: MuscleMap
  ) throws -> [[Cell]] {
    let spellings = try ExerciseAliases.spellings(db).filter { map.groups(key: $0.key, rawKey: $0.rawKey) != nil }
    let groups = spellings.map { map.groups(key: $0.key, rawKey: $0.rawKey)! }
    let assisted = spellings.map { $0.key.contains("assisted") }
    // Periods and muscle groups as small integers, so each set adds into a flat table.
    var clock = try WorkoutClock(db, since: since, until: until, period: period)
    var periodKeys: [Int64] = []
    var periodIndex: [Int64: Int] = [:]
    let periodOfRank = (0..<clock.count).map { rank in
      let key = clock.periodKey(rank: rank)
      if let index = periodIndex[key] { return index }
      periodIndex[key] = periodKeys.count
      periodKeys.append(key)
      return periodKeys.count - 1
    }
    let muscles = Array(Set(groups.flatMap { $0.primary + $0.secondary })).sorted()
    let muscleIndex = Dictionary(uniqueKeysWithValues: muscles.enumerated().map { ($1, $0) })
    let shares = groups.map { worked in
      worked.primary.map { (muscleIndex[$0]!, 1.0) } + worked.secondary.map { (muscleIndex[$0]!, 0.5) }
    }
    var sets = [Double](repeating: 0, count: periodKeys.count * muscles.count)
    var reps = sets
    var tonnage = sets
    var seen = [Bool](repeating: false, count: sets.count)
    // Whether a set of the cell says its reps: with none, its reps and tonnage are unknown, not 0.
    var repsKnown = seen
    try SetPass.run(db, spellings: spellings.map(\.spelled)) { set in
      guard !set.isWarmup, let rank = clock.rank(set.workout) else { return }
      let period = periodOfRank[rank]
      let count = Double(set.reps ?? 0)
      let load = set.weight > 0 && !assisted[set.spelling] ? set.weight * count : 0
      for (muscle, share) in shares[set.spelling] {
        let cell = period * muscles.count + muscle
        sets[cell] += share
        reps[cell] += count * share
        tonnage[cell] += load * share
        seen[cell] = true
        if set.reps != nil { repsKnown[cell] = true }
      }
    }
    let muscleFilter = muscle?.lowercased()
    var rows: [[Cell]] = []
    // Keys sort as their names do (days or months from one origin).
    for period in periodKeys.indices.sorted(by: { periodKeys[$0] < periodKeys[$1] }) {
      let name = clock.period.name(periodKeys[period])
      for muscle in muscles.indices where seen[period * muscles.count + muscle] {
        if let wanted = muscleFilter, muscles[muscle].lowercased() != wanted { continue }
        let cell = period * muscles.count + muscle
        rows.append([
          .text(name), .text(muscles[muscle]), .real(sets[cell]), repsKnown[cell] ? .real(reps[cell]) : .null,
          repsKnown[cell] ? .real((tonnage[cell] * 10).rounded() / 10) : .null,
        ])
      }
    }
    return rows
  }

  /// `gym doctor`: exercises with sets that no muscle group counts, named so they can be mapped.
  static let unmappedCheck = DoctorCheck(name: "exercises") { db in
    let names = try unmapped(db, map: try MuscleMap.load())
    guard !names.isEmpty else { return (true, "every exercise with sets has its muscle groups") }
    let shown = names.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 5 ? ", …" : "")
    return (
      false,
      "\(names.count) exercise\(names.count == 1 ? "" : "s") with sets in no muscle group's volume (\(shown)): "
        + "map them in muscles.yaml ('gym history exercises --unmapped' lists them)"
    )
  }

  /// The exercises the map does not know, by the name they go by.
  static func unmapped(_ db: Database, map: MuscleMap) throws -> [String] {
    Array(
      Set(try ExerciseAliases.spellings(db).filter { map.groups(key: $0.key, rawKey: $0.rawKey) == nil }.map(\.name))
    ).sorted()
  }
}
