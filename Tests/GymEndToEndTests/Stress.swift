import Foundation

/// How many times over the crash and concurrency tests repeat their iterations: 1 in `make test`,
/// `GYM_STRESS` (default 10 in `make stress`) for the longer runs.
enum Stress {
  static let factor = max(1, Int(ProcessInfo.processInfo.environment["GYM_STRESS"] ?? "") ?? 1)
}
