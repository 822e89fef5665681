import GRDB
import GymCLI
import GymCore

/// Samples of one type aggregated per local day or per hour.
///
/// Every bucket in the range is listed, empty ones with a count of 0 and no values. Cumulative
/// types (steps, distance, energy) report the sum as the Health app counts it
/// (`CumulativeTotals`: each moment once, from the highest-priority source; a sample across a
/// bucket edge split by time); sleep takes each bucket's highest-priority source; rates and body
/// mass get min, average and max over every source.
struct SampleBucket: Sendable, Equatable {
  /// Local wall-clock name: `2026-11-21` (a day or the Monday of a week) or `2026-11-21 14:00`.
  let label: String
  /// When the bucket starts: machine formats print it with its offset, which the label lacks.
  var start = Timestamp(millisecondsSince1970: 0)
  let count: Int
  let sum: Double?
  let min: Double?
  let avg: Double?
  let max: Double?
}

/// Which sources a figure comes from.
enum SampleSelection: Sendable {
  /// Each moment once, from the highest-priority source (the default).
  case deduplicated(SourcePriority)
  /// The plain sum of every source.
  case allSources
  /// One source only.
  case source(String)

  static let standard = SampleSelection.deduplicated(SourcePriority())

  var sourceName: String? {
    if case .source(let name) = self { return name }
    return nil
  }

  /// The same selection, its sources ranked by what the database knows of them (`SampleSources`).
  func knowingModels(_ db: Database) throws -> SampleSelection {
    guard case .deduplicated(var priority) = self else { return self }
    priority.kinds = try SampleSources.kinds(db)
    return .deduplicated(priority)
  }

  /// The order sources rank in; the default one where the selection does not rank them.
  var priority: SourcePriority {
    if case .deduplicated(let configured) = self { return configured }
    return SourcePriority()
  }

  var countsAllSources: Bool {
    if case .allSources = self { return true }
    return false
  }
}

/// A series of samples by type name, and how its values add up.
struct SampleSeries: Sendable, Equatable {
  let name: String
  let kind: SampleKind
  /// Its values are weights in kilograms (body mass), which `--unit lb` prints in pounds.
  var isWeight = false

  init(_ type: SampleType) {
    name = type.rawValue
    kind = type.kind
    isWeight = type.unit == "kg"
  }

  init(name: String, kind: SampleKind, isWeight: Bool = false) {
    self.name = name
    self.kind = kind
    self.isWeight = isWeight
  }

  /// A type by name: gym's own, or one kept as the export wrote it (its unit, read from the
  /// samples, tells how it adds up).
  static func named(_ name: String, in db: Database) throws -> SampleSeries {
    if let known = SampleType(rawValue: name) { return SampleSeries(known) }
    guard let unit = try String.fetchOne(db, sql: "SELECT unit FROM sample WHERE type = ? LIMIT 1", arguments: [name])
    else {
      let types = SampleType.allCases.map(\.rawValue).joined(separator: ", ")
      throw GymError.usage(
        "no samples of type '\(name)': gym's types are \(types); 'gym history samples types' lists what is held")
    }
    return SampleSeries(name: name, kind: .of(name, unit: unit), isWeight: unit == "kg")
  }
}

enum SampleBuckets {
  /// SQL for a date-time expression as milliseconds since 1970 (SQLite parses the text in C, which
  /// costs less per row than parsing it in Swift).
  static func ms(_ expression: String) -> String {
    "CAST(ROUND((julianday(\(expression)) - 2440587.5) * 86400000) AS INTEGER)"
  }

  /// How long before a range a sample may start and still reach into it.
  static let reach: Int64 = 36 * 3_600_000

  /// The last `days` local days up to today, newest first. Days follow the local zone (`TZ`,
  /// `time.zone`), so a day across a daylight-saving change is 23 or 25 hours long.
  /// `asOf`: the newest day ends at `now` (what was recorded by then, `summary --until`), not at midnight.
  static func daily(
    _ db: Database, type: SampleType, days: Int, selection: SampleSelection = .standard, now: Timestamp = .now(),
    asOf: Bool = false
  ) throws -> [SampleBucket] {
    try daily(db, series: SampleSeries(type), days: days, selection: selection, now: now, asOf: asOf)
  }

