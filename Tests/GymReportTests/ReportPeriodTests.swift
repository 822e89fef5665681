import GymCLI
import GymCore
import Testing

@testable import GymReport

/// The period a report covers, from what is asked and where the data lies: days are drawn one by
/// one, so a period is never centuries of days without a record.
@Suite struct ReportPeriodTests {
  static let day: Int64 = 86_400_000
  static let now = Timestamp(parsing: "2026-11-28T12:00:00Z")!
  static let extents = [
    DataExtent(
      what: "workout", first: Timestamp(parsing: "2024-03-01T10:00:00Z")!,
      last: Timestamp(parsing: "2026-11-20T10:00:00Z")!)
  ]

  /// `--since 0001-01-01`: from the first record (it drew 2,000 years of days, 238 MB).
  @Test func aStartBeforeTheFirstRecordStartsAtIt() {
    let asked = ReportPeriod.Request(since: Timestamp(parsing: "0001-01-01T00:00:00Z")!)
    let period = ReportPeriod.resolve(asked, extents: Self.extents, now: Self.now)
    #expect(period.since == Self.extents[0].first)
    #expect(period.end == Self.now)
    #expect(period.note == "from your first record, after --since")
    // A start after the first record is kept as asked.
    let later = ReportPeriod.Request(since: Timestamp(parsing: "2025-01-01T00:00:00Z")!)
    #expect(ReportPeriod.resolve(later, extents: Self.extents, now: Self.now).since == later.since)
  }

  /// A record dated after now (a clock set wrong) still counts for how far ahead a period may reach,
  /// and a period asked for past all data never ends before it starts.
  @Test func aPeriodAheadOfNowIsKeptAsAsked() {
    let ahead = [
      DataExtent(
        what: "workout", first: Timestamp(parsing: "2024-03-01T10:00:00Z")!,
        last: Timestamp(parsing: "2028-06-01T10:00:00Z")!)
    ]
    let since = Timestamp(parsing: "2028-01-01T00:00:00Z")!
    let until = Timestamp(parsing: "2029-01-01T00:00:00Z")!
    let asked = ReportPeriod.resolve(.init(since: since, until: until), extents: ahead, now: Self.now)
    #expect(asked.since == since && asked.end == until.adding(milliseconds: -1))
    let far = ReportPeriod.resolve(
      .init(since: Timestamp(parsing: "3000-01-01T00:00:00Z")!, until: Timestamp(parsing: "3002-01-01T00:00:00Z")!),
      extents: Self.extents, now: Self.now)
    // From 3000-01-01, a year (365 days) at most.
    #expect(far.end == Timestamp(parsing: "3000-01-01T00:00:00Z")!.adding(milliseconds: 365 * Self.day))
  }

  /// `--until 9999-12-31`: a year after now at most (365 days of 86,400,000 ms); a year-end in the
  /// months ahead is kept as asked (the rest of this year drawn empty).
  @Test func anEndFarAheadEndsAYearAfterNow() {
    let far = ReportPeriod.Request(
      since: Timestamp(parsing: "2026-01-01T00:00:00Z")!, until: Timestamp(parsing: "9999-12-31T00:00:00Z")!)
    let drawn = ReportPeriod.resolve(far, extents: Self.extents, now: Self.now)
    #expect(drawn.end == Self.now.adding(milliseconds: 365 * Self.day))
    #expect(drawn.note == "ending before --until: a report reaches a year past now and its data at most")
    let yearEnd = Timestamp(parsing: "2027-01-01T00:00:00Z")!
    let year = ReportPeriod.Request(since: Timestamp(parsing: "2026-01-01T00:00:00Z")!, until: yearEnd)
    #expect(ReportPeriod.resolve(year, extents: Self.extents, now: Self.now).end == yearEnd.adding(milliseconds: -1))
  }
}
