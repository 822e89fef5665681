import GRDB
import GymCore

/// `history summary` (seed 002's dashboard): eight bounded, indexed queries in one read
/// transaction, so the figures agree with each other even while an import is writing.
struct HealthSummary: Sendable, Equatable {
  struct Reading: Sendable, Equatable {
    let at: String
    let value: Double
  }

  struct StageMinutes: Sendable, Equatable {
    let stage: String
    let minutes: Double
  }

  var stepsToday: Double
  var latestHeartRate: Reading?
  var heartRateByHour: [SampleBucket]
  var stepsByHour: [SampleBucket]
  var bodyMass: [Reading]
  /// Sleep that started between 18:00 yesterday and 12:00 today, local time.
  var lastNightSleep: [StageMinutes]
  var workoutsThisWeek: Int
  var workoutMinutesThisWeek: Int

  static let hours = 8

  static func compute(_ db: Database, now: Timestamp = .now()) throws -> HealthSummary {
    let todayStart = "strftime('%Y-%m-%dT%H:%M:%fZ', date(:now, 'localtime'), 'utc')"
    let steps =
      try Double.fetchOne(
        db, sql: "SELECT TOTAL(value) FROM sample WHERE type = 'steps' AND start >= \(todayStart)",
        arguments: ["now": now.canonical]) ?? 0
    let latest = try Row.fetchOne(
      db, sql: "SELECT start, value FROM sample WHERE type = 'heartRate' ORDER BY start DESC LIMIT 1")
    let mass = try Row.fetchAll(
      db, sql: "SELECT start, value FROM sample WHERE type = 'bodyMass' ORDER BY start DESC LIMIT 5")
    let sleep = try Row.fetchAll(
      db,
      sql: """
        SELECT stage, SUM(value) FROM sample
        WHERE type = 'sleep'
          AND start >= strftime('%Y-%m-%dT%H:%M:%fZ', date(:now, 'localtime', '-1 day'), '+18 hours', 'utc')
          AND start < strftime('%Y-%m-%dT%H:%M:%fZ', date(:now, 'localtime'), '+12 hours', 'utc')
        GROUP BY stage ORDER BY 2 DESC
        """,
      arguments: ["now": now.canonical])
    let week = try Row.fetchOne(
      db,
      sql: """
        SELECT COUNT(*), TOTAL(durationMinutes) FROM workout
        WHERE status = 'completed'
          AND completedAt >= strftime('%Y-%m-%dT%H:%M:%fZ', date(:now, 'localtime', 'weekday 0', '-6 days'), 'utc')
        """,
      arguments: ["now": now.canonical])
    return HealthSummary(
      stepsToday: steps,
      latestHeartRate: latest.map { Reading(at: $0[0], value: $0[1]) },
      heartRateByHour: try SampleBuckets.hourly(db, type: .heartRate, hours: hours, now: now),
      stepsByHour: try SampleBuckets.hourly(db, type: .steps, hours: hours, now: now),
      bodyMass: mass.map { Reading(at: $0[0], value: $0[1]) },
      lastNightSleep: sleep.map { StageMinutes(stage: $0[0], minutes: $0[1]) },
      workoutsThisWeek: week?[0] ?? 0,
      workoutMinutesThisWeek: Int(week?[1] as Double? ?? 0))
  }
}