  static func daily(
    _ db: Database, series: SampleSeries, days: Int, selection: SampleSelection = .standard, now: Timestamp = .now(),
    asOf: Bool = false
  ) throws -> [SampleBucket] {
    let edges = try Row.fetchAll(
      db,
      sql: """
        WITH RECURSIVE days(label, n) AS (
          SELECT date(:now, 'localtime', :back), 0
          UNION ALL SELECT date(label, '+1 day'), n + 1 FROM days WHERE n < :count
        )
        SELECT label, \(ms("label, 'utc'")) FROM days ORDER BY n
        """,
      arguments: ["now": now.canonical, "count": days, "back": "-\(days - 1) days"])
    return try buckets(db, series: series, edges: edges, selection: selection, endingBy: asOf ? now : nil)
  }

  /// The last `weeks` local weeks (Monday to Sunday) up to this one, newest first, labelled by Monday.
  static func weekly(
    _ db: Database, series: SampleSeries, weeks: Int, selection: SampleSelection = .standard, now: Timestamp = .now()
  ) throws -> [SampleBucket] {
    let edges = try Row.fetchAll(
      db,
      sql: """
        WITH RECURSIVE weeks(label, n) AS (
          SELECT date(:now, 'localtime', 'weekday 0', '-6 days', :back), 0
          UNION ALL SELECT date(label, '+7 days'), n + 1 FROM weeks WHERE n < :count
        )
        SELECT label, \(ms("label, 'utc'")) FROM weeks ORDER BY n
        """,
      arguments: ["now": now.canonical, "count": weeks, "back": "-\((weeks - 1) * 7) days"])
    return try buckets(db, series: series, edges: edges, selection: selection)
  }

  /// The last `months` local calendar months up to this one, newest first, labelled `YYYY-MM`.
  static func monthly(
    _ db: Database, series: SampleSeries, months: Int, selection: SampleSelection = .standard, now: Timestamp = .now()
  ) throws -> [SampleBucket] {
    let edges = try Row.fetchAll(
      db,
      sql: """
        WITH RECURSIVE months(first, n) AS (
          SELECT date(:now, 'localtime', 'start of month', :back), 0
          UNION ALL SELECT date(first, '+1 month'), n + 1 FROM months WHERE n < :count
        )
        SELECT substr(first, 1, 7), \(ms("first, 'utc'")) FROM months ORDER BY n
        """,
      arguments: ["now": now.canonical, "count": months, "back": "-\(months - 1) months"])
    return try buckets(db, series: series, edges: edges, selection: selection)
  }

  /// The last `nights` nights, newest first, each named by the local date it ends (`SleepNights`):
  /// minutes asleep. Last night is the newest until 06:00 the day after.
  static func nightly(
    _ db: Database, nights: Int, selection: SampleSelection = .standard, now: Timestamp = .now()
  ) throws -> [SampleBucket] {
    let newest = SleepNights.lastNight(now: now)
    let oldest =
      try String.fetchOne(db, sql: "SELECT date(?, ?)", arguments: [newest, "-\(nights - 1) days"]) ?? newest
    return try SleepNights.nights(db, from: oldest, to: newest, selection: selection).map { night in
      var bucket = SampleBucket(
        label: night.night, count: night.asleep == nil ? 0 : 1, sum: night.asleep.map(rounded), min: nil, avg: nil,
        max: nil)
      bucket.start = Timestamp(parsing: night.night) ?? bucket.start
      return bucket
    }
  }

  /// The last `hours` local clock hours up to the current one, newest first (`2026-11-21 14:00`).
  /// `asOf`: the current hour ends at `now`, as `daily`'s newest day does.
  static func hourly(
    _ db: Database, type: SampleType, hours: Int, selection: SampleSelection = .standard, now: Timestamp = .now(),
    asOf: Bool = false
  ) throws -> [SampleBucket] {
    try hourly(db, series: SampleSeries(type), hours: hours, selection: selection, now: now, asOf: asOf)
  }

