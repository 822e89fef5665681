import ArgumentParser
import GymCLI
import GymCore

/// `gym history count`: the number of workouts matching the same filters as `list`.
struct HistoryCount: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "count", abstract: "Count workouts (same filters as list).",
    discussion: HelpExamples.discussion(
      FieldHelp.line(WorkoutSchema.table),
      examples: [
        "gym history count --status skipped",
        "gym history count --since 7d -f json",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var filters: WorkoutFilterOptions
  @OptionGroup var formatting: FormatOptions

  func run(context: CommandContext) throws {
    let query = Query(table: WorkoutSchema.table, filter: RecordFilter.all(try filters.predicates()))
    try RecordListing.writeCount(query, store: try context.openStore(), formatting: formatting)
  }
}
