/// Which of several sources counts when they record the same moment, highest priority first, as
/// the Health app does it: the sources `health.sources` names, in its order (`*` matches any
/// run of characters, case-insensitive); then what was entered by hand in Health (source `Health`),
/// then Apple Watch devices, then iPhones, then every other source alphabetically. A source's
/// device is the model its records name (`SampleSources`), else a word of its name; a source whose
/// records were entered by hand ranks with `Health`.
struct SourcePriority: Sendable {
  let patterns: [String]
  /// What the exports said of each source: its device model (`Watch`, `iPhone`), entered by hand.
  var kinds = SampleSources.Kinds()

  init(patterns: [String] = [], kinds: SampleSources.Kinds = .init()) {
    self.patterns = patterns
    self.kinds = kinds
  }

  /// The sources in priority order.
  func ordered(_ sources: some Sequence<String>) -> [String] {
    Set(sources).map { (key: key(for: $0), name: $0) }.sorted { $0.key < $1.key }.map(\.name)
  }

  /// Each source's rank, 0 the highest.
  func ranks(_ sources: some Sequence<String>) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: ordered(sources).enumerated().map { ($0.element, $0.offset) })
  }

  private func key(for source: String) -> SortKey {
    let lower = source.lowercased()
    let named = patterns.firstIndex { Self.matches($0.lowercased(), lower) } ?? patterns.count
    let byName = Self.hasWord("watch", in: lower) ? 1 : Self.hasWord("iphone", in: lower) ? 2 : 3
    let byModel = kinds.models[source].map { $0.lowercased() == "watch" ? 1 : $0.lowercased() == "iphone" ? 2 : 3 }
    let device = lower == "health" || kinds.manual.contains(source) ? 0 : byModel ?? byName
    return SortKey(named: named, device: device, name: lower, exact: source)
  }

  private struct SortKey: Comparable {
    let named: Int
    let device: Int
    let name: String
    let exact: String

    static func < (a: SortKey, b: SortKey) -> Bool {
      (a.named, a.device, a.name, a.exact) < (b.named, b.device, b.name, b.exact)
    }
  }

  /// `word` standing alone in `text` ("Jane's Apple Watch", not "Stopwatch").
  static func hasWord(_ word: String, in text: String) -> Bool {
    text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { $0 == word }
  }

  /// A glob with `*` only, matched iteratively (no backtracking blow-up on long names).
  static func matches(_ pattern: String, _ text: String) -> Bool {
    let p = Array(pattern)
    let t = Array(text)
    var (i, j) = (0, 0)
    var star: Int? = nil
    var mark = 0
    while j < t.count {
      if i < p.count, p[i] == "*" {
        star = i
        mark = j
        i += 1
      } else if i < p.count, p[i] == t[j] {
        i += 1
        j += 1
      } else if let s = star {
        i = s + 1
        mark += 1
        j = mark
      } else {
        return false
      }
    }
    while i < p.count, p[i] == "*" { i += 1 }
    return i == p.count
  }
}
