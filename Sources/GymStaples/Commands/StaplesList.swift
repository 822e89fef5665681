import ArgumentParser
import GymCLI
import GymCore

/// Which items a staples list or count takes: a category, staples only unless --all, and --where.
struct StaplesItemFilters: ParsableArguments {
  @Option(help: "Only this category (any case).", completion: .custom(StaplesCompletion.categories))
  var category: String?
  @Flag(help: "Include items that are not staples.") var all = false
  @OptionGroup var filter: FilterOptions

  func predicates() throws -> [RecordFilter] {
    var filters = StaplesQueries.itemFilters(category: category, all: all)
    if let predicate = try filter.predicate(for: StockSchema.itemList) { filters.append(predicate) }
    return filters
  }

  /// Opens the store and checks the category, which suggests the nearest one when it is unknown.
  func openStore(_ context: CommandContext) throws -> Store {
    let store = try context.openStore()
    if let category { try store.read { try StaplesQueries.checkCategory($0, category) } }
    return store
  }
}

/// `gym staples [list] [--category C] [--all]`: staples sorted by category, then name.
struct StaplesList: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the staples (with --all, every item), by category then name.",
    discussion: HelpExamples.discussion(
      FieldHelp.line(StockSchema.itemList),
      examples: [
        "gym staples list --category dairy",
        "gym staples list --all -w 'quantity == 0' --fields name,category",
        "gym staples list --all -w 'bestBefore != nil' --sort bestBefore --fields name,quantity,unit,bestBefore",
        "gym staples list --sort quantity:desc -n 5",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var filters: StaplesItemFilters
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  func run(context: CommandContext) throws {
    let query = try RecordListing.query(
      table: StockSchema.itemList, filters: try filters.predicates(), output: output, paging: paging, context: context,
      sort: sorting.keys)
    try RecordListing.write(
      query, store: try filters.openStore(context), format: context.format(output), ids: output.ids)
  }
}

/// `gym staples count`: how many items match (the same filters as list).
struct StaplesCount: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "count", abstract: "Count the items that match (same filters as list).",
    discussion: HelpExamples.discussion(
      FieldHelp.line(StockSchema.itemList),
      examples: [
        "gym staples count --all",
        "gym staples count --category Bakery -f json",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var filters: StaplesItemFilters
  @OptionGroup var formatting: FormatOptions

  func run(context: CommandContext) throws {
    let query = Query(table: StockSchema.itemList, filter: RecordFilter.all(try filters.predicates()))
    try RecordListing.writeCount(query, store: try filters.openStore(context), formatting: formatting)
  }
}

/// `gym staples show NAME`: one item, every field.
struct StaplesShow: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Show an item, every field.",
    discussion: HelpExamples.discussion(
      FieldHelp.line(StockSchema.itemList),
      examples: [
        "gym staples show Milk",
        "gym staples show Milk -f json",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The item's name (any case).", completion: .custom(StaplesCompletion.itemNames)) var name: String
  @OptionGroup var formatting: FormatOptions

  func run(context: CommandContext) throws {
    let query = try Query(
      table: StockSchema.itemList, filter: .compare("name", .equal, .text(name.trimmed)), limit: 1
    ).compiled()
    var cells: [Cell]?
    _ = try context.openStore().read { db in try query.forEachRow(db) { cells = RecordListing.cells($0, query.fields) }
    }
    guard let cells else { throw StoreError.notFound(table: "item", key: name) }
    RecordListing.writeOne(cells, fields: query.fields, format: context.format(formatting))
  }
}

/// `gym staples categories`: each category with its items and staples, counted in SQL.
struct StaplesCategories: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "categories", abstract: "The categories, with how many items and staples each has.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples categories",
      "gym staples categories -f csv",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func run(context: CommandContext) throws {
    let rows = try context.openStore().read { try StaplesQueries.categories($0) }
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat, columns: ["category", "items", "staples"])
    for row in rows { writer.write(row) }
    writer.finish(next: nil)
  }
}

extension StaplesList: ListsTable {
  static var listedTable: TableSchema { StockSchema.itemList }
}
