/// One sample of a cumulative type (steps, distance, energy): `value` spread evenly over
/// [`start`, `end`) in milliseconds, from the source ranked `rank` (0 is the highest priority).
struct IntervalSample: Sendable, Equatable {
  let start: Int64
  let end: Int64
  let value: Double
  let rank: Int
}

/// Totals per bucket as the Health app counts them (Docs/History/README.md, "Sources"):
/// - each moment counts once, from the highest-priority source covering it; a lower-priority
///   sample only partly covered counts pro rata for the part that is not;
/// - a sample that spans a bucket boundary is split between the buckets pro rata by time;
/// - a sample of no duration counts in full where no higher-priority source covers its instant.
/// With `allSources`, every sample counts in full (still split across buckets by time).
enum CumulativeTotals {
  struct Bucket: Sendable, Equatable {
    var sum = 0.0
    /// Samples that counted for something in this bucket.
    var samples = 0
  }

  /// `bounds` are the buckets' edges, ascending: bucket k is [bounds[k], bounds[k + 1]).
  static func totals(_ samples: [IntervalSample], bounds: [Int64], allSources: Bool = false) -> [Bucket] {
    guard bounds.count >= 2 else { return [] }
    var buckets = Array(repeating: Bucket(), count: bounds.count - 1)
    let low = bounds[0]
    let high = bounds[bounds.count - 1]
    // Events: (time, order, sample); at one instant ends come first, then starts, then instants.
    var events: [(time: Int64, order: Int8, index: Int32)] = []
    events.reserveCapacity(samples.count * 2)
    for (i, sample) in samples.enumerated() where sample.end >= sample.start && sample.end >= low && sample.start < high
    {
      if sample.end == sample.start {
        events.append((sample.start, 2, Int32(i)))
      } else {
        events.append((sample.start, 1, Int32(i)))
        events.append((sample.end, 0, Int32(i)))
      }
    }
    events.sort { ($0.time, $0.order) < ($1.time, $1.order) }
    let ranks = (samples.map(\.rank).max() ?? 0) + 1
    var active = Array(repeating: [Int](), count: ranks)
    var lastBucket = Array(repeating: -1, count: samples.count)

    func bucket(at time: Int64) -> Int { index(of: time, in: bounds) ?? 0 }

    func credit(_ index: Int, _ amount: Double, in k: Int) {
      buckets[k].sum += amount
      if lastBucket[index] != k {
        lastBucket[index] = k
        buckets[k].samples += 1
      }
    }

    /// The samples that count over a stretch with the current active set.
    func winners() -> ArraySlice<[Int]> {
      if allSources { return active[...] }
      guard let best = active.firstIndex(where: { !$0.isEmpty }) else { return [] }
      return active[best...best]
    }

    var e = 0
    while e < events.count {
      let time = events[e].time
      while e < events.count, events[e].time == time {
        let (_, order, index) = events[e]
        let i = Int(index)
        let sample = samples[i]
        switch order {
        case 0: active[sample.rank].removeAll { $0 == i }
        case 1: active[sample.rank].append(i)
        default:
          let covered = !allSources && active[..<sample.rank].contains { !$0.isEmpty }
          if !covered, time >= low, time < high { credit(i, sample.value, in: bucket(at: time)) }
        }
        e += 1
      }
      guard e < events.count else { break }
      // [from, to) has one active set; spread its winners' rates over the buckets it crosses.
      let from = max(time, low)
      let to = min(events[e].time, high)
      guard from < to else { continue }
      var k = bucket(at: from)
      var start = from
      while start < to {
        let end = min(to, bounds[k + 1])
        let span = Double(end - start)
        for group in winners() {
          for i in group {
            let sample = samples[i]
            credit(i, sample.value * span / Double(sample.end - sample.start), in: k)
          }
        }
        start = end
        k += 1
      }
    }
    return buckets
  }

  /// The bucket holding `time` (the last edge at or before it, by binary search); nil outside.
  static func index(of time: Int64, in bounds: [Int64]) -> Int? {
    guard let first = bounds.first, let last = bounds.last, time >= first, time < last else { return nil }
    var (lo, hi) = (0, bounds.count - 1)
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if bounds[mid] <= time { lo = mid } else { hi = mid }
    }
    return lo
  }
}
