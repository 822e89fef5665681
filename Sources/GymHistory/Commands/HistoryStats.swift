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
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "How many weeks back, this week included.") var weeks = 12
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

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
      let weekTable = RecordWriter(format: .table, columns: ["week", "sessions", "minutes"], out: out)
      for w in stats.weeks {
        weekTable.write([.text(w.week), .integer(Int64(w.sessions)), .integer(Int64(w.minutes))])
      }
      weekTable.finish(next: nil)
      let since = stats.streakSince.map { " (since \($0))" } ?? ""
      out.write("\ncurrent streak: \(stats.streakDays) day\(stats.streakDays == 1 ? "" : "s")\(since)\n\n")
      let focusTable = RecordWriter(format: .table, columns: ["focus", "sessions", "minutes"], out: out)
      for f in stats.byFocus {
        focusTable.write([f.focus.map(Cell.text) ?? .null, .integer(Int64(f.sessions)), .integer(Int64(f.minutes))])
      }
      focusTable.finish(next: nil)
    case .json:
      var bytes: [UInt8] = []
      func list(_ rows: [(String, String?, Int, Int)]) -> String {
        rows.map {
          "{\(JSONText.string($0.0)):\($0.1.map(JSONText.string) ?? "null"),\"sessions\":\($0.2),\"minutes\":\($0.3)}"
        }
        .joined(separator: ",")
      }
      let weeksJSON = list(stats.weeks.map { ("week", $0.week, $0.sessions, $0.minutes) })
      let focusJSON = list(stats.byFocus.map { ("focus", $0.focus, $0.sessions, $0.minutes) })
      let since = stats.streakSince.map(JSONText.string) ?? "null"
      bytes.append(
        contentsOf:
          "{\"weeks\":[\(weeksJSON)],\"streak\":{\"days\":\(stats.streakDays),\"since\":\(since)},\"byFocus\":[\(focusJSON)]}\n"
          .utf8)
      out.write(bytes: bytes)
      out.flush()
    case .ndjson, .csv, .tsv:
      let writer = RecordWriter(format: format, columns: ["section", "key", "sessions", "minutes"], out: out)
      for w in stats.weeks {
        writer.write([.text("week"), .text(w.week), .integer(Int64(w.sessions)), .integer(Int64(w.minutes))])
      }
      writer.write([
        .text("streak"), stats.streakSince.map(Cell.text) ?? .null, .integer(Int64(stats.streakDays)), .null,
      ])
      for f in stats.byFocus {
        writer.write([
          .text("focus"), f.focus.map(Cell.text) ?? .null, .integer(Int64(f.sessions)), .integer(Int64(f.minutes)),
        ])
      }
      writer.finish(next: nil)
    }
  }
}
