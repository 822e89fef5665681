import ArgumentParser
import GymCLI
import GymCore

/// `gym history summary`: the dashboard — today, the last hours, last night, this week.
struct HistorySummary: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "summary",
    abstract: "Today's steps, heart rate and steps by hour, body mass, last night's sleep, this week's workouts.",
    discussion: HelpExamples.discussion(
      "Read in one transaction: the figures agree even while an import runs.",
      examples: [
        "gym history summary",
        "gym history summary -f json",
        "gym history summary --until 2019-06-01T08:00",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(
    help: ArgumentHelp("The summary as of this moment (2019-06-01T08:00, 30d) instead of now.", valueName: "date"))
  var until: String?  // a moment, not a range: the summary has no --since
  @OptionGroup var sources: SourceOptions
  @OptionGroup var formatting: FormatOptions
  @OptionGroup var weight: WeightUnitOptions
  @OptionGroup var chart: ChartOptions
  var format: OutputFormat? { formatting.format }

  func validate() throws {
    if let format, format != .table && format != .json {
      throw ValidationError("summary is written as table or json, not \(format.rawValue)")
    }
  }

  func run(context: CommandContext) throws {
    let now = try until.map { try WhereParser.parseDate($0, option: "--until") } ?? .now()
    let summary = try context.openStore().read {
      try HealthSummary.compute($0, selection: try sources.selection(context).knowingModels($0), now: now)
    }
    let chosen = format ?? context.configuration.outputFormat
    let out = BufferedOutput.standardOutput()
    let display = weight.display(context, columns: [])
    if chosen == .json {
      SummaryJSON.render(summary, display: display).writeLine(to: out)
      return
    }
    func number(_ value: Double) -> String { Cell.real(value).plainText(localTime: true) }
    func known(_ value: Double?) -> String { value.map(number) ?? "unknown" }
    let heart = summary.latestHeartRate.map {
      "\(number($0.value)) count/min at \(Cell.timestamp($0.at).plainText(localTime: true))"
    }
    out.write("steps today: \(number(summary.stepsToday.rounded()))\n")  // shares of samples, in whole steps
    out.write("latest heart rate: \(heart ?? "none")\n")
    let minutes = summary.workoutMinutesThisWeek.map { "\($0) min" } ?? "minutes unknown"
    out.write(
      "workouts this week: \(summary.workoutsThisWeek)\(summary.workoutsThisWeek > 0 ? " (\(minutes))" : "")\n\n")
    out.write("last \(HealthSummary.hours) hours\n")
    chart.draw(
      summary.stepsByHour.map { (label: $0.label, value: $0.sum ?? 0) }, title: "steps by hour", default: .spark,
      context: context, format: .table, to: out, newestFirst: true)
    let hours = RecordWriter(format: .table, columns: ["hour", "steps", "hr_min", "hr_avg", "hr_max"], out: out)
    for (steps, heart) in zip(summary.stepsByHour, summary.heartRateByHour) {
      hours.write([
        .text(steps.label), .real(steps.sum ?? 0), heart.min.map(Cell.real) ?? .null,
        heart.avg.map(Cell.real) ?? .null, heart.max.map(Cell.real) ?? .null,
      ])
    }
    hours.finish(next: nil)
    out.write("\nbody mass (\(display.unit.rawValue))\n")
    let mass = RecordWriter(format: .table, columns: ["at", display.unit.rawValue], out: out)
    for reading in summary.bodyMass { mass.write([.timestamp(reading.at), .real(display.value(reading.value))]) }
    mass.finish(next: nil)
    out.write(
      "\nlast night's sleep (min): in bed \(known(summary.lastNightInBed)), asleep \(known(summary.lastNightAsleep))\n"
    )
    let sleep = RecordWriter(format: .table, columns: ["stage", "minutes"], out: out)
    for stage in summary.lastNightSleep { sleep.write([.text(stage.stage), .real(stage.minutes)]) }
    sleep.finish(next: nil)
  }
}

enum SummaryJSON {
  /// Body mass in the unit asked for, which `bodyMassUnit` names.
  static func render(_ s: HealthSummary, display: WeightDisplay) -> JSONValue {
    func reading(_ r: HealthSummary.Reading) -> JSONValue { ["at": .text(r.at), "value": .number(r.value)] }
    func bucket(_ b: SampleBucket) -> JSONValue {
      [
        "hour": .text(b.start.localISO8601), "count": .integer(b.count), "sum": .number(b.sum), "min": .number(b.min),
        "avg": .number(b.avg), "max": .number(b.max),
      ]
    }
    return [
      "stepsToday": .number(s.stepsToday), "latestHeartRate": s.latestHeartRate.map(reading) ?? .null,
      "heartRateByHour": .array(s.heartRateByHour.map(bucket)), "stepsByHour": .array(s.stepsByHour.map(bucket)),
      "bodyMassUnit": .text(display.unit.rawValue),
      "bodyMass": .array(s.bodyMass.map { reading(.init(at: $0.at, value: display.value($0.value))) }),
      "lastNightInBed": .number(s.lastNightInBed), "lastNightAsleep": .number(s.lastNightAsleep),
      "lastNightSleep": .array(s.lastNightSleep.map { ["stage": .text($0.stage), "minutes": .number($0.minutes)] }),
      "workoutsThisWeek": [
        "sessions": .integer(s.workoutsThisWeek), "minutes": s.workoutMinutesThisWeek.map { .integer($0) } ?? .null,
      ],
    ]
  }
}
