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
  /// Last night (`SleepNights`): the night that ended today, until 06:00 the day after.
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

  /// Last night (`SleepNights`) per stage: in bed from the highest-ranked source that recorded it,
  /// the stages from the highest-ranked source that recorded stages (they may differ).
  static func lastNight(_ db: Database, selection: SampleSelection, now: Timestamp) throws -> [StageMinutes] {
    let label = SleepNights.lastNight(now: now)
    guard let night = try SleepNights.nights(db, from: label, to: label, selection: selection).first else { return [] }
    let stages: [(String, Double?)] = [
      ("inBed", night.inBed), ("awake", night.awake), ("asleepCore", night.core), ("asleepDeep", night.deep),
      ("asleepREM", night.rem), ("asleep", night.unspecified),
    ]
    return stages.compactMap { stage, minutes in
      minutes.flatMap { $0 > 0 ? StageMinutes(stage: stage, minutes: $0) : nil }
    }
    .sorted { ($0.minutes, $1.stage) > ($1.minutes, $0.stage) }
  }
}
