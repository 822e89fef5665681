import ArgumentParser
import GymCLI
import GymCore

/// `gym history exercises`: every exercise the sets name, one row whatever its spellings.
struct HistoryExercises: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "exercises",
    abstract: "List exercises: sets, sessions, first and last date, best e1RM (Epley) and heaviest weight.",
    discussion: HelpExamples.discussion(
      """
      Names match without regard to case or runs of spaces; an exercise is listed by its latest \\
      spelling. Warm-up sets count as sets but never towards the e1RM or the heaviest weight.
      """ + "\\n\\n" + FieldHelp.line(TrainingSchema.exercises),
      examples: [
        "gym history exercises",
        "gym history exercises --sort bestE1RM:desc -n 5",
        "gym history exercises -w 'sessions >= 2' --fields exercise,sessions,last",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var filter: FilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  func run(context: CommandContext) throws {
    let table = TrainingSchema.exercises
    let query = try RecordListing.query(
      table: table, filters: [try filter.predicate(for: table)].compactMap { $0 }, output: output, paging: paging,
      context: context, sort: sorting.keys)
    try RecordListing.write(query, store: try context.openStore(), format: context.format(output), ids: output.ids)
  }
}

extension HistoryExercises: ListsTable {
  static var listedTable: TableSchema { TrainingSchema.exercises }
}

/// `gym history prs`: personal records per exercise.
struct HistoryPRs: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "prs",
    abstract: "Personal records per exercise: heaviest, best e1RM, best set and session volume.",
    discussion: HelpExamples.discussion(
      """
      From working sets only (warm-ups never count). e1RM from sets of 1 to 12 reps: a single is its \\
      weight, else Epley w × (1 + r/30), or Brzycki w × 36 / (37 − r). Set volume is weight × reps; \\
      session volume, the sum of one workout's sets of the exercise. With --exercise, also the most \\
      reps done at each weight. Bodyweight and assisted exercises show their most reps in a set, not \\
      a weight. Each record is the earliest set that reached it; --since counts only sets from then.
      """ + "\n\n" + FieldHelp.line(TrainingRecords.columns, for: "--fields"),
      examples: [
        "gym history prs",
        "gym history prs --exercise 'bench press (barbell)' --formula brzycki",
        "gym history prs --since 90d -f csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: ArgumentHelp("Only this exercise (any case).", valueName: "name")) var exercise: String?
  @Option(help: ArgumentHelp("Only sets from this date on (2026-01-01, 90d).", valueName: "date")) var since: String?
  @Option(help: "How to estimate a one-rep max.") var formula: OneRepMax = .epley
  @OptionGroup var output: OutputOptions
  @Option(name: [.customShort("n"), .long], help: "At most this many records.") var limit: Int?

  func validate() throws {
    if let limit, limit < 0 { throw ValidationError("--limit must be 0 (no limit) or more") }
    if output.ids { throw ValidationError("records have no ids; use --fields exercise,record") }
  }

  func run(context: CommandContext) throws {
    let from = try since.map { try WhereParser.parseDate($0, option: "--since") }
    let records = try context.openStore().read {
      try TrainingRecords.fetch($0, exercise: exercise, since: from, formula: formula)
    }
    if let exercise, records.isEmpty {
      throw GymError.noInput("no working sets of '\(exercise)'; see 'gym history exercises'")
    }
    let columns = output.fieldList.isEmpty ? TrainingRecords.columns : output.fieldList
    let positions = try columns.map { name in
      guard let i = TrainingRecords.columns.firstIndex(of: name) else {
        throw GymError.usage(
          "unknown field '\(name)' for --fields; valid fields: \(TrainingRecords.columns.joined(separator: ", "))")
      }
      return i
    }
    let writer = RecordWriter(format: context.format(output), columns: columns)
    for record in records.prefix(limit.flatMap { $0 == 0 ? nil : $0 } ?? records.count) {
      writer.write(positions.map { record[$0] })
    }
    writer.finish(next: nil)
  }
}
