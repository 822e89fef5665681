import Foundation
import GymCore
import TestTimeZone
import Testing

@testable import GymExport

/// Thinning with restic's semantics, on a simulated clock: two years of one export a day, pruned after
/// each, end with exactly the exports the calendar says each rule keeps.
@Suite(.serialized) struct RetentionPolicyTests {
  init() throws { try TestTimeZone.requireUTC() }

  /// 02:00 UTC on the `day`-th day after 2025-01-01.
  func export(_ day: Int) -> Timestamp {
    Timestamp(parsing: "2025-01-01T02:00:00Z")!.adding(milliseconds: Int64(day) * 86_400_000)
  }

  func days(_ times: [Timestamp]) -> [String] { times.map { String($0.canonical.prefix(10)) }.sorted() }

  @Test func twoYearsOfDailyExports() {
    let policy = RetentionPolicy(last: 3, daily: 7, weekly: 4, monthly: 12)
    var kept: [Timestamp] = []
    for day in 0..<730 {  // to 2026-12-31, a Thursday
      kept.append(export(day))
      let keep = policy.keep(kept)
      kept = kept.enumerated().filter { keep.contains($0.offset) }.map(\.element)
    }
    // Daily: the last 7 days (the last 3 among them). Weekly, the newest of each of the last 4 weeks:
    // Thursday 31 December (its week's so far), Sundays 27, 20 and 13 December. Monthly, each of the last
    // 12 months' last day, 31 December 2026 back to 31 January 2026.
    let expected =
      (25...31).map { "2026-12-\($0)" } + ["2026-12-20", "2026-12-13"]
      + [
        "2026-11-30", "2026-10-31", "2026-09-30", "2026-08-31", "2026-07-31", "2026-06-30", "2026-05-31",
        "2026-04-30", "2026-03-31", "2026-02-28", "2026-01-31",
      ]
    #expect(days(kept) == expected.sorted())
    // Pruning every day ends where pruning once does.
    let all = (0..<730).map(export)
    #expect(days(policy.keep(all).map { all[$0] }) == expected.sorted())
  }

  /// `--keep-within 1d2h`: every export from 26 hours before the newest on, bound included, and
  /// nothing older; the other rules still add theirs.
  @Test func keepWithinIsMeasuredFromTheNewest() {
    let newest = export(10)
    // 0 h, 25 h, 26 h (the bound) and 27 h before the newest, and one a day older still.
    let times = [0, 25, 26, 27, 51].map { newest.adding(milliseconds: -Int64($0) * 3_600_000) }
    let within = RetentionPolicy(last: 0, within: TimeSpan("1d2h"))
    #expect(within.keepsAnything)
    #expect(within.keep(times) == [0, 1, 2])
    #expect(RetentionPolicy(last: 1, within: TimeSpan("1d2h")).keep(times.reversed()) == [2, 3, 4])
    #expect(RetentionPolicy(last: 0, monthly: 1, within: TimeSpan("1h")).keep(times) == [0])
    // Another rule adds what `within` does not: the newest 4 beside the hour (which holds only index 0).
    #expect(RetentionPolicy(last: 4, within: TimeSpan("1h")).keep(times) == [0, 1, 2, 3])
  }

  @Test func eachRuleAlone() {
    let all = (0..<60).map(export)  // 2025-01-01 … 2025-03-01
    #expect(days(RetentionPolicy(last: 2).keep(all).map { all[$0] }) == ["2025-02-28", "2025-03-01"])
    // Weeks run Monday to Sunday: 1 March 2025 is a Saturday, so its week's newest is itself, then Sundays.
    #expect(
      days(RetentionPolicy(last: 0, weekly: 3).keep(all).map { all[$0] }) == ["2025-02-16", "2025-02-23", "2025-03-01"])
    #expect(
      days(RetentionPolicy(last: 0, monthly: 5).keep(all).map { all[$0] }) == [
        "2025-01-31", "2025-02-28", "2025-03-01",
      ])
    // Several exports in one day: the newest of the day stands for it.
    let sameDay = [export(0), export(0).adding(milliseconds: 3_600_000), export(1)]
    #expect(RetentionPolicy(last: 0, daily: 2).keep(sameDay) == [1, 2])
  }
}
