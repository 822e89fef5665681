import GymCore
import Testing

/// The one calendar day and the one duration grammar every option, import and stored day uses.
@Suite struct CalendarTests {
  @Test func aDayIsReadWithDashesOrSlashesAndWrittenWithDashes() {
    // 2026-03-05: 56 years since 1970 hold 14 leap days (1972 … 2024), so 56 × 365 + 14 = 20,454 days
    // to 2026-01-01, then January (31) and February (28) and 4 more: 20,454 + 63 = 20,517.
    for text in ["2026-03-05", "2026/03/05", "2026-3-5", "2026/3/05"] {
      #expect(CalendarDay(text)?.days == 20_517, "\(text)")
      #expect(CalendarDay(text)?.text == "2026-03-05", "\(text)")
    }
    #expect(CalendarDay("1970-01-01")?.days == 0)
    #expect(CalendarDay("1969-12-31")?.days == -1)
    // 2024 is a leap year (divisible by 4, not by 100), 2100 is not, 2000 is (by 400).
    #expect(CalendarDay("2024-02-29") != nil)
    #expect(CalendarDay("2000-02-29") != nil)
    #expect(CalendarDay("2100-02-29") == nil)
    #expect(CalendarDay("9999-12-31")?.text == "9999-12-31")
  }

  @Test func notADay() {
    for text in [
      "", "2026", "2026-02-30", "2026-13-01", "2026-00-10", "2026-01-00", "0000-01-01", "2026-03/05", "2026--03-05",
      "26-03-05", "2026-003-05", "2026-03-+5", "2026-03-05T10:00", " 2026-03-05", "2026-0x-05", "２０２６-03-05",
    ] {
      #expect(CalendarDay(text) == nil, "\(text)")
    }
  }

  @Test func aSpanIsWholeNumbersWithUnitsLargestFirst() {
    #expect(TimeSpan("90s") == TimeSpan(milliseconds: 90 * 1000))
    #expect(TimeSpan("30m") == TimeSpan(milliseconds: 30 * 60_000))
    #expect(TimeSpan("1h30m") == TimeSpan(milliseconds: (60 + 30) * 60_000))
    #expect(TimeSpan("2w") == TimeSpan(milliseconds: 2 * 7 * 86_400_000))
    #expect(TimeSpan("1w2d") == TimeSpan(milliseconds: 9 * 86_400_000))
    #expect(TimeSpan("1d1h1m1s") == TimeSpan(milliseconds: ((24 + 1) * 3600 + 60 + 1) * 1000))
    #expect(TimeSpan("0d") == TimeSpan(milliseconds: 0))
    for text in ["", "5", "d", "1.5h", "30m1h", "1m1m", "5x", "-5d", "1 h", "1h 30m", "5D", "9223372036854775807s"] {
      #expect(TimeSpan(text) == nil, "\(text)")
    }
    // Bounded: 10,000 years of 366 days is the longest; a day past it is refused, never wrapped.
    #expect(TimeSpan("3660000d") == TimeSpan(milliseconds: 3_660_000 * 86_400_000))
    #expect(TimeSpan("3660001d") == nil)
    #expect(TimeSpan("3660000d1s") == nil)
  }
}
