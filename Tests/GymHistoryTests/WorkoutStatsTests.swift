import Foundation
import GRDB
import GymCore
import TestTimeZone
import Testing

@testable import GymHistory

@Suite(.serialized) struct WorkoutStatsTests {
  init() throws { try TestTimeZone.requireUTC() }

  let now = Timestamp(parsing: "2026-11-21T12:00:00Z")!  // a Saturday

  @Test func weeksStartOnMondayAndIncludeEmptyOnes() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try HistoryFixtures.insert(db, at: "2026-11-16T08:00:00.000Z", minutes: 30)  // Monday, this week
      try HistoryFixtures.insert(db, at: "2026-11-21T09:00:00.000Z", minutes: 45)  // today
      try HistoryFixtures.insert(db, at: "2026-11-15T23:00:00.000Z", minutes: 20)  // Sunday, last week
      try HistoryFixtures.insert(db, at: "2026-11-20T09:00:00.000Z", status: "skipped", minutes: 0)
      try HistoryFixtures.insert(db, at: "2026-10-01T09:00:00.000Z", minutes: 99)  // outside 3 weeks
    }
    let stats = try store.read { try WorkoutStats.compute($0, weeks: 3, now: now) }
    #expect(
      stats.weeks == [
        .init(week: "2026-11-16", sessions: 2, minutes: 75),
        .init(week: "2026-11-09", sessions: 1, minutes: 20),
        .init(week: "2026-11-02", sessions: 0, minutes: 0),
      ])
    #expect(stats.byFocus == [.init(focus: "upper", sessions: 3, minutes: 95)])
  }

  /// Minutes are the durations known: a week whose sessions say none is unknown, not 0; a week
  /// where one of two says 40 has 40 (the other unknown, not counted); a week of none has 0.
  @Test func unknownDurationsAreNotCountedAsZero() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try HistoryFixtures.insert(db, at: "2026-11-17T08:00:00.000Z", focus: "legs", minutes: nil)  // this week
      try HistoryFixtures.insert(db, at: "2026-11-10T08:00:00.000Z", minutes: nil)  // last week
      try HistoryFixtures.insert(db, at: "2026-11-11T08:00:00.000Z", minutes: 40)
    }
    let stats = try store.read { try WorkoutStats.compute($0, weeks: 3, now: now) }
    #expect(
      stats.weeks == [
        .init(week: "2026-11-16", sessions: 1, minutes: nil),
        .init(week: "2026-11-09", sessions: 2, minutes: 40),
        .init(week: "2026-11-02", sessions: 0, minutes: 0),
      ])
    #expect(
      stats.byFocus == [
        .init(focus: "upper", sessions: 2, minutes: 40), .init(focus: "legs", sessions: 1, minutes: nil),
      ])
  }

  @Test func streakCountsConsecutiveDaysEndingTodayOrYesterday() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      for day in ["2026-11-18", "2026-11-19", "2026-11-20"] {
        try HistoryFixtures.insert(db, at: day + "T07:00:00.000Z")
      }
      try HistoryFixtures.insert(db, at: "2026-11-20T19:00:00.000Z", focus: "legs")
      try HistoryFixtures.insert(db, at: "2026-11-16T07:00:00.000Z")  // a gap on the 17th
    }
    let stats = try store.read { try WorkoutStats.compute($0, weeks: 1, now: now) }
    #expect(stats.streakDays == 3)
    #expect(stats.streakSince == "2026-11-18")
    let later = now.adding(milliseconds: 2 * 86_400_000)  // two days later the streak is broken
    #expect(try store.read { try WorkoutStats.compute($0, weeks: 1, now: later) }.streakDays == 0)
  }

  @Test func skippedWorkoutsDoNotCount() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in try HistoryFixtures.insert(db, at: "2026-11-21T07:00:00.000Z", status: "skipped") }
    let stats = try store.read { try WorkoutStats.compute($0, weeks: 1, now: now) }
    #expect(stats.streakDays == 0)
    #expect(stats.weeks.first?.sessions == 0)
    #expect(stats.byFocus.isEmpty)
  }
}
