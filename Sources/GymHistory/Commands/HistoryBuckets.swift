import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym history daily --type steps --days 30`: one row per local day.
struct HistoryDaily: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "daily",
    abstract: "Samples of one type per local day: count and sum (steps, energy …) or min/avg/max (rates).",
    discussion: HelpExamples.discussion(
      """
      Steps, distance and energy count each moment once, from the highest-priority source that \
      recorded it (health.sources; by default Apple Watch, then iPhone, then other apps), as the \
      Health app does; a sample across midnight is split by time. Days follow time.zone (or TZ).
      """,
      examples: [
        "gym history daily --type steps --days 14",
        "gym history daily --type steps --since 2019-01-01 --until 2019-02-01",
        "gym history daily --type heartRate --days 7 -f csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "The sample type.") var type: SampleTypeArgument
  @Option(help: "How many days, today (or the day before --until) included.") var days = 30
  @OptionGroup var period: PeriodOptions
  @OptionGroup var sources: SourceOptions
  @OptionGroup var formatting: FormatOptions
  @OptionGroup var weight: WeightUnitOptions
  @OptionGroup var chart: ChartOptions
  var format: OutputFormat? { formatting.format }

  func validate() throws {
    if days < 1 || days > 3660 { throw ValidationError("--days must be from 1 to 3660") }
  }

  func run(context: CommandContext) throws {
    try BucketOutput.run(
      context, type: type, sources: sources, weight: weight, chart: chart, format: format, label: "day"
    ) {
      let (first, last) = try period.range()
      let count = try PeriodOptions.count(
        first: first, last: last, orElse: days, maximum: 3660, unit: "day", between: { $1.localDays - $0.localDays })
      return try SampleBuckets.daily($0, series: $1, days: count, selection: $2, now: last)
    }
  }
}

/// `gym history recent --type heartRate --hours 8`: one row per clock hour.
struct HistoryRecent: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "recent", abstract: "Samples of one type per hour over the last hours.",
    discussion: HelpExamples.discussion(examples: [
      "gym history recent --type steps --hours 12",
      "gym history recent --type heartRate -f json",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "The sample type.") var type: SampleTypeArgument
  @Option(help: "How many hours, the current one (or the one before --until) included.") var hours = 8
  @OptionGroup var period: PeriodOptions
  @OptionGroup var sources: SourceOptions
  @OptionGroup var formatting: FormatOptions
  @OptionGroup var weight: WeightUnitOptions
  @OptionGroup var chart: ChartOptions
  var format: OutputFormat? { formatting.format }

  func validate() throws {
    if hours < 1 || hours > 24 * 31 { throw ValidationError("--hours must be from 1 to 744") }
  }

  func run(context: CommandContext) throws {
    try BucketOutput.run(
      context, type: type, sources: sources, weight: weight, chart: chart, format: format, label: "hour"
    ) {
      let (first, last) = try period.range()
      let count = try PeriodOptions.count(
        first: first, last: last, orElse: hours, maximum: 24 * 31, unit: "hour",
        // Hours the range touches, counted between the hours each end falls in (10:59 to 11:00 is two).
        between: {
          $1.millisecondsSince1970.floorDivided(by: 3_600_000).quotient
            - $0.millisecondsSince1970.floorDivided(by: 3_600_000).quotient
        })
      return try SampleBuckets.hourly($0, series: $1, hours: count, selection: $2, now: last)
    }
  }
}

enum BucketOutput {
  /// Reads `type`'s buckets with `compute` (database, series, sources) in one read and prints them:
  /// what `daily`, `recent` and `trend` share.
  static func run(
    _ context: CommandContext, type: SampleTypeArgument, sources: SourceOptions, weight: WeightUnitOptions,
    chart: ChartOptions, format: OutputFormat?, label: String,
    _ compute: (Database, SampleSeries, SampleSelection) throws -> [SampleBucket]
  ) throws {
    let selection = sources.selection(context)
    let (series, buckets) = try context.openStore().read { db in
      let series = try SampleSeries.named(type.name, in: db)
      return (series, try compute(db, series, try selection.knowingModels(db)))
    }
    // Body mass in the unit asked for (--unit, units.weight); every other type as it is.
    let display = weight.display(context, columns: ["kg"])
    let shown =
      series.isWeight && display.unit == .lb
      ? buckets.map { bucket in
        SampleBucket(
          label: bucket.label, start: bucket.start, count: bucket.count, sum: bucket.sum.map(display.value),
          min: bucket.min.map(display.value), avg: bucket.avg.map(display.value), max: bucket.max.map(display.value))
      } : buckets
    let chosen = format ?? context.configuration.outputFormat
    // The chart of what the rows add up to: the sum of a cumulative type, the average of a level.
    let out = BufferedOutput.standardOutput()
    chart.draw(
      shown.map { (label: $0.label, value: series.kind != .rate ? $0.sum : $0.avg) },
      title: "\(series.name) per \(label)" + (series.kind != .rate ? "" : " (average)"),
      default: ChartOptions.ownStyle(points: shown.count), context: context, format: chosen, to: out, newestFirst: true)
    out.flush()
    write(shown, label: label, kind: series.kind, format: chosen)
  }

  static func columns(label: String, kind: SampleKind) -> [String] {
    kind != .rate ? [label, "count", "sum"] : [label, "count", "min", "avg", "max"]
  }

  /// The bucket's name: in a table its local wall-clock label, in a machine format its local start
  /// with the offset (`2026-11-21T14:00:00+01:00`), the same instant under any `TZ`.
  static func cells(_ bucket: SampleBucket, kind: SampleKind, format: OutputFormat) -> [Cell] {
    func real(_ value: Double?) -> Cell { value.map(Cell.real) ?? .null }
    let name = format == .table ? bucket.label : bucket.start.localISO8601
    let head: [Cell] = [.text(name), .integer(Int64(bucket.count))]
    return head + (kind != .rate ? [real(bucket.sum)] : [real(bucket.min), real(bucket.avg), real(bucket.max)])
  }

  static func write(_ buckets: [SampleBucket], label: String, kind: SampleKind, format: OutputFormat) {
    let writer = RecordWriter(format: format, columns: columns(label: label, kind: kind))
    for bucket in buckets { writer.write(cells(bucket, kind: kind, format: format)) }
    writer.finish(next: nil)
  }
}

/// `gym history trend --type restingHeartRate --weeks 12`: weekly min, average and max of a level
/// (heart-rate variability, VO2 max, respiratory rate, body mass, resting or walking heart rate).
struct HistoryTrend: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "trend",
    abstract: "A type's weekly min, average and max (resting heart rate, HRV, VO2 max, body mass …).",
    discussion: HelpExamples.discussion(
      """
      Weeks run Monday to Sunday in time.zone (or TZ), newest first, every week listed. Cumulative \
      types (steps, energy …) get each week's total instead, counted as in daily.
      """,
      examples: [
        "gym history trend --type bodyMass --weeks 8",
        "gym history trend --type heartRate -f csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "The sample type.") var type: SampleTypeArgument
  @Option(help: "How many weeks, this one (or the one before --until) included.") var weeks = 12
  @OptionGroup var period: PeriodOptions
  @OptionGroup var sources: SourceOptions
  @OptionGroup var formatting: FormatOptions
  @OptionGroup var weight: WeightUnitOptions
  @OptionGroup var chart: ChartOptions
  var format: OutputFormat? { formatting.format }

  func validate() throws {
    if weeks < 1 || weeks > 520 { throw ValidationError("--weeks must be from 1 to 520") }
  }

  func run(context: CommandContext) throws {
    try BucketOutput.run(
      context, type: type, sources: sources, weight: weight, chart: chart, format: format, label: "week"
    ) {
      let (first, last) = try period.range()
      let count = try PeriodOptions.count(
        first: first, last: last, orElse: weeks, maximum: 520, unit: "week",
        between: { (Timestamp.monday(ofDay: $1.localDays) - Timestamp.monday(ofDay: $0.localDays)) / 7 })
      return try SampleBuckets.weekly($0, series: $1, weeks: count, selection: $2, now: last)
    }
  }
}
