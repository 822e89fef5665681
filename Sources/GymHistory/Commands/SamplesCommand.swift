import ArgumentParser
import GymCLI
import GymCore

/// `gym history samples`: health samples — list, count, import, generate.
struct SamplesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "samples",
    abstract: "Health samples (steps, heart rate, sleep …): list, count, import, generate.",
    subcommands: [SamplesList.self, SamplesCount.self, SamplesImport.self, SamplesGenerate.self])
}

/// `--type`, `--since`, `--until`, `--where` over samples (dates compare with `start`).
struct SampleFilterOptions: ParsableArguments {
  @Option(help: "Only samples of this type.") var type: SampleTypeArgument?
  @Option(help: ArgumentHelp("Starting at or after this date (2026-11-01, 7d, 'now - 2w').", valueName: "date"))
  var since: String?
  @Option(help: ArgumentHelp("Starting before this date.", valueName: "date")) var until: String?
  @OptionGroup var filter: FilterOptions

  func predicates() throws -> [Predicate] {
    var result: [Predicate] = []
    if let type { result.append(.compare("type", .equal, .text(type.rawValue))) }
    if let since {
      result.append(.compare("start", .greaterOrEqual, .timestamp(try WhereParser.parseDate(since, option: "--since"))))
    }
    if let until {
      result.append(.compare("start", .less, .timestamp(try WhereParser.parseDate(until, option: "--until"))))
    }
    if let expression = filter.expression {
      result.append(try WhereParser.parse(expression, table: SampleSchema.table))
    }
    return result
  }
}

/// The sample types as a command-line argument.
struct SampleTypeArgument: ExpressibleByArgument, Sendable {
  let type: SampleType
  var rawValue: String { type.rawValue }

  init?(argument: String) {
    guard let type = SampleType(rawValue: argument) else { return nil }
    self.type = type
  }

  static var allValueStrings: [String] { SampleType.allCases.map(\.rawValue) }
}

struct SamplesList: GymCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "List samples, newest first.")

  @OptionGroup var global: GlobalOptions
  @OptionGroup var filters: SampleFilterOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  func run(context: CommandContext) throws {
    let query = try RecordListing.query(
      table: SampleSchema.table, filters: try filters.predicates(), output: output, paging: paging, context: context)
    try RecordListing.write(query, store: try context.openStore(), format: context.format(output))
  }
}

struct SamplesCount: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "count", abstract: "Count samples (same filters as list).")

  @OptionGroup var global: GlobalOptions
  @OptionGroup var filters: SampleFilterOptions

  func run(context: CommandContext) throws {
    let query = Query(table: SampleSchema.table, filter: Predicate.all(try filters.predicates()))
    try RecordListing.writeCount(query, store: try context.openStore())
  }
}
