import GymCLI
import GymCore

/// A realistic stream of generated health samples for demos, tests and benchmarks: per day, hourly
/// steps, distance and energy while awake, heart rate every 10 minutes, a night of sleep stages and
/// a morning weight from a watch; the phone in the pocket counting the same hours' steps and
/// distance (a few minutes later, a little differently), and a pedometer app recounting every fourth
/// hour — three sources over the same walks, as people's exports have them. Deterministic for a seed.
struct SampleGenerator {
  private var random: SplitMix64
  private let firstDay: Int64
  private let days: Int
  /// Nothing starts after this instant: generated data never lies in the future.
  private let end: Int64

  /// Days up to and including the one containing `end` (UTC days: generated data needs no zone).
  init(seed: UInt64, end: Timestamp, days: Int) {
    random = SplitMix64(seed: seed)
    self.days = days
    self.end = end.millisecondsSince1970
    firstDay = end.millisecondsSince1970 / 86_400_000 - Int64(days - 1)  // dates after 1970 only
  }

  /// Calls `body` with each sample's cells, in the table's field order, day by day.
  mutating func generate(_ body: ([Cell]) throws -> Void) rethrows {
    for day in 0..<Int64(days) {
      let midnight = (firstDay + day) * 86_400_000
      try sleep(before: midnight + 7 * 3_600_000, body)
      try emit(
        .bodyMass, at: midnight + 7 * 3_600_000 + 600_000, minutes: 0, value: 72 + Double(random.below(400)) / 100, body
      )
      for hour in 7..<23 {
        let start = midnight + Int64(hour) * 3_600_000
        let steps = Double(random.below(1800))
        try emit(.steps, at: start, minutes: 60, value: steps, body)
        try emit(.distance, at: start, minutes: 60, value: (steps * 0.00072 * 1000).rounded() / 1000, body)
        let phoneSteps = (steps * Double(85 + random.below(30)) / 100).rounded()
        try emit(.steps, at: start + 300_000, minutes: 60, value: phoneSteps, source: "iPhone", body)
        try emit(
          .distance, at: start + 300_000, minutes: 60, value: (phoneSteps * 0.00072 * 1000).rounded() / 1000,
          source: "iPhone", body)
        if hour % 4 == 3 {
          try emit(.steps, at: start, minutes: 60, value: (steps * 1.05).rounded(), source: "Pedometer++", body)
        }
        try emit(.activeEnergy, at: start, minutes: 60, value: Double(20 + random.below(300)), body)
        for tenth in 0..<6 {
          let at = start + Int64(tenth) * 600_000
          try emit(.heartRate, at: at, minutes: 0, value: Double(58 + random.below(70)), body)
        }
      }
    }
  }

  /// About eight hours of sleep ending at `wake`, in 10-to-60-minute stages.
  private mutating func sleep(before wake: Int64, _ body: ([Cell]) throws -> Void) rethrows {
    let stages: [SleepStage] = [.asleepCore, .asleepDeep, .asleepCore, .asleepREM, .awake]
    var at = wake - 8 * 3_600_000
    var i = 0
    while at < wake && at <= self.end {
      let minutes = Int64(10 + random.below(51))
      let end = min(at + minutes * 60_000, wake, self.end)
      guard end > at else { break }
      let stage = stages[i % stages.count]
      try body([
        .text("sleep"), .timestamp(Timestamp(millisecondsSince1970: at).canonical),
        .timestamp(Timestamp(millisecondsSince1970: end).canonical), .real(Double((end - at) / 60_000)),
        .text("min"), .text(stage.rawValue), .text("Apple Watch"),
      ])
      at = end
      i += 1
    }
  }

  private mutating func emit(
    _ type: SampleType, at start: Int64, minutes: Int64, value: Double, source: String? = nil,
    _ body: ([Cell]) throws -> Void
  ) rethrows {
    guard start <= end else { return }
    try body([
      .text(type.rawValue), .timestamp(Timestamp(millisecondsSince1970: start).canonical),
      .timestamp(Timestamp(millisecondsSince1970: start + minutes * 60_000).canonical), .real(value),
      .text(type.unit), .text("none"), .text(source ?? (type == .bodyMass ? "Withings" : "Apple Watch")),
    ])
  }
}

/// SplitMix64: tiny, fast and good enough for sample data.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
