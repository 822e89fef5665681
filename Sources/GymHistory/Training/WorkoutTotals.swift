import GRDB
import GymCLI
import GymCore

/// One workout's totals and the records its sets set, as `history show` prints them under the sets:
/// working sets only (warm-ups never count), volume as weight × reps, and each record kind
/// (`prs --timeline`) whose set or session is in this workout.
struct WorkoutTotals {
  var sets = 0
  var workingSets = 0
  var reps: Int64 = 0
  var volumeKg = 0.0
  var exercises = 0
  /// Per set position, the record kinds it set; the session records, by exercise.
  var setRecords: [Int64: [String]] = [:]
  var sessionRecords: [String] = []

  static let columns = ["sets", "workingSets", "reps", "volumeKg", "exercises"]
  /// The same beside a workout's own fields in csv (`sets` there would read as the sets themselves),
  /// with every record: the sets' as `position kind`, then the session's.
  static let flatColumns = ["totalSets", "workingSets", "totalReps", "totalVolumeKg", "exercises", "records"]
  /// What `show` prints that an import skips: worked out from the sets, not stored.
  static let derived = ["totals", "records"] + flatColumns

  /// The totals as `flatColumns`: the five figures, then every record (null when none).
  var cells: [Cell] {
    let all =
      setRecords.sorted { $0.key < $1.key }.flatMap { position, kinds in kinds.map { "set \(position) \($0)" } }
      + sessionRecords
    return [
      .integer(Int64(sets)), .integer(Int64(workingSets)), .integer(reps), .real(volumeKg), .integer(Int64(exercises)),
      all.isEmpty ? .null : .text(all.joined(separator: ", ")),
    ]
  }

  /// The `totals` member of `show`'s json.
  var json: JSONValue {
    [
      "sets": .integer(sets), "workingSets": .integer(workingSets), "reps": .cell(.integer(reps)),
      "volumeKg": .number(volumeKg), "exercises": .integer(exercises),
      "sessionRecords": .array(sessionRecords.map { .text($0) }),
    ]
  }

  /// The record kinds a set (as `HistoryShow.setFields` reads it) set.
  func records(ofSet set: [Cell]) -> [String] { set[0].integerValue.flatMap { setRecords[$0] } ?? [] }

  /// `sets`: the workout's sets as `HistoryShow.setFields` reads them (position, exercise, kind,
  /// weightKg, reps, …); `workout`: its `seq`.
  static func compute(_ db: Database, workout: Int64, sets: [[Cell]]) throws -> WorkoutTotals {
    var totals = WorkoutTotals()
    // Each spelling's exercise through the aliases (`exercises rename`, `merge`): its key and the
    // name it goes by, so two spellings merged into one are one exercise here as in `prs`.
    var exercises: [String: (key: String, name: String)] = [:]
    for spelling in try ExerciseAliases.spellings(db) { exercises[spelling.spelled] = (spelling.key, spelling.name) }
    func exercise(_ spelled: String) -> (key: String, name: String) {
      exercises[spelled] ?? (ExerciseKey.swift(spelled), spelled)
    }
    var names: [String: String] = [:]  // key → the name it goes by
    for set in sets {
      totals.sets += 1
      guard case .text(let spelled) = set[1], case .text(let kind) = set[2] else { continue }
      let (key, name) = exercise(spelled)
      names[key] = names[key] ?? name
      guard kind != "warmup" else { continue }
      totals.workingSets += 1
      let reps = set[4].integerValue ?? 0
      totals.reps += max(reps, 0)
      if let weight = set[3].numberValue, weight > 0, reps > 0 { totals.volumeKg += weight * Double(reps) }
    }
    totals.exercises = names.count
    for (key, name) in names.sorted(by: { $0.key < $1.key }) {
      let records = try TrainingRecords.timeline(db, exercise: name, since: nil, until: nil, formula: .epley)
      for record in records where record.best.workout == workout {
        guard record.kind != "sessionVolume" else {
          totals.sessionRecords.append("\(name) sessionVolume")
          continue
        }
        // The first working set of this exercise with the record's weight and reps.
        let position = sets.first { set in
          guard case .text(let spelled) = set[1], case .text(let kind) = set[2] else { return false }
          return exercise(spelled).key == key && kind != "warmup"
            && set[3].numberValue == record.best.weight && set[4].integerValue == record.best.reps
        }?[0].integerValue
        if let position { totals.setRecords[position, default: []].append(record.kind) }
      }
    }
    return totals
  }
}
