import Foundation

/// How many times over the crash and concurrency tests repeat their iterations: 1 in `make test`,
/// `GYM_STRESS` (default 10 in `make stress`) for the longer runs.
enum Stress {
  static let factor = max(1, Int(ProcessInfo.processInfo.environment["GYM_STRESS"] ?? "") ?? 1)
}

/// The random delays of a kill test, from a seed that is printed, so that a failure can be replayed:
/// `GYM_KILL_SEED=<seed> swift test --filter <test>` runs the same delays again.
struct KillTiming {
  let seed: UInt64
  private var state: UInt64

  init(_ test: String) {
    let given = ProcessInfo.processInfo.environment["GYM_KILL_SEED"].flatMap { UInt64($0) }
    seed = given ?? UInt64.random(in: 1...UInt64.max)
    state = seed
    print("\(test): kill timing seed \(seed) (replay with GYM_KILL_SEED=\(seed))")
  }

  /// The next number of the sequence (SplitMix64): delays, and the choices of a test that replays with them.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A delay in microseconds within `range`.
  mutating func microseconds(in range: ClosedRange<UInt32>) -> UInt32 {
    range.lowerBound + UInt32(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }
}
