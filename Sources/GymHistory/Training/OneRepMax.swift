import ArgumentParser

/// Estimated one-rep max from a set of 1 to 12 reps (more reps say little about a single): the
/// weight itself for a single, else Epley `w × (1 + r/30)` or Brzycki `w × 36 / (37 − r)`.
enum OneRepMax: String, CaseIterable, ExpressibleByArgument, Sendable {
  case epley, brzycki

  static let reps = 1...12

  func estimate(weight: Double, reps: Int) -> Double? {
    guard Self.reps.contains(reps), weight > 0 else { return nil }
    if reps == 1 { return weight }
    switch self {
    case .epley: return weight * (1 + Double(reps) / 30)
    case .brzycki: return weight * 36 / (37 - Double(reps))
    }
  }
}
