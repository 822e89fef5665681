import GRDB
import GymCore

/// `history stats`, computed in SQL: sessions and minutes per local week, the current streak of
/// consecutive days with a completed workout, and the split by focus.
struct WorkoutStats: Sendable, Equatable {
  struct Week: Sendable, Equatable {
    let week: String
    let sessions: Int
    let minutes: Int
  }

  struct FocusShare: Sendable, Equatable {
    let focus: String
    let sessions: Int
    let minutes: Int
  }

  var weeks: [Week]
  var streakDays: Int
  var streakSince: String?
  var byFocus: [FocusShare]

  /// Week starts are Mondays in local time (SQLite's `localtime` follows `TZ`).
  static func compute(_ db: Database, weeks count: Int, now: Timestamp = .now()) throws -> WorkoutStats {
    // Anything older than count+1 weeks cannot fall into the listed weeks: bound the index range.
    let lowerBound = now.adding(milliseconds: -Int64(count + 1) * 7 * 86_400_000).canonical
    let weekRows = try Row.fetchAll(
      db,
      sql: """
        WITH RECURSIVE weeks(week, n) AS (
          SELECT date(?, 'localtime', 'weekday 0', '-6 days'), 1
          UNION ALL SELECT date(week, '-7 days'), n + 1 FROM weeks WHERE n < ?
        ),
        totals AS (
          SELECT date(completedAt, 'localtime', 'weekday 0', '-6 days') AS week,
                 COUNT(*) AS sessions, SUM(durationMinutes) AS minutes
          FROM workout WHERE status = 'completed' AND completedAt >= ?
          GROUP BY 1
        )
        SELECT weeks.week, COALESCE(totals.sessions, 0), COALESCE(totals.minutes, 0)
        FROM weeks LEFT JOIN totals USING (week) ORDER BY weeks.week DESC
        """,
      arguments: [now.canonical, count, lowerBound])
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
        WHERE status = 'completed' AND completedAt >= ?
        GROUP BY focus ORDER BY 2 DESC, focus
        """,
      arguments: [lowerBound])
    return WorkoutStats(
      weeks: weekRows.map { Week(week: $0[0], sessions: $0[1], minutes: $0[2]) },
      streakDays: streak?[0] ?? 0,
      streakSince: streak?[1],
      byFocus: focusRows.map { FocusShare(focus: $0[0], sessions: $0[1], minutes: $0[2]) })
  }
}