  static func hourly(
    _ db: Database, series: SampleSeries, hours: Int, selection: SampleSelection = .standard, now: Timestamp = .now(),
    asOf: Bool = false
  ) throws -> [SampleBucket] {
    // Hours step in UTC from the current local hour's start, so an hour repeated or skipped by a
    // daylight-saving change is still one hour of time.
    let edges = try Row.fetchAll(
      db,
      sql: """
        WITH RECURSIVE hours(edge, n) AS (
          SELECT strftime('%Y-%m-%dT%H:%M:%fZ', strftime('%Y-%m-%d %H:00', :now, 'localtime'), 'utc', :back), 0
          UNION ALL SELECT strftime('%Y-%m-%dT%H:%M:%fZ', edge, '+1 hour'), n + 1 FROM hours WHERE n < :count
        )
        SELECT strftime('%Y-%m-%d %H:00', edge, 'localtime'),
               \(ms("edge"))
        FROM hours ORDER BY n
        """,
      arguments: ["now": now.canonical, "count": hours, "back": "-\(hours - 1) hours"])
    return try buckets(db, series: series, edges: edges, selection: selection, endingBy: asOf ? now : nil)
  }

  /// How much time of samples a cumulative series reads at once: 28 days.
  static let runMilliseconds: Int64 = 28 * 86_400_000

  /// `edges`: (label, start in milliseconds since 1970) of each bucket and, last, the end of the final one.
  /// `endingBy`: the last bucket ends there when that is earlier (what was recorded by then).
  private static func buckets(
    _ db: Database, series: SampleSeries, edges: [Row], selection: SampleSelection, endingBy end: Timestamp? = nil
  ) throws -> [SampleBucket] {
    // SQLite's dates end at 9999-12-31: a bucket past it has no label or bound (NULL).
    guard edges.dropLast().allSatisfy({ ($0[0] as String?) != nil }), edges.allSatisfy({ ($0[1] as Int64?) != nil })
    else {
      throw GymError.usage("the period reaches past 9999-12-31, where dates end; give an earlier --until")
    }
    let labels: [String] = edges.dropLast().map { $0[0] }
    var bounds: [Int64] = edges.map { $0[1] }
    if let end, bounds.count >= 2 {
      bounds[bounds.count - 1] = max(bounds[bounds.count - 2], min(bounds[bounds.count - 1], end.millisecondsSince1970))
    }
    let result: [SampleBucket]
    switch series.kind {
    case .cumulative:
      // A few weeks of samples at a time, so that memory stays flat over years (2,000,000 steps held
      // at once took 460 MB); each run of buckets counts only the time inside it, so runs add up.
      var totals: [CumulativeTotals.Bucket] = []
      var first = 0
      while first < labels.count {
        var last = first + 1
        while last < labels.count && bounds[last] - bounds[first] < Self.runMilliseconds { last += 1 }
        let run = Array(bounds[first...last])
        let samples = try intervals(db, type: series.name, bounds: run, selection: selection)
        totals += CumulativeTotals.totals(samples, bounds: run, allSources: selection.countsAllSources)
        first = last
      }
      result = zip(labels, totals).map { label, total in
        SampleBucket(
          label: label, count: total.samples, sum: total.samples == 0 ? nil : rounded(total.sum), min: nil, avg: nil,
          max: nil)
      }
    case .sleep:
      result = try sleepBuckets(db, labels: labels, bounds: bounds, selection: selection)
    case .rate:
      result = try rateBuckets(db, type: series.name, labels: labels, bounds: bounds, source: selection.sourceName)
    }
    return zip(result, bounds).map { bucket, start in
      var dated = bucket
      dated.start = Timestamp(millisecondsSince1970: start)
      return dated
    }.reversed()
  }

