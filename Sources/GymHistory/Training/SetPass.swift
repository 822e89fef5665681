import GRDB
import GRDBSQLite
import GymCore

/// The sets of some exercises in time order — the workouts by `workout_completedAt`, each one's sets
/// by `workout_set_position`, so nothing is sorted — each read as numbers: which spelling, whether a
/// warm-up, weight (0 when none), reps, and the workout's `seq`. What the training figures that look
/// at every set (records, volume) are computed from.
struct SetPass {
  struct Set {
    var spelling: Int
    var isWarmup: Bool
    var weight: Double
    var reps: Int64?
    var workout: Int64
  }

  /// `spellings`: the exercise names to read, as the sets write them; `Set.spelling` is an index here.
  static func run(
    _ db: Database, spellings: [String], since: Timestamp?, _ body: (Set) throws -> Void
  ) throws {
    guard !spellings.isEmpty else { return }
    let marks = spellings.map { _ in "?" }.joined(separator: ", ")
    let cases = spellings.indices.map { "WHEN ? THEN \($0)" }.joined(separator: " ")
    let statement = try db.makeStatement(
      sql: """
        SELECT CASE ws.exercise \(cases) END, ws.kind = 'warmup', ws.weightKg, ws.reps, wo.seq
        FROM workout wo CROSS JOIN workout_set ws ON ws.workoutSeq = wo.seq
        WHERE ws.exercise IN (\(marks)) AND (? IS NULL OR wo.completedAt >= ?)
        ORDER BY wo.completedAt, wo.seq, ws.position
        """)
    let names = spellings.map(\.databaseValue)
    try statement.setArguments(StatementArguments(names + names + [since?.canonical, since?.canonical]))
    let raw = statement.sqliteStatement
    while true {
      let code = sqlite3_step(raw)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else {
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
      }
      try body(
        Set(
          spelling: Int(sqlite3_column_int(raw, 0)), isWarmup: sqlite3_column_int(raw, 1) != 0,
          weight: sqlite3_column_type(raw, 2) == SQLITE_NULL ? 0 : sqlite3_column_double(raw, 2),
          reps: sqlite3_column_type(raw, 3) == SQLITE_NULL ? nil : sqlite3_column_int64(raw, 3),
          workout: sqlite3_column_int64(raw, 4)))
    }
  }
}
