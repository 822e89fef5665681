import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym history samples`: health samples — list, count, import, generate.
struct SamplesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "samples",
    abstract: "Health samples (steps, heart rate, sleep …): list, count, sources, types, import, generate.",
    discussion: HelpExamples.discussion(examples: [
      "gym history samples types",
      "gym history samples list --type steps -n 10",
    ]),
    subcommands: [
      SamplesList.self, SamplesCount.self, SamplesSources.self, SamplesTypes.self, SamplesImport.self,
      SamplesGenerate.self,
    ])
}

/// `--type`, `--since`, `--until`, `--where` over samples (dates compare with `start`).
struct SampleFilterOptions: ParsableArguments {
  @Option(help: "Only samples of this type.") var type: SampleTypeArgument?
  @OptionGroup var dates: DateRangeOptions
  @OptionGroup var filter: FilterOptions

  func predicates() throws -> [RecordFilter] {
    var result: [RecordFilter] = []
    if let type { result.append(.compare("type", .equal, .text(type.name))) }
    result += try dates.predicates(on: "start")
    if let predicate = try filter.predicate(for: SampleSchema.table) { result.append(predicate) }
    return result
  }
}

/// A sample type as a command-line argument: one gym knows (listed in help), or any other the
/// database holds as an export wrote it (`gym history samples types`).
struct SampleTypeArgument: ExpressibleByArgument, Sendable {
  let name: String
  var rawValue: String { name }

  init?(argument: String) {
    // Any text an import stores as a type (`samples import` takes `my type`), bound as a value:
    // only what no type can hold is refused.
    guard !argument.isEmpty, argument.count <= 200,
      !argument.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 })
    else { return nil }
    name = argument
  }

  static var allValueStrings: [String] { SampleType.allCases.map(\.rawValue) }
  /// The types the database holds, not only the ones gym converts.
  static var defaultCompletionKind: CompletionKind { .custom(HistoryCompletion.sampleTypes) }
}

struct SamplesList: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List samples, newest first.",
    discussion: HelpExamples.discussion(
      FieldHelp.line(SampleSchema.table),
      examples: [
        "gym history samples list --type heartRate --since 1d",
        "gym history samples list --type steps -w 'value > 100' --fields start,value",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var filters: SampleFilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  func run(context: CommandContext) throws {
    let query = try RecordListing.query(
      table: SampleSchema.table, filters: try filters.predicates(), output: output, paging: paging, context: context,
      sort: sorting.keys)
    try RecordListing.write(query, store: try context.openStore(), format: context.format(output), ids: output.ids)
  }
}

struct SamplesCount: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "count", abstract: "Count samples (same filters as list).",
    discussion: HelpExamples.discussion(
      FieldHelp.line(SampleSchema.table),
      examples: [
        "gym history samples count --type steps",
        "gym history samples count --since 7d -f json",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var filters: SampleFilterOptions
  @OptionGroup var formatting: FormatOptions

  func run(context: CommandContext) throws {
    let query = Query(table: SampleSchema.table, filter: RecordFilter.all(try filters.predicates()))
    try RecordListing.writeCount(query, store: try context.openStore(), formatting: formatting)
  }
}

/// `gym history samples sources`: each source with its types, how many samples, the first and
/// last dates, in the order in which they count (`health.sources`, then Watch, iPhone, others).
struct SamplesSources: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "sources",
    abstract: "List the sources of health samples in priority order, with their types, counts and dates.",
    discussion: HelpExamples.discussion(examples: [
      "gym history samples sources",
      "gym history samples sources -f csv",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func run(context: CommandContext) throws {
    let (rows, models) = try context.openStore().read { db in
      (
        try Row.fetchAll(
          db, sql: "SELECT source, type, COUNT(*), MIN(start), MAX(\"end\") FROM sample GROUP BY source, type"),
        try SampleSources.kinds(db)
      )
    }
    var bySource: [String: (types: [String], samples: Int, first: String, last: String)] = [:]
    for row in rows {
      let source: String = row[0]
      var entry = bySource[source] ?? ([], 0, row[3], row[4])
      entry.types.append(row[1])
      entry.samples += row[2] as Int
      entry.first = min(entry.first, row[3])
      entry.last = max(entry.last, row[4])
      bySource[source] = entry
    }
    let priority = SourcePriority(patterns: context.configuration.list(.healthSources), kinds: models)
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat,
      columns: ["priority", "source", "types", "samples", "first", "last"])
    for (rank, source) in priority.ordered(bySource.keys).enumerated() {
      let entry = bySource[source]!
      writer.write([
        .integer(Int64(rank + 1)), .text(source), .text(entry.types.sorted().joined(separator: ", ")),
        .integer(Int64(entry.samples)), .timestamp(entry.first), .timestamp(entry.last),
      ])
    }
    writer.finish(next: nil)
  }
}

/// `gym history samples types`: every type the database holds, with its unit, how it adds up,
/// how many samples and the first and last dates.
struct SamplesTypes: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "types", abstract: "List the sample types held, with unit, kind, count and dates.",
    discussion: HelpExamples.discussion(examples: [
      "gym history samples types",
      "gym history samples types -f json",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func run(context: CommandContext) throws {
    let rows = try context.openStore().read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT type, unit, COUNT(*), MIN(start), MAX(\"end\") FROM sample GROUP BY type, unit ORDER BY type, unit"
      )
    }
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat,
      columns: ["type", "unit", "kind", "samples", "first", "last"])
    for row in rows {
      let type: String = row[0]
      let unit: String = row[1]
      writer.write([
        .text(type), .text(unit), .text(SampleKind.of(type, unit: unit).rawValue), .integer(row[2]),
        .timestamp(row[3]), .timestamp(row[4]),
      ])
    }
    writer.finish(next: nil)
  }
}

extension SamplesList: ListsTable {
  static var listedTable: TableSchema { SampleSchema.table }
}
