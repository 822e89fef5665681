import GRDB
import GymCore

/// `history stats`, computed in SQL: sessions and minutes per local week, the current streak of
/// consecutive days with a completed workout, and the split by focus.
struct WorkoutStats: Sendable, Equatable {
  /// Minutes are the sum of the durations known; nil when sessions were done and none says how
  /// long it took (an import without durations): unknown, not 0.
  struct Week: Sendable, Equatable {
    let week: String
    let sessions: Int
    let minutes: Int?
  }

  struct FocusShare: Sendable, Equatable {
    /// nil for workouts whose focus is unknown (imports that do not say).
    let focus: String?
    let sessions: Int
    let minutes: Int?
  }

  var weeks: [Week]
  var streakDays: Int
  var streakSince: String?
  var byFocus: [FocusShare]

  /// Week starts are Mondays in local time (SQLite's `localtime` follows `TZ`).
  static func compute(_ db: Database, weeks count: Int, now: Timestamp = .now()) throws -> WorkoutStats {
    // Each week's bounds as UTC instants, then one index range per week: no date function runs
    // per workout (per-row `localtime` made this 110 ms on a million workouts).
    let weekRows = try Row.fetchAll(
      db,
      sql: """
        WITH RECURSIVE weeks(week, n) AS (
          SELECT date(?, 'localtime', 'weekday 0', '-6 days'), 1
          UNION ALL SELECT date(week, '-7 days'), n + 1 FROM weeks WHERE n < ?
        ),
        bounds AS (
          SELECT week, strftime('%Y-%m-%dT%H:%M:%fZ', week, 'utc') AS since,
                 strftime('%Y-%m-%dT%H:%M:%fZ', week, '+7 days', 'utc') AS until
          FROM weeks
        )
        SELECT bounds.week, COUNT(workout.seq),
          CASE WHEN COUNT(workout.seq) = 0 THEN 0 ELSE SUM(workout.durationMinutes) END
        FROM bounds LEFT JOIN workout
          ON workout.status = 'completed' AND workout.completedAt >= bounds.since
          AND workout.completedAt < bounds.until
        GROUP BY bounds.week ORDER BY bounds.week DESC
        """,
      arguments: [now.canonical, count])
    let dayStart = "strftime('%Y-%m-%dT%H:%M:%fZ', d, 'utc')"
    let dayEnd = "strftime('%Y-%m-%dT%H:%M:%fZ', d, '+1 day', 'utc')"
    func hasWorkout(_ day: String) -> String {
      """
      EXISTS (SELECT 1 FROM workout WHERE status = 'completed'
              AND completedAt >= \(dayStart.replacingOccurrences(of: "d,", with: "\(day),"))
              AND completedAt < \(dayEnd.replacingOccurrences(of: "d,", with: "\(day),")))
      """
    }
    // Walks back one day at a time from today (or yesterday), one index probe per day.
    let streak = try Row.fetchOne(
      db,
      sql: """
        WITH RECURSIVE streak(day) AS (
          SELECT * FROM (
            SELECT d FROM (SELECT date(?, 'localtime') AS d UNION ALL SELECT date(?, 'localtime', '-1 day'))
            WHERE \(hasWorkout("d")) ORDER BY d DESC LIMIT 1)
          UNION ALL
          SELECT date(day, '-1 day') FROM streak WHERE \(hasWorkout("date(day, '-1 day')"))
        )
        SELECT COUNT(*), MIN(day) FROM streak
        """,
      arguments: [now.canonical, now.canonical])
    let focusRows = try Row.fetchAll(
      db,
      sql: """
        SELECT focus, COUNT(*), SUM(durationMinutes) FROM workout
        WHERE status = 'completed'
          AND completedAt >= strftime('%Y-%m-%dT%H:%M:%fZ', date(?, 'localtime', 'weekday 0', '-6 days', ?), 'utc')
        GROUP BY focus ORDER BY 2 DESC, focus
        """,
      arguments: [now.canonical, "-\((count - 1) * 7) days"])
    return WorkoutStats(
      weeks: try weekRows.map {
        Week(
          week: $0[0], sessions: $0[1],
          minutes: try ($0[2] as Double?).map { try StoredTotal.whole($0, "the minutes of a week") })
      },
      streakDays: streak?[0] ?? 0,
      streakSince: streak?[1],
      byFocus: try focusRows.map {
        FocusShare(
          focus: $0[0], sessions: $0[1],
          minutes: try ($0[2] as Double?).map { try StoredTotal.whole($0, "the minutes of a focus") })
      })
  }
}
