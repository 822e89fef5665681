import ArgumentParser
import GymCLI
import GymCore

/// `gym history sets`: sets newest first, with `--exercise` one exercise's history as Strong and
/// Hevy show it.
struct HistorySets: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "sets",
    abstract: "List sets, newest first; with --exercise, one exercise's history (through renames and merges).",
    discussion: HelpExamples.discussion(
      """
      --exercise matches without regard to case or runs of spaces, and through renames and merges; a \
      name no set has is exit 66, naming the nearest exercise. Sets of one workout are in their order. \
      The cursor of the next page is printed on stderr as 'next page: --after <cursor>'.
      """ + "\n\n" + FieldHelp.line(TrainingSets.table),
      examples: [
        "gym history sets --exercise 'bench press (barbell)' -n 10",
        "gym history sets --exercise 'Bench Press (Barbell)' --since 1w -w 'kind != \"warmup\"' --fields completedAt,weightKg,reps",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var exercise: ExerciseOption
  @OptionGroup var dates: DateRangeOptions
  @OptionGroup var filter: FilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions
  @OptionGroup var units: WeightUnitOptions

  func run(context: CommandContext) throws {
    let table = TrainingSets.table
    let store = try context.openStore()
    var filters = [try filter.predicate(for: table)].compactMap { $0 } + (try dates.predicates(on: "completedAt"))
    if let spellings = try store.read({ db in try exercise.spellings(db) }) {
      filters.append(.isIn("exercise", spellings.map { .text($0) }))
    }
    let query = try RecordListing.query(
      table: table, filters: filters, output: output, paging: paging, context: context, sort: sorting.keys)
    try RecordListing.write(
      query, store: store, format: context.format(output), ids: output.ids,
      weights: units.display(context, columns: ["weightKg"]))
  }

}

extension HistorySets: ListsTable {
  static var listedTable: TableSchema { TrainingSets.table }
}
