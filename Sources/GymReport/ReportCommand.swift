import ArgumentParser
import GymCLI
import GymCore

/// `gym report --out report.html [--since DATE|all] [--modules history,library,staples]`: one
/// self-contained HTML file of charts, read in one read transaction.
public struct ReportCommand: GymCommand {
  public static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write a self-contained HTML report: charts of training, health, reading and the pantry.",
    discussion: HelpExamples.discussion(
      """
      One file, inline CSS and SVG, no script and no network request (its Content-Security-Policy forbids \
      them); light and dark, one column that fits a phone, and it prints on A4 and Letter. Every chart has a \
      title, axis labels and its numbers in text. Without --since it covers the last 12 months of your data \
      (up to your latest record); --since all covers all of it. A long period is drawn by week, month or \
      quarter, never cut. A section appears when its module has data. The file is written to a temporary \
      name and renamed, so a reader never sees half of it.
      """,
      examples: [
        "gym report --out report.html",
        "gym report --out report.html --since all --modules history,library",
        "gym report --out 2019.html --since 2019-01-01 --until 2020-01-01",
      ]))

  @OptionGroup(title: "Common options") public var global: GlobalOptions
  @Option(help: ArgumentHelp("The HTML file to write (- for stdout).", valueName: "file")) var out: String
  @OptionGroup var dates: DateRangeOptions
  @Option(
    help: ArgumentHelp(
      "Only these modules, comma-separated: \(ModuleRegistry.reports.map(\.module).joined(separator: ", ")).",
      valueName: "a,b"))
  var modules: String?

  public init() {}

  /// The registered modules' contributions `--modules` names, in the registry's order; all without it.
  var chosen: [ReportContribution] {
    get throws {
      let registered = ModuleRegistry.reports
      guard let modules else { return registered }
      let names = modules.split(separator: ",").map(\.trimmed).filter { !$0.isEmpty }
      let known = registered.map(\.module)
      if let unknown = names.first(where: { !known.contains($0) }) {
        throw ValidationError("--modules: no module '\(unknown)'; choose from " + known.joined(separator: ", "))
      }
      if names.isEmpty {
        throw ValidationError("--modules needs at least one of " + known.joined(separator: ", "))
      }
      return registered.filter { names.contains($0.module) }
    }
  }

  public func validate() throws {
    _ = try chosen
    if out.isEmpty { throw ValidationError("--out needs a file name, or - for stdout") }
  }

  public func run(context: CommandContext) throws {
    let now = Timestamp.now()
    let (from, until) = try dates.bounds(now: now)
    if let from, until == nil, from >= now {
      throw GymError.usage("--since \(dates.since ?? "") is not before now; give a past date, or --until")
    }
    let report = Report(
      store: try context.openStore(), since: from, sinceAll: dates.sinceAll, until: until, contributions: try chosen,
      configuration: context.configuration)
    let written = try report.write(to: out, now: now)
    printNote("wrote \(out == "-" ? "the report" : "'\(out)'"): \(written)")
  }
}
