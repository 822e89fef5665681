import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym library list`: the list view — only the columns it shows, sorted in SQL, a page at a time.
struct LibraryList: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List works, last modified first: id, title, authors, status, rating, cover URL.",
    discussion: HelpExamples.discussion(
      """
      Only the listed fields are read; --fields chooses others. The cursor of the next page is \
      printed on stderr as 'next page: --after <cursor>'.
      """ + "\n\n" + FieldHelp.line(LibrarySchema.list),
      examples: [
        "gym library list --status toRead --fields id,title,authors",
        "gym library list -w 'rating >= 4' --sort rating:desc",
        "gym library list --author 'Le Guin'",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var filters: LibraryFilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  func run(context: CommandContext) throws {
    let query = try RecordListing.query(
      table: LibrarySchema.list, filters: try filters.predicates(), output: output, paging: paging,
      context: context, sort: sorting.keys, projection: LibrarySchema.listFields)
    try RecordListing.write(query, store: try context.openStore(), format: context.format(output), ids: output.ids)
  }
}

/// `gym library count`: how many works match, counted in SQL.
struct LibraryCount: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "count", abstract: "Count the works that match the filters.",
    discussion: HelpExamples.discussion(
      FieldHelp.line(LibrarySchema.list),
      examples: [
        "gym library count --status read",
        "gym library count -w 'rating == 5' -f json",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var filters: LibraryFilterOptions
  @OptionGroup var formatting: FormatOptions

  func run(context: CommandContext) throws {
    let query = Query(table: LibrarySchema.list, filter: RecordFilter.all(try filters.predicates()))
    try RecordListing.writeCount(query, store: try context.openStore(), formatting: formatting)
  }
}

/// `gym library authors`: every author with the number of works naming them, a list like the others.
struct LibraryAuthors: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "authors", abstract: "List authors with their number of works, by sort name or by works.",
    discussion: HelpExamples.discussion(
      FieldHelp.line(LibrarySchema.authorsList),
      examples: [
        "gym library authors --by works -n 10",
        "gym library authors -f csv",
        "gym library authors -w 'works >= 2' --fields name,works",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "The order: by sort name, or by number of works, most first.") var by: AuthorOrder?
  @OptionGroup var filter: FilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  enum AuthorOrder: String, CaseIterable, ExpressibleByArgument { case name, works }

  func validate() throws {
    if by != nil && sorting.sort != nil { throw ValidationError("give --by or --sort, not both") }
  }

  func run(context: CommandContext) throws {
    let table = LibrarySchema.authorsList
    let order = by == .works ? [SortKey("works", descending: true), SortKey("sortName")] : table.defaultSort
    let query = try RecordListing.query(
      table: table, filters: [try filter.predicate(for: table)].compactMap { $0 }, output: output, paging: paging,
      context: context, sort: sorting.keys ?? order)
    try RecordListing.write(query, store: try context.openStore(), format: context.format(output), ids: output.ids)
  }
}

extension LibraryAuthors: ListsTable {
  static var listedTable: TableSchema { LibrarySchema.authorsList }
}

extension LibraryList: ListsTable {
  static var listedTable: TableSchema { LibrarySchema.list }
}
