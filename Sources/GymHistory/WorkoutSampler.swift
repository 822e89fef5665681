import GymCLI
import GymCore

/// Realistic generated workouts for demos, tests and benchmarks: deterministic for a seed.
struct WorkoutSampler {
  private var random: SplitMix64
  private let end: Timestamp
  private let spanMilliseconds: Int64

  static let plans = [
    ("Upper Body Strength", "upper"), ("Lower Body Power", "lower"), ("Push Day", "push"),
    ("Pull Day", "pull"), ("Leg Day", "legs"), ("Core Blast", "core"), ("Full Body Circuit", "fullBody"),
    ("Zone 2 Run", "cardio"), ("Intervals on the Bike", "cardio"), ("Mobility Flow", "mobility"),
    ("Morning Yoga", "mobility"), ("5×5 Strength", "fullBody"),
  ]

  init(seed: UInt64, end: Timestamp, days: Int) {
    random = SplitMix64(seed: seed)
    self.end = Timestamp(millisecondsSince1970: end.millisecondsSince1970 / 1000 * 1000)
    spanMilliseconds = Int64(days) * 86_400_000
  }

  private mutating func next() -> UInt64 { random.next() }

  private mutating func below(_ n: Int) -> Int { random.below(n) }

  /// The fields a sampled workout has, in the table's order (no notes).
  static let fields = ["id", "completedAt", "status", "planTitle", "focus", "durationMinutes", "intensity"]

  /// One workout's cells, in the order of `fields`.
  mutating func nextWorkout() -> [Cell] {
    let hex = Array("0123456789abcdef")
    var id = ""
    for i in 0..<32 {
      if i == 8 || i == 12 || i == 16 || i == 20 { id.append("-") }
      // Version 4, RFC 4122 variant: like the UUIDs apps write.
      id.append(i == 12 ? "4" : i == 16 ? hex[8 + below(4)] : hex[below(16)])
    }
    let completedAt = end.adding(milliseconds: -Int64(next() % UInt64(max(spanMilliseconds, 1))) / 1000 * 1000)
    let (title, focus) = Self.plans[below(Self.plans.count)]
    let status = below(10) == 0 ? "skipped" : "completed"
    let duration = status == "skipped" ? 0 : 20 + below(71)
    let intensity = WorkoutSchema.intensities[below(3)]
    return [
      .text(id), .timestamp(completedAt.canonical), .text(status), .text(title), .text(focus),
      .integer(Int64(duration)), .text(intensity),
    ]
  }
}
