import ArgumentParser
import GymCLI
import GymCore

/// `gym history sleep --nights 14`: one row per night, as the Health app shows a night.
struct HistorySleep: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "sleep",
    abstract: "Sleep per night: bedtime, wake time, minutes in bed, asleep, awake and in each stage.",
    discussion: HelpExamples.discussion(
      """
      A night is named by the local date it ends and holds the sleep that starts from 18:00 the \
      evening before to 18:00 that day. Asleep is core, deep, REM and unspecified sleep from the \
      highest-ranked source that recorded stages (health.sources; by default Apple Watch, then \
      iPhone, then other apps); awake time is not sleep. In bed comes from the highest-ranked source \
      that recorded in-bed time, which may be another (the phone's in-bed, the watch's stages). \
      Within one source overlapping records count once. Minutes unknown to every source are empty.
      """,
      examples: [
        "gym history sleep",
        "gym history sleep --since 2019-01-01 --until 2019-02-01 -f csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "How many nights, last night (or the night before --until) included.") var nights = 14
  @OptionGroup var period: PeriodOptions
  @OptionGroup var sources: SourceOptions
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  static let columns = [
    "night", "bedtime", "wake", "inBed", "asleep", "awake", "core", "deep", "rem", "unspecified", "source",
    "inBedSource",
  ]

  func validate() throws {
    if nights < 1 || nights > 3660 { throw ValidationError("--nights must be from 1 to 3660") }
  }

  func run(context: CommandContext) throws {
    let (first, last) = try period.range()
    let selection = sources.selection(context)
    // The newest night is the one `--until`'s last instant falls on; without it, last night (the
    // night that ended today, until 06:00 the day after).
    let end = period.until == nil ? SleepNights.lastNightInstant(now: last) : last
    let count = try PeriodOptions.count(
      first: first, last: end, orElse: nights, maximum: 3660, unit: "night", between: { $1.localDays - $0.localDays })
    let newest = end.localDays
    let rows = try context.openStore().read { db in
      count < 1
        ? []
        : try SleepNights.nights(
          db, from: SleepNights.label(day: newest - Int64(count - 1)), to: SleepNights.label(day: newest),
          selection: try selection.knowingModels(db))
    }
    let writer = RecordWriter(format: format ?? context.configuration.outputFormat, columns: Self.columns)
    func minutes(_ value: Double?) -> Cell { value.map { .real(SampleBuckets.rounded($0)) } ?? .null }
    for night in rows {
      func time(_ value: Timestamp?) -> Cell { value.map { Cell.timestamp($0.canonical) } ?? .null }
      func text(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }
      let cells: [Cell] = [
        .text(night.night), time(night.bedtime), time(night.wake), minutes(night.inBed), minutes(night.asleep),
        minutes(night.awake), minutes(night.core), minutes(night.deep), minutes(night.rem), minutes(night.unspecified),
        text(night.source), text(night.inBedSource),
      ]
      writer.write(cells)
    }
    writer.finish(next: nil)
  }
}
