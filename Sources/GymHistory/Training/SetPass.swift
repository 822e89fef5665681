import GRDB
import GRDBSQLite
import GymCore

/// The sets of some exercises, read from the covering index `workout_set_exercise` alone, one range per
/// spelling (following the workouts in time order instead jumps between the table's pages when they
/// were not entered in time order: 4× slower on generated data), each read as numbers: which spelling, whether a warm-up, weight (0 when none),
/// reps, and the workout's `seq`. What the training figures that look at every set (records, volume)
/// are computed from; they order by time through `WorkoutClock`.
struct SetPass {
  struct Set {
    var spelling: Int
    var isWarmup: Bool
    var weight: Double
    var reps: Int64?
    var workout: Int64
    /// The set's own key (`seq`), in every index entry: what finds its `position` when two tie.
    var seq: Int64
  }

  /// The sets of one spelling, from the covering index alone.
  static let sql = "SELECT kind = 'warmup', weightKg, reps, workoutSeq, seq FROM workout_set WHERE exercise = ?"

  /// `spellings`: the exercise names to read, as the sets write them; `Set.spelling` is an index here.
  static func run(_ db: Database, spellings: [String], _ body: (Set) throws -> Void) throws {
    let statement = try db.makeStatement(sql: sql)
    let raw = statement.sqliteStatement
    // One index range per spelling: no per-set test of which spelling it is.
    for (index, spelling) in spellings.enumerated() {
      try statement.setArguments([spelling])
      while true {
        let code = sqlite3_step(raw)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else {
          throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
        }
        // A stored value no import would accept (text, 1e300, 2^62 reps) is read as unknown: the
        // sums over it stay numbers, and `gym doctor` names the row.
        let weight = sqlite3_column_type(raw, 1) == SQLITE_NULL ? 0 : sqlite3_column_double(raw, 1)
        let reps = sqlite3_column_type(raw, 2) == SQLITE_NULL ? nil : sqlite3_column_double(raw, 2)
        try body(
          Set(
            spelling: index, isWarmup: sqlite3_column_int(raw, 0) != 0,
            weight: PlausibleRange.kilograms.contains(weight) ? weight : 0,
            reps: reps.flatMap { PlausibleRange.reps.contains($0) ? Int64(exactly: $0.rounded(.down)) : nil },
            workout: sqlite3_column_int64(raw, 3), seq: sqlite3_column_int64(raw, 4)))
      }
      sqlite3_reset(raw)
    }
  }
}

/// Where sets stand in their workout (`position`), looked up only for two that tie for a record in
/// one workout: the pass reads the index in weight order, not in the order they were done.
final class SetPositions {
  private let statement: Statement
  private var known: [Int64: Int64] = [:]

  init(_ db: Database) throws {
    statement = try db.makeStatement(sql: "SELECT position FROM workout_set WHERE seq = ?")
  }

  func of(_ set: Int64) throws -> Int64 {
    if let position = known[set] { return position }
    let position = try Int64.fetchOne(statement, arguments: [set]) ?? .max
    known[set] = position
    return position
  }
}
