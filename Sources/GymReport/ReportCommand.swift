import ArgumentParser
import GymCLI
import GymCore
import GymHistory
import GymLibrary
import GymStaples

/// `gym report --out report.html [--since 90d] [--modules history,library,staples]`: one
/// self-contained HTML file of charts, read in one read transaction.
public struct ReportCommand: GymCommand {
  public static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write a self-contained HTML report: charts of training, health, reading and the pantry.",
    discussion: HelpExamples.discussion(
      """
      One file, inline CSS and SVG, no script and no network request (its Content-Security-Policy forbids \
      them); light and dark, and it prints on A4 and Letter. Every chart has a title, axis labels and its \
      numbers in text. A section appears when its module has data. The file is written to a temporary \
      name and renamed, so a reader never sees half of it.
      """,
      examples: [
        "gym report --out report.html",
        "gym report --out report.html --since 365d --modules history,library",
      ]))

  @OptionGroup(title: "Common options") public var global: GlobalOptions
  @Option(help: ArgumentHelp("The HTML file to write (- for stdout).", valueName: "file")) var out: String
  @Option(help: ArgumentHelp("From this date on (2026-01-01, 90d).", valueName: "date")) var since = "90d"
  @Option(help: ArgumentHelp("Only these modules, comma-separated: history, library, staples.", valueName: "a,b"))
  var modules: String?

  public init() {}

  var chosenModules: Set<Report.Module> {
    get throws {
      guard let modules else { return Set(Report.Module.allCases) }
      var chosen: Set<Report.Module> = []
      for name in modules.split(separator: ",").map(\.trimmed) where !name.isEmpty {
        guard let module = Report.Module(rawValue: name) else {
          throw ValidationError(
            "--modules: no module '\(name)'; choose from "
              + Report.Module.allCases.map(\.rawValue).joined(separator: ", "))
        }
        chosen.insert(module)
      }
      if chosen.isEmpty { throw ValidationError("--modules needs at least one of history, library, staples") }
      return chosen
    }
  }

  public func validate() throws {
    _ = try chosenModules
    if out.isEmpty { throw ValidationError("--out needs a file name, or - for stdout") }
  }

  public func run(context: CommandContext) throws {
    let from = try WhereParser.parseDate(since, option: "--since")
    let report = Report(
      store: try context.openStore(), since: from, modules: try chosenModules,
      goal: context.configuration.string(.readingGoal).flatMap { Int($0) },
      sources: context.configuration.list(.healthSources))
    let written = try report.write(to: out)
    printNote("wrote \(out == "-" ? "the report" : "'\(out)'"): \(written)")
  }
}
