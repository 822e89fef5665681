/// A rating: 0.25 to 5 stars in quarters (StoryGraph rates so; Goodreads and `add` in whole stars).
/// The one check every path that takes a rating makes.
enum Stars {
  static func isValid(_ value: Double) -> Bool {
    value.isFinite && (0.25...5).contains(value) && (value * 4).rounded() == value * 4
  }

  /// In whole stars, for a format that has no others (Goodreads): to the nearest, and at least one,
  /// so that a rating never reads as none (0.25 → 1, 3.75 → 4).
  static func whole(_ value: Double) -> Int { max(1, Int(value.rounded())) }
}
