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
  /// Last night's time in bed and asleep, as `history sleep` gives them (overlapping records of one
  /// source counted once); nil when no record says (unknown, not 0).
  var lastNightInBed: Double?
  var lastNightAsleep: Double?
  var workoutsThisWeek: Int
  /// The minutes of this week's workouts that say theirs; nil when none does.
  var workoutMinutesThisWeek: Int?

  static let hours = 8

  static func compute(_ db: Database, selection: SampleSelection = .standard, now: Timestamp = .now()) throws
    -> HealthSummary
  {
    // As of `now`: what was recorded after it (`summary --until`) is not shown.
    let steps =
      try SampleBuckets.daily(db, type: .steps, days: 1, selection: selection, now: now, asOf: true).first?.sum ?? 0
    let latest = try Row.fetchOne(
      db, sql: "SELECT start, value FROM sample WHERE type = 'heartRate' AND start <= ? ORDER BY start DESC LIMIT 1",
      arguments: [now.canonical])
    let mass = try Row.fetchAll(
      db, sql: "SELECT start, value FROM sample WHERE type = 'bodyMass' AND start <= ? ORDER BY start DESC LIMIT 5",
      arguments: [now.canonical])
    let (sleep, night) = try lastNight(db, selection: selection, now: now)
    let week = try Row.fetchOne(
      db,
      sql: """
        SELECT COUNT(*), SUM(durationMinutes) FROM workout
        WHERE status = 'completed'
          AND completedAt >= strftime('%Y-%m-%dT%H:%M:%fZ', date(:now, 'localtime', 'weekday 0', '-6 days'), 'utc')
          AND completedAt <= :now
        """,
      arguments: ["now": now.canonical])
    return HealthSummary(
      stepsToday: steps,
      latestHeartRate: latest.flatMap { row in
        row.number(at: 1, within: PlausibleRange.sampleValue).map { Reading(at: row[0], value: $0) }
      },
      heartRateByHour: try SampleBuckets.hourly(
        db, type: .heartRate, hours: hours, selection: selection, now: now, asOf: true),
      stepsByHour: try SampleBuckets.hourly(db, type: .steps, hours: hours, selection: selection, now: now, asOf: true),
      bodyMass: mass.flatMap { row in
        row.number(at: 1, within: PlausibleRange.sampleValue).map { Reading(at: row[0], value: $0) }
      },
      lastNightSleep: sleep, lastNightInBed: night?.inBed, lastNightAsleep: night?.asleep,
      workoutsThisWeek: week?[0] ?? 0,
      workoutMinutesThisWeek: try (week?[1] as Double?).map { try StoredTotal.whole($0, "this week's workout minutes") }
    )
  }

  /// Last night (`SleepNights`) per stage: in bed from the highest-ranked source that recorded it,
  /// the stages from the highest-ranked source that recorded stages (they may differ).
  static func lastNight(_ db: Database, selection: SampleSelection, now: Timestamp) throws -> (
    [StageMinutes], SleepNight?
  ) {
    let label = SleepNights.lastNight(now: now)
    guard
      let night = try SleepNights.nights(db, from: label, to: label, selection: selection, until: now).first
    else {
      return ([], nil)
    }
    let stages: [(String, Double?)] = [
      ("inBed", night.inBed), ("awake", night.awake), ("asleepCore", night.core), ("asleepDeep", night.deep),
      ("asleepREM", night.rem), ("asleep", night.unspecified),
    ]
    let listed = stages.compactMap { stage, minutes in
      minutes.flatMap { $0 > 0 ? StageMinutes(stage: stage, minutes: $0) : nil }
    }
    return (listed.sorted { ($0.minutes, $1.stage) > ($1.minutes, $0.stage) }, night)
  }
}
