import ArgumentParser
import GymCLI
import GymCore

/// `gym history list`: newest first, a page at a time.
struct HistoryList: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List workouts, newest first unless --sort says (20 per page in a table).",
    discussion: HelpExamples.discussion(
      "The cursor of the next page is printed on stderr as 'next page: --after <cursor>'." + "\n\n"
        + FieldHelp.line(WorkoutSchema.table),
      examples: [
        "gym history list --since 30d --status completed",
        "gym history list -w 'durationMinutes >= 45' --fields id,planTitle",
        "gym history list --sort durationMinutes:desc -n 5",
        "gym history list -f ndjson > workouts-copy.ndjson",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var filters: WorkoutFilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  func run(context: CommandContext) throws {
    let query = try RecordListing.query(
      table: WorkoutSchema.table, filters: try filters.predicates(), output: output, paging: paging,
      context: context, sort: sorting.keys)
    try RecordListing.write(query, store: try context.openStore(), format: context.format(output), ids: output.ids)
  }
}

extension HistoryList: ListsTable {
  static var listedTable: TableSchema { WorkoutSchema.table }
}
