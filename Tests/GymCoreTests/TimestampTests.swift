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
