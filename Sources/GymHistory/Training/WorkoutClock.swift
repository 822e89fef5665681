import ArgumentParser
import GRDB
import GRDBSQLite
import GymCore

/// Each workout's place in time and its local week or month, read once from `workout` in time order
/// (`completedAt`, then `seq`), from `since` on when given: the workouts a training pass counts, and
/// how their sets compare in time. Periods are worked out here rather than by SQLite's `date(…,
/// 'localtime')`, which cost about 1.7 µs a workout (7 ms of the 20,000 in `gym bench`), and only
/// for the workouts asked about.
struct WorkoutClock {
  enum Period: String, CaseIterable, ExpressibleByArgument, Sendable {
    case week, month

    /// A period's key as its name: `2026-01-05` (the Monday of the week) or `2026-01`.
    func name(_ key: Int64) -> String {
      let day: Int64
      switch self {
      case .week: day = key
      case .month:
        let (year, month) = key.floorDivided(by: 12)
        day = Timestamp.days(year: year, month: month + 1, day: 1)
      }
      let name = Timestamp(millisecondsSince1970: day * 86_400_000).canonical
      return String(name.prefix(self == .week ? 10 : 7))
    }
  }

  /// `completedAt` in milliseconds, by rank.
  private var times: [Int64] = []
  /// Rank by `seq`: an array when seqs are dense (as SQLite assigns them), else a dictionary.
  private var denseRanks: [Int32] = []
  private var sparseRanks: [Int64: Int] = [:]
  /// Each rank's local period key, once worked out (`Int64.min` before).
  private var periodKeys: [Int64] = []
  let period: Period

  var count: Int { times.count }

  /// The workouts counted, in time order, along `workout_status_completedAt`: the completed ones. A
  /// skipped workout's sets are what was planned, not lifted, and make no record or volume.
  static let sql = """
    SELECT seq, completedAt FROM workout
    WHERE status = 'completed' AND (?1 IS NULL OR completedAt >= ?1) AND (?2 IS NULL OR completedAt < ?2)
    ORDER BY completedAt, seq
    """
  /// The same for the workouts that have sets, the only ones a set can ask about (`+status`: the status
  /// is checked on each, never an index to scan every completed workout by): read when sets are
  /// fewer than workouts (a watch's years of runs have none). `gym bench`: 1,000,000 workouts without
  /// sets, 223 ms along the index, 0.07 ms this way; its history database (every workout with sets),
  /// 5 ms along the index, 17 ms this way (the seqs gathered from the sets, then sorted by time).
  static let sqlForWorkoutsWithSets = """
    SELECT seq, completedAt FROM workout
    WHERE seq IN (SELECT workoutSeq FROM workout_set) AND +status = 'completed' AND (?1 IS NULL OR completedAt >= ?1)
      AND (?2 IS NULL OR completedAt < ?2)
    ORDER BY completedAt, seq
    """

  init(_ db: Database, since: Timestamp?, until: Timestamp? = nil, period: Period = .week) throws {
    self.period = period
    // Counts of the tables' cells and seeks on indexes: no pass over the rows.
    let sizes = try Row.fetchOne(
      db,
      sql: """
        SELECT (SELECT COUNT(*) FROM workout), (SELECT MIN(seq) FROM workout), (SELECT MAX(seq) FROM workout),
          (SELECT COUNT(*) FROM workout_set), (SELECT MIN(workoutSeq) FROM workout_set),
          (SELECT MAX(workoutSeq) FROM workout_set)
        """)
    let workouts: Int = sizes?[0] ?? 0
    let sets: Int = sizes?[3] ?? 0
    let bySets = sets < workouts
    let total = bySets ? sets : workouts
    let minSeq: Int64 = sizes?[bySets ? 4 : 1] ?? 0
    let maxSeq: Int64 = sizes?[bySets ? 5 : 2] ?? 0
    // An array by seq when seqs are what SQLite assigns (from 1, few gaps); a dictionary for any other.
    let dense = minSeq >= 0 && maxSeq <= Int64(total) * 8 + 65_536
    if dense { denseRanks = [Int32](repeating: -1, count: Int(maxSeq) + 1) }
    times.reserveCapacity(total)
    let statement = try db.makeStatement(sql: bySets ? Self.sqlForWorkoutsWithSets : Self.sql)
    try statement.setArguments([since?.canonical, until?.canonical])
    let raw = statement.sqliteStatement
    while true {
      let code = sqlite3_step(raw)
      if code == SQLITE_DONE { break }
      guard code == SQLITE_ROW else {
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
      }
      let seq = sqlite3_column_int64(raw, 0)
      let length = Int(sqlite3_column_bytes(raw, 1))
      let text = UnsafeBufferPointer(start: sqlite3_column_text(raw, 1), count: length)
      // A completedAt the store did not write reads as the start of time: ranked first, never dropped.
      let at = Timestamp(parsing: text)?.millisecondsSince1970 ?? Int64.min / 2
      let rank = times.count
      times.append(at)
      if dense { denseRanks[Int(seq)] = Int32(rank) } else { sparseRanks[seq] = rank }
    }
    sqlite3_reset(raw)
    periodKeys = [Int64](repeating: Int64.min, count: times.count)
  }

  /// The workout's rank in time, or nil when it is not counted (before `since`).
  func rank(_ seq: Int64) -> Int? {
    if denseRanks.isEmpty { return sparseRanks[seq] }
    guard seq >= 0, seq < denseRanks.count else { return nil }
    let rank = denseRanks[Int(seq)]
    return rank < 0 ? nil : Int(rank)
  }

  /// The local period of the workout at `rank`: the local day of its week's Monday, or year × 12 +
  /// month − 1.
  mutating func periodKey(rank: Int) -> Int64 {
    if periodKeys[rank] != Int64.min { return periodKeys[rank] }
    let day = Timestamp(millisecondsSince1970: times[rank]).localDays
    let key: Int64
    switch period {
    case .week:
      key = Timestamp.monday(ofDay: day)
    case .month:
      let (year, month, _) = Timestamp.civil(fromDays: day)
      key = year * 12 + month - 1
    }
    periodKeys[rank] = key
    return key
  }
}
