/// "Did you mean": the known names nearest to a mistyped one (Levenshtein distance, case-insensitive).
public enum Suggestions {
  /// Up to `count` names within a plausible distance, nearest first.
  public static func nearest(to name: String, in known: [String], count: Int = 1) -> [String] {
    let target = name.lowercased()
    let limit = max(2, target.count / 2)
    return known.map { ($0, distance($0.lowercased(), target)) }
      .filter { $0.1 <= limit || $0.0.lowercased().hasPrefix(target) }
      .sorted { $0.1 < $1.1 }
      .prefix(count).map(\.0)
  }

  public static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
