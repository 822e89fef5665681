import Testing

@testable import GymHistory

/// The Health app's rule, on hand-worked cases: each moment once, from the highest-priority source
/// covering it; the uncovered part of a lower-priority sample pro rata; a sample across a bucket
/// edge split by time. Minutes below are from 00:00 of the first bucket.
@Suite struct SourceTotalsTests {
  static let minute: Int64 = 60_000
  static func sample(_ from: Int64, _ to: Int64, _ value: Double, rank: Int) -> IntervalSample {
    IntervalSample(start: from * minute, end: to * minute, value: value, rank: rank)
  }
  /// Two buckets: [0, 24 h) and [24 h, 48 h).
  static let days: [Int64] = [0, 1440 * minute, 2880 * minute]
  let watch = 0
  let phone = 1
  let app = 2

  @Test func theDefaultOrderIsWatchThenPhoneThenOthersAlphabetically() {
    let sources = ["Jane's iPhone", "Zepp Life", "Jane’s Apple Watch", "apple health", "MyFitnessPal"]
    #expect(
      SourcePriority().ordered(sources) == [
        "Jane’s Apple Watch", "Jane's iPhone", "apple health", "MyFitnessPal", "Zepp Life",
      ])
    // health.sources comes first, in its order; the rest keep the default order.
    #expect(
      SourcePriority(patterns: ["zepp*", "*IPHONE*"]).ordered(sources) == [
        "Zepp Life", "Jane's iPhone", "Jane’s Apple Watch", "apple health", "MyFitnessPal",
      ])
    #expect(SourcePriority.matches("*watch*", "jane's apple watch"))
    #expect(!SourcePriority.matches("watch", "jane's apple watch"))
    #expect(SourcePriority.matches("a*b*c", "a-long-b-c"))
  }

  @Test func aWatchAndAPhoneOnTheSameWalkCountOnce() {
    let samples = [Self.sample(600, 630, 3000, rank: watch), Self.sample(600, 630, 2800, rank: phone)]
    #expect(CumulativeTotals.totals(samples, bounds: Self.days)[0] == .init(sum: 3000, samples: 1))
    #expect(CumulativeTotals.totals(samples, bounds: Self.days, allSources: true)[0] == .init(sum: 5800, samples: 2))
  }

  @Test func thePhoneAloneWhileTheWatchCharges() {
    let samples = [
      Self.sample(600, 630, 3000, rank: watch), Self.sample(600, 630, 2800, rank: phone),
      Self.sample(660, 670, 500, rank: phone),  // watch on its charger
    ]
    #expect(CumulativeTotals.totals(samples, bounds: Self.days)[0].sum == 3500)
  }

  @Test func aPartlyCoveredSampleCountsForItsUncoveredPart() {
    // Watch 12:00–12:10, 1000; phone 12:05–12:15, 900: the phone's last 5 of 10 minutes count.
    let samples = [Self.sample(720, 730, 1000, rank: watch), Self.sample(725, 735, 900, rank: phone)]
    #expect(CumulativeTotals.totals(samples, bounds: Self.days)[0] == .init(sum: 1000 + 900 * 5 / 10, samples: 2))
  }

  @Test func anAppRecountingAWalkAddsNothing() {
    let samples = [
      Self.sample(600, 630, 3000, rank: watch), Self.sample(600, 630, 2800, rank: phone),
      Self.sample(598, 632, 3400, rank: app),  // its 4 uncovered minutes of 34 count
    ]
    let expected = 3000 + 3400.0 * 4 / 34
    #expect(abs(CumulativeTotals.totals(samples, bounds: Self.days)[0].sum - expected) < 1e-9)
  }

  @Test func aWalkAcrossMidnightIsSplitByTime() {
    // 23:58–00:04, 600 steps: 2 minutes before midnight, 4 after.
    let totals = CumulativeTotals.totals([Self.sample(1438, 1444, 600, rank: watch)], bounds: Self.days)
    #expect(totals.map(\.sum) == [200, 400])
    #expect(totals.map(\.samples) == [1, 1])
  }

  @Test func anInstantCountsWhereNoBetterSourceCovers() {
    let samples = [
      Self.sample(600, 630, 3000, rank: watch), Self.sample(615, 615, 40, rank: app),
      Self.sample(800, 800, 25, rank: app),
    ]
    #expect(CumulativeTotals.totals(samples, bounds: Self.days)[0].sum == 3025)
  }

  @Test func samplesOutsideTheBucketsCountNowhere() {
    let samples = [Self.sample(-30, -10, 100, rank: watch), Self.sample(2870, 2890, 200, rank: watch)]
    #expect(CumulativeTotals.totals(samples, bounds: Self.days).map(\.sum) == [0, 100])
  }

  /// "Watch" and "iPhone" as words of a device's name, not inside another ("Stopwatch").
  @Test func devicesAreNamedByWholeWords() {
    #expect(
      SourcePriority().ordered(["Stopwatch Pro", "Jane's iPhone", "Watch"]) == [
        "Watch", "Jane's iPhone", "Stopwatch Pro",
      ])
    #expect(HealthKitMapping.factor(from: "fl_oz_imp", to: .water) == 28.413_062_5)
    #expect(SampleKind.of("distanceCycling", unit: "km") == .cumulative)
    #expect(SampleKind.of("swimmingStrokeCount", unit: "count") == .cumulative)
  }
}
