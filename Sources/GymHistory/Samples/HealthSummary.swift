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
  /// Last night's time in bed and asleep (every asleep stage), from the same one source.
  var lastNightInBed: Double { lastNightSleep.filter { $0.stage == "inBed" }.reduce(0) { $0 + $1.minutes } }
  var lastNightAsleep: Double {
    lastNightSleep.filter { $0.stage.hasPrefix("asleep") }.reduce(0) { $0 + $1.minutes }
  }
  var workoutsThisWeek: Int
  var workoutMinutesThisWeek: Int

  static let hours = 8

  static func compute(_ db: Database, selection: SampleSelection = .standard, now: Timestamp = .now()) throws
    -> HealthSummary
  {
    let steps = try SampleBuckets.daily(db, type: .steps, days: 1, selection: selection, now: now).first?.sum ?? 0
    let latest = try Row.fetchOne(
      db, sql: "SELECT start, value FROM sample WHERE type = 'heartRate' ORDER BY start DESC LIMIT 1")
    let mass = try Row.fetchAll(
      db, sql: "SELECT start, value FROM sample WHERE type = 'bodyMass' ORDER BY start DESC LIMIT 5")
    let sleep = try lastNight(db, selection: selection, now: now)
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
      latestHeartRate: latest.flatMap { row in
        row.number(at: 1, within: PlausibleRange.sampleValue).map { Reading(at: row[0], value: $0) }
      },
      heartRateByHour: try SampleBuckets.hourly(db, type: .heartRate, hours: hours, selection: selection, now: now),
      stepsByHour: try SampleBuckets.hourly(db, type: .steps, hours: hours, selection: selection, now: now),
      bodyMass: mass.flatMap { row in
        row.number(at: 1, within: PlausibleRange.sampleValue).map { Reading(at: row[0], value: $0) }
      },
      lastNightSleep: sleep,
      workoutsThisWeek: week?[0] ?? 0,
      workoutMinutesThisWeek: try StoredTotal.whole(week?[1] as Double? ?? 0, "this week's workout minutes"))
  }

  /// Sleep that started between 18:00 yesterday and 12:00 today, local time, per stage, from the
  /// highest-priority source that recorded the night: two sources are never added together.
  static func lastNight(_ db: Database, selection: SampleSelection, now: Timestamp) throws -> [StageMinutes] {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT source, stage, TOTAL(value) FROM sample
        WHERE type = 'sleep' AND typeof(value) IN ('integer', 'real') AND abs(value) <= 1e12
          AND start >= strftime('%Y-%m-%dT%H:%M:%fZ', date(:now, 'localtime', '-1 day'), '+18 hours', 'utc')
          AND start < strftime('%Y-%m-%dT%H:%M:%fZ', date(:now, 'localtime'), '+12 hours', 'utc')
          AND (:source IS NULL OR source = :source)
        GROUP BY source, stage
        """,
      arguments: ["now": now.canonical, "source": selection.sourceName])
    var minutes: [String: Double] = [:]
    let best = selection.isDeduplicated ? selection.priority.ordered(rows.map { $0[0] as String }).first : nil
    for row in rows where best == nil || row[0] == best { minutes[row[1], default: 0] += row[2] }
    return minutes.map { StageMinutes(stage: $0.key, minutes: $0.value) }
      .sorted { ($0.minutes, $1.stage) > ($1.minutes, $0.stage) }
  }
}