  /// The samples of `type` that reach into [bounds.first, bounds.last), ranked by source.
  static func intervals(_ db: Database, type: String, bounds: [Int64], selection: SampleSelection) throws
    -> [IntervalSample]
  {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT \(ms("start")),
               \(ms("\"end\"")), value, source
        FROM sample
        WHERE type = ? AND start >= ? AND start < ? AND (? IS NULL OR source = ?)
        """,
      arguments: [
        type, Timestamp(millisecondsSince1970: bounds[0] - reach).canonical,
        Timestamp(millisecondsSince1970: bounds[bounds.count - 1]).canonical, selection.sourceName,
        selection.sourceName,
      ])
    let ranks = selection.priority.ranks(rows.map { $0[3] as String })
    return rows.map { row in
      IntervalSample(
        start: row[0], end: row[1], value: row.number(at: 2, within: PlausibleRange.sampleValue) ?? 0,
        rank: ranks[row[3] as String] ?? 0)
    }
  }

  /// Per bucket, the minutes asleep (`SleepNights`: awake and in-bed time are not sleep). A day or
  /// week holds the nights that end in it, whole: a night is never split at midnight. An hour holds
  /// the asleep records of each night's stage source that start in it.
  private static func sleepBuckets(
    _ db: Database, labels: [String], bounds: [Int64], selection: SampleSelection
  ) throws -> [SampleBucket] {
    let lastBound = bounds[bounds.count - 1]
    let (first, last) = (Timestamp(millisecondsSince1970: bounds[0]), Timestamp(millisecondsSince1970: lastBound - 1))
    // The nights ending on the range's days, and the one after its last (an hour's sleep may be its).
    let dates = try Row.fetchOne(
      db, sql: "SELECT date(?, 'localtime'), date(?, 'localtime', '+1 day')",
      arguments: [first.canonical, last.canonical])
    guard let dates, let from = dates[0] as String?, let to = dates[1] as String? else { return [] }
    let nights = try SleepNights.nights(db, from: from, to: to, selection: selection, keepingRecords: true)
    var asleep = Array(repeating: 0.0, count: labels.count)
    var counted = Array(repeating: 0, count: labels.count)
    let hourly = bounds.count > 1 && bounds[1] - bounds[0] < 20 * 3_600_000
    for night in nights where night.asleep != nil {
      if hourly {
        for record in night.asleepRecords {
          guard let k = CumulativeTotals.index(of: record.start, in: bounds) else { continue }
          asleep[k] += Double(record.end - record.start) / 60_000
          counted[k] += 1
        }
      } else if let noon = Timestamp(parsing: night.night + " 12:00"),
        let k = CumulativeTotals.index(of: noon.millisecondsSince1970, in: bounds)
      {
        asleep[k] += night.asleep ?? 0
        counted[k] += 1
      }
    }
    return labels.indices.map { k in
      SampleBucket(
        label: labels[k], count: counted[k], sum: counted[k] == 0 ? nil : rounded(asleep[k]), min: nil, avg: nil,
        max: nil)
    }
  }

  /// Rates and body mass: min, average and max per bucket over every source (or the one asked for).
  private static func rateBuckets(
    _ db: Database, type: String, labels: [String], bounds: [Int64], source: String?
  ) throws -> [SampleBucket] {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT \(ms("start")), value
        FROM sample WHERE type = ? AND start >= ? AND start < ? AND (? IS NULL OR source = ?)
        """,
      arguments: [
        type, Timestamp(millisecondsSince1970: bounds[0]).canonical,
        Timestamp(millisecondsSince1970: bounds[bounds.count - 1]).canonical, source, source,
      ])
    var values = Array(repeating: [Double](), count: labels.count)
    for row in rows {
      let start: Int64 = row[0]
      guard let k = CumulativeTotals.index(of: start, in: bounds) else { continue }
      if let value = row.number(at: 1, within: PlausibleRange.sampleValue) { values[k].append(value) }
    }
    return zip(labels, values).map { label, values in
      guard !values.isEmpty else { return SampleBucket(label: label, count: 0, sum: nil, min: nil, avg: nil, max: nil) }
      // To a millionth, as sums are: to a hundredth, one reading of 80.000086 kg averaged 80, below its own min.
      let average = rounded(values.reduce(0, +) / Double(values.count))
      return SampleBucket(
        label: label, count: values.count, sum: nil, min: values.min(),
        avg: min(max(average, values.min()!), values.max()!),
        max: values.max())
    }
  }

  /// Sums keep a millionth of their unit: pro rata shares are not exact in binary.
  static func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}
