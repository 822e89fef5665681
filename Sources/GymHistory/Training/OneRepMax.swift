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

  /// The same as SQL over a weight and a reps expression (NULL outside 1 … 12 reps or without weight).
  func sql(weight w: String, reps r: String) -> String {
    let formula =
      switch self {
      case .epley: "\(w) * (1 + \(r) / 30.0)"
      case .brzycki: "\(w) * 36.0 / (37 - \(r))"
      }
    return "CASE WHEN \(w) > 0 AND \(r) BETWEEN 1 AND 12 THEN CASE WHEN \(r) = 1 THEN \(w) ELSE \(formula) END END"
  }
}
