import GymCore

/// Which exports to keep, with restic's semantics: the newest `last`; and for each of the last
/// `daily` days that have an export, the newest of that day; likewise for `weekly` weeks (Monday to
/// Sunday) and `monthly` months; and every one made within `within` of the newest. Days, weeks and
/// months are local (`TZ`, `time.zone`). An export kept by any rule is kept.
public struct RetentionPolicy: Sendable, Equatable {
  public var last: Int
  public var daily: Int
  public var weekly: Int
  public var monthly: Int
  public var within: TimeSpan?

  public init(last: Int, daily: Int = 0, weekly: Int = 0, monthly: Int = 0, within: TimeSpan? = nil) {
    self.last = last
    self.daily = daily
    self.weekly = weekly
    self.monthly = monthly
    self.within = within
  }

  /// Whether any rule keeps an export.
  public var keepsAnything: Bool { last > 0 || daily > 0 || weekly > 0 || monthly > 0 || within != nil }

  /// The local day (`2026-11-23`), week (its Monday's day) and month (`2026-11`) of an instant.
  static func periods(_ time: Timestamp) -> (day: String, week: String, month: String) {
    func name(_ day: Int64) -> String {
      String(Timestamp(millisecondsSince1970: day * 86_400_000).canonical.prefix(10))
    }
    let day = time.localDays
    let dayName = name(day)
    return (dayName, name(Timestamp.monday(ofDay: day)), String(dayName.prefix(7)))
  }

  /// The indices of `times` (any order) to keep.
  public func keep(_ times: [Timestamp]) -> Set<Int> {
    let newestFirst = times.indices.sorted { (times[$0], $0) > (times[$1], $1) }
    var kept = Set(newestFirst.prefix(max(last, 0)))
    if let within, let newest = newestFirst.first {
      let from = times[newest].millisecondsSince1970 - within.milliseconds
      kept.formUnion(times.indices.filter { times[$0].millisecondsSince1970 >= from })
    }
    let periods = times.map(Self.periods)
    for (count, period) in [
      (daily, \(day: String, week: String, month: String).day), (weekly, \.week), (monthly, \.month),
    ]
    where count > 0 {
      var seen: Set<String> = []
      for index in newestFirst {
        let name = periods[index][keyPath: period]
        guard !seen.contains(name) else { continue }
        guard seen.count < count else { break }
        seen.insert(name)
        kept.insert(index)
      }
    }
    return kept
  }

  /// The items not to keep, in their order. Each is judged only among those of its group: complete
  /// exports among complete ones, a partial export among those of the same tables, so a partial
  /// one never counts as a backup of everything nor takes a full one's place. An item whose time
  /// cannot be read is kept.
  public func unkept<Item>(_ items: [Item], created: (Item) -> Timestamp?, group: (Item) -> String) -> [Item] {
    let dated = items.indices.filter { created(items[$0]) != nil }
    var dropped: [Int] = []
    for members in Dictionary(grouping: dated, by: { group(items[$0]) }).values {
      let kept = keep(members.map { created(items[$0])! })
      dropped += members.enumerated().filter { !kept.contains($0.offset) }.map(\.element)
    }
    return dropped.sorted().map { items[$0] }
  }
}
