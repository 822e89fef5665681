import ArgumentParser
import GymCLI
import GymCore

/// `gym history stats`: weekly sessions and minutes, current streak, split by focus.
struct HistoryStats: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "Sessions and minutes per week, the current streak, and the split by focus.",
    discussion: HelpExamples.discussion(examples: [
      "gym history stats",
      "gym history stats --weeks 12 -f json",
      "gym history stats --table focus -f csv",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "How many weeks back, this week included.") var weeks = 12
  @Option(help: "Only this table; csv, tsv and ndjson print one table each, so they need it.")
  var table: StatsTable?
  @OptionGroup var formatting: FormatOptions
  @OptionGroup var chart: ChartOptions
  var format: OutputFormat? { formatting.format }

  /// The three tables stats prints.
  enum StatsTable: String, CaseIterable, ExpressibleByArgument {
    case weeks, streak, focus
  }

  func validate() throws {
    if weeks < 1 || weeks > 520 { throw ValidationError("--weeks must be from 1 to 520") }
  }

  func run(context: CommandContext) throws {
    let store = try context.openStore()
    let stats = try store.read { try WorkoutStats.compute($0, weeks: weeks) }
    let format = format ?? context.configuration.outputFormat
    let out = BufferedOutput.standardOutput()
    switch format {
    case .table:
      if table == nil || table == .weeks {
        chart.draw(
          stats.weeks.map { (label: $0.week, value: $0.minutes.map(Double.init)) }, title: "minutes per week",
          default: ChartOptions.ownStyle(points: stats.weeks.count), context: context, format: format, to: out,
          newestFirst: true)
        let weekTable = RecordWriter(format: .table, columns: ["week", "sessions", "minutes"], out: out)
        for w in stats.weeks {
          weekTable.write(w.cells)
        }
        weekTable.finish(next: nil)
      }
      if table == nil || table == .streak {
        let since = stats.streakSince.map { " (since \($0))" } ?? ""
        let gap = table == nil ? "\n" : ""
        out.write("\(gap)current streak: \(stats.streakDays) day\(stats.streakDays == 1 ? "" : "s")\(since)\n\(gap)")
      }
      if table == nil || table == .focus {
        let focusTable = RecordWriter(format: .table, columns: ["focus", "sessions", "minutes"], out: out)
        for f in stats.byFocus {
          focusTable.write(f.cells)
        }
        focusTable.finish(next: nil)
      }
      out.flush()
    case .json where table == nil:
      let weeks = stats.weeks.map {
        [
          "week": .text($0.week), "sessions": .integer($0.sessions),
          "minutes": $0.minutes.map(JSONValue.integer) ?? .null,
        ] as JSONValue
      }
      let focus = stats.byFocus.map {
        [
          "focus": .text($0.focus), "sessions": .integer($0.sessions),
          "minutes": $0.minutes.map(JSONValue.integer) ?? .null,
        ] as JSONValue
      }
      let document: JSONValue = [
        "weeks": .array(weeks), "streak": ["days": .integer(stats.streakDays), "since": .text(stats.streakSince)],
        "byFocus": .array(focus),
      ]
      document.writeLine(to: out)
    case .json, .ndjson, .csv, .tsv:
      // One table per output: a CSV of three tables in one has no single header to read it by.
      guard let table else {
        throw GymError.usage(
          "stats prints three tables; --format \(format.rawValue) takes one: add --table weeks, streak or focus")
      }
      switch table {
      case .weeks:
        let writer = RecordWriter(format: format, columns: ["week", "sessions", "minutes"], out: out)
        for w in stats.weeks {
          writer.write(w.cells)
        }
        writer.finish(next: nil)
      case .streak:
        let writer = RecordWriter(format: format, columns: ["days", "since"], out: out)
        writer.write([.integer(Int64(stats.streakDays)), stats.streakSince.map(Cell.text) ?? .null])
        writer.finish(next: nil)
      case .focus:
        let writer = RecordWriter(format: format, columns: ["focus", "sessions", "minutes"], out: out)
        for f in stats.byFocus {
          writer.write(f.cells)
        }
        writer.finish(next: nil)
      }
    }
  }
}

/// A week's and a focus's row as both tables print them: minutes empty when unknown.
extension WorkoutStats.Week {
  var cells: [Cell] { [.text(week), .integer(Int64(sessions)), minutes.map { .integer(Int64($0)) } ?? .null] }
}

extension WorkoutStats.FocusShare {
  var cells: [Cell] {
    [focus.map(Cell.text) ?? .null, .integer(Int64(sessions)), minutes.map { .integer(Int64($0)) } ?? .null]
  }
}
