import ArgumentParser
import GymCLI
import GymCore

/// `gym staples [list] [--category C] [--all]`: staples sorted by category, then name.
struct StaplesList: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the staples (with --all, every item), by category then name.")

  @OptionGroup var global: GlobalOptions
  @Option(help: "Only this category (any case).") var category: String?
  @Flag(help: "Include items that are not staples.") var all = false
  @OptionGroup var filter: FilterOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  func run(context: CommandContext) throws {
    var filters = StaplesQueries.itemFilters(category: category, all: all)
    if let predicate = try filter.predicate(for: StaplesSchema.items) { filters.append(predicate) }
    let query = try RecordListing.query(
      table: StaplesSchema.items, filters: filters, output: output, paging: paging, context: context)
    let store = try context.openStore()
    if let category { try store.read { try StaplesQueries.checkCategory($0, category) } }
    try RecordListing.write(query, store: store, format: context.format(output), ids: output.ids)
  }
}

/// `gym staples categories`: each category with its items and staples, counted in SQL.
struct StaplesCategories: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "categories", abstract: "The categories, with how many items and staples each has.")

  @OptionGroup var global: GlobalOptions
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
