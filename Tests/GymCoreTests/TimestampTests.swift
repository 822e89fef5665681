import Testing

@testable import GymCore

@Suite struct TimestampTests {
  @Test func canonicalFormHasFixedWidthAndMilliseconds() {
    let t = Timestamp(millisecondsSince1970: 1_763_719_200_123)
    #expect(t.canonical == "2025-11-21T10:00:00.123Z")
    #expect(Timestamp(millisecondsSince1970: 0).canonical == "1970-01-01T00:00:00.000Z")
    #expect(Timestamp(millisecondsSince1970: -1).canonical == "1969-12-31T23:59:59.999Z")
  }

  @Test func parsesUTCAndOffsets() {
    #expect(Timestamp(parsing: "2025-11-21T10:00:00Z")?.canonical == "2025-11-21T10:00:00.000Z")
    #expect(Timestamp(parsing: "2025-11-21T10:00:00.5Z")?.canonical == "2025-11-21T10:00:00.500Z")
    #expect(Timestamp(parsing: "2025-11-21T12:30:00+02:30")?.canonical == "2025-11-21T10:00:00.000Z")
    #expect(Timestamp(parsing: "2019-07-19 10:36:11 -0700")?.canonical == "2019-07-19T17:36:11.000Z")
    #expect(Timestamp(parsing: "2024-02-29T00:00Z")?.canonical == "2024-02-29T00:00:00.000Z")
  }

  @Test func rejectsImpossibleDates() {
    for text in [
      "2025-02-29", "2025-13-01", "2025-11-21T24:00Z", "2025-11-21T10:00:00X", "21/11/2025", "", "2025-11-2",
    ] {
      #expect(Timestamp(parsing: text) == nil, "\(text)")
    }
  }

  /// The canonical text has four digits for the year, so an instant outside years 0 to 9999 (UTC) is
  /// refused, not wrapped into another year: 9999-12-31T23:00-05:00 is 10000-01-01T04:00Z, and
  /// 0000-01-01T00:00+14:00 is -0001-12-31T10:00Z. Both ends themselves are kept.
  @Test func refusesInstantsOutsideTheCanonicalYears() {
    #expect(Timestamp(parsing: "9999-12-31T23:00:00-05:00") == nil)
    #expect(Timestamp(parsing: "0000-01-01T00:00:00+14:00") == nil)
    #expect(Timestamp(parsing: "9999-12-31T18:59:59.999-05:00")?.canonical == "9999-12-31T23:59:59.999Z")
    #expect(Timestamp(parsing: "0000-01-01T00:00:00Z")?.canonical == "0000-01-01T00:00:00.000Z")
    // 10000-01-01: 8,030 years after 1970 with 2,007 − 80 + 20 = 1,947 leap days, 2,932,897 days.
    let tenThousand = Timestamp(millisecondsSince1970: 2_932_897 * 86_400_000)
    #expect(!tenThousand.isWithinCanonicalYears)
    #expect(tenThousand.adding(milliseconds: -1).isWithinCanonicalYears)
    // 0000-01-01: 1,970 years before 1970 with 493 − 20 + 5 = 478 leap days, 719,528 days.
    let yearZero = Timestamp(millisecondsSince1970: -719_528 * 86_400_000)
    #expect(yearZero.isWithinCanonicalYears)
    #expect(!yearZero.adding(milliseconds: -1).isWithinCanonicalYears)
    // Written as they are when something does reach them, never as year 0000 or `000/`.
    #expect(tenThousand.canonical == "10000-01-01T00:00:00.000Z")
    #expect(yearZero.adding(milliseconds: -1).canonical == "-0001-12-31T23:59:59.999Z")
  }

  @Test func roundTripsThroughCanonicalText() {
    for ms: Int64 in [0, 951_782_400_000, 1_700_000_000_001, 4_102_444_799_999] {
      let t = Timestamp(millisecondsSince1970: ms)
      #expect(Timestamp(parsing: t.canonical) == t)
    }
  }

  @Test func canonicalTextSortsAsTime() {
    let earlier = Timestamp(millisecondsSince1970: 1_700_000_000_000)
    let later = earlier.adding(milliseconds: 500)
    #expect(earlier.canonical < later.canonical)
  }
}
