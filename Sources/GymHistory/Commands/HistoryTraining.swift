import ArgumentParser
import GymCLI
import GymCore

/// `gym history exercises`: every exercise the sets name, one row whatever its spellings; `rename`
/// and `merge` make two names one exercise.
struct HistoryExercises: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "exercises",
    abstract: "Exercises: list them, rename one, merge two names for one lift.",
    discussion: HelpExamples.discussion(examples: [
      "gym history exercises --sort sessions:desc -n 10",
      "gym history exercises merge 'Bench Press' 'Bench Press (Barbell)'",
    ]),
    subcommands: [ExercisesList.self, ExercisesRename.self, ExercisesMerge.self], defaultSubcommand: ExercisesList.self)
}

extension HistoryExercises: ListsTable {
  static var listedTable: TableSchema { TrainingSchema.exercises }
}

/// `gym history exercises [list]`.
struct ExercisesList: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List exercises: sets, sessions, first and last date, best e1RM (Epley) and heaviest weight.",
    discussion: HelpExamples.discussion(
      """
      Names match without regard to case or runs of spaces, and through renames and merges; an \
      exercise is listed by its latest name. Warm-up sets count as sets but never towards the e1RM or \
      the heaviest weight.
      """ + "\n\n" + FieldHelp.line(TrainingSchema.exercises),
      examples: [
        "gym history exercises list",
        "gym history exercises list --sort bestE1RM:desc -n 5",
        "gym history exercises list -w 'sessions >= 2' --fields exercise,sessions,last",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Flag(help: "Only the exercises the muscle map does not know (Config/muscles.yaml and your muscles.yaml).")
  var unmapped = false
  @OptionGroup var filter: FilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions
  @OptionGroup var units: WeightUnitOptions

  func run(context: CommandContext) throws {
    let table = TrainingSchema.exercises
    let store = try context.openStore()
    var filters = [try filter.predicate(for: table)].compactMap { $0 }
    if unmapped {
      let map = try MuscleMap.load()
      let names = try store.read { try TrainingVolume.unmapped($0, map: map) }
      filters.append(.isIn("exercise", names.map { .text($0) }))
    }
    let query = try RecordListing.query(
      table: table, filters: filters, output: output, paging: paging, context: context, sort: sorting.keys)
    try RecordListing.write(
      query, store: store, format: context.format(output), ids: output.ids,
      weights: units.display(context, columns: ["bestE1RM", "heaviestKg"]))
  }
}

extension ExercisesList: ListsTable {
  static var listedTable: TableSchema { TrainingSchema.exercises }
}

/// `gym history exercises rename OLD NEW`.
struct ExercisesRename: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "rename",
    abstract: "Call an exercise by another name, now and in later imports (the sets are not rewritten).",
    discussion: HelpExamples.discussion(examples: [
      "gym history exercises rename 'Squat (Barbell)' 'Back Squat'"
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The exercise's name now (any case).") var old: String
  @Argument(help: "The name it goes by from now on.") var new: String

  func validate() throws {
    if new.trimmed.isEmpty { throw ValidationError("the new name is empty") }
  }

  func run(context: CommandContext) throws {
    let sets = try context.openStore().write { db -> Int in
      guard let found = try ExerciseAliases.find(db, old) else {
        throw GymError.noInput("no sets of '\(old)'; see 'gym history exercises'")
      }
      if let other = try ExerciseAliases.find(db, new), other.name.lowercased() != found.name.lowercased() {
        throw GymError.data(
          "'\(new)' is an exercise already (\(other.sets) sets); to make them one, "
            + "use 'gym history exercises merge' with both names")
      }
      try ExerciseAliases.alias(db, old, to: new.trimmed)
      return found.sets
    }
    printNote("'\(old)' is now '\(new.trimmed)' (\(sets) sets); later imports of '\(old)' count as '\(new.trimmed)'")
  }
}

/// `gym history exercises merge A B`.
struct ExercisesMerge: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Make two names one exercise: A's sets count as B's, now and in later imports.",
    discussion: HelpExamples.discussion(examples: [
      "gym history exercises merge 'Bench Press' 'Bench Press (Barbell)'"
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The exercise whose sets move (any case).") var from: String
  @Argument(help: "The exercise they become (any case).") var into: String

  func run(context: CommandContext) throws {
    let (moved, name, total) = try context.openStore().write { db -> (Int, String, Int) in
      guard let source = try ExerciseAliases.find(db, from) else {
        throw GymError.noInput("no sets of '\(from)'; see 'gym history exercises'")
      }
      guard let target = try ExerciseAliases.find(db, into) else {
        throw GymError.noInput(
          "no sets of '\(into)'; to call '\(from)' by a new name, use 'gym history exercises rename'")
      }
      try ExerciseAliases.alias(db, from, to: target.name)
      return (source.sets, target.name, try ExerciseAliases.find(db, into)?.sets ?? 0)
    }
    printNote("'\(from)' (\(moved) sets) is now '\(name)' (\(total) sets); later imports of '\(from)' count there too")
  }
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
      a weight. Each record is the earliest set that reached it; --since counts only sets from then. \
      --timeline lists each time a record was set or broken instead, oldest first: a workout whose \
      best beat every workout before it.
      """ + "\n\n" + FieldHelp.line(TrainingRecords.columns, for: "--fields"),
      examples: [
        "gym history prs",
        "gym history prs --exercise 'bench press (barbell)' --timeline",
        "gym history prs --exercise 'bench press (barbell)' --formula brzycki",
        "gym history prs --since 90d -f csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var exercise: ExerciseOption
  @OptionGroup var dates: DateRangeOptions
  @Option(help: "How to estimate a one-rep max.") var formula: OneRepMax = .epley
  @Flag(help: "Each time a record was set or broken, oldest first, instead of the records now.")
  var timeline = false
  @OptionGroup var output: OutputOptions
  @OptionGroup var units: WeightUnitOptions
  @OptionGroup var limiting: LimitOptions

  func validate() throws {
    if output.ids { throw ValidationError("records have no ids; use --fields exercise,record") }
  }

  func run(context: CommandContext) throws {
    let (from, to) = try dates.bounds()
    let weights = units.display(context, columns: ["value", "weightKg"])
    let inPounds = weights.unit == .lb
    let records = try context.openStore().read { db in
      let name = try exercise.resolved(db)
      return timeline
        ? try TrainingRecords.cells(
          of: TrainingRecords.timeline(db, exercise: name, since: from, until: to, formula: formula), db,
          inPounds: inPounds)
        : try TrainingRecords.fetch(db, exercise: name, since: from, until: to, formula: formula, inPounds: inPounds)
    }
    if let exercise = exercise.exercise, records.isEmpty {
      throw GymError.noInput("no working sets of '\(exercise)'; see 'gym history exercises'")
    }
    let (columns, positions) = try ComputedFields.select(
      output.fieldList, of: TrainingRecords.columns.map(weights.name))
    let writer = RecordWriter(format: context.format(output), columns: columns)
    for record in records.prefix(limiting.rows(of: records.count)) {
      // A reps record's value is a count, not a weight.
      var converted = weights.cells(record, names: TrainingRecords.columns)
      if case .text(let kind) = record[1], kind.hasPrefix("mostReps") { converted[2] = record[2] }
      writer.write(positions.map { converted[$0] })
    }
    writer.finish(next: nil)
  }
}

/// `gym history progress --exercise NAME --by week|month`: how one lift went, period by period.
struct HistoryProgress: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "progress",
    abstract: "One exercise per week or month: best e1RM, top set, sets, reps and volume, with a chart.",
    discussion: HelpExamples.discussion(
      """
      Working sets only. The top set is the period's heaviest weight with the most reps done at it; \
      volume is the sum of weight × reps. Weeks start on Monday, in time.zone (or TZ). In the table \
      format a sparkline of the best e1RM is drawn above the rows; the machine formats never have one.
      """ + "\n\n" + FieldHelp.line(TrainingProgress.columns, for: "--fields"),
      examples: [
        "gym history progress --exercise 'bench press (barbell)'",
        "gym history progress --exercise 'bench press (barbell)' --by month -f csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(
    help: ArgumentHelp("The exercise (any case, any of its names).", valueName: "name"),
    completion: .custom(ExerciseNames.completions))
  var exercise: String
  @Option(help: "Per week or per month.") var by: WorkoutClock.Period = .week
  @OptionGroup var dates: DateRangeOptions
  @Option(help: "How to estimate a one-rep max.") var formula: OneRepMax = .epley
  @OptionGroup var chart: ChartOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var units: WeightUnitOptions
  @OptionGroup var limiting: LimitOptions

  func validate() throws {
    if output.ids { throw ValidationError("periods have no ids; use --fields period") }
  }

  func run(context: CommandContext) throws {
    let (from, to) = try dates.bounds()
    let weights = units.display(context, columns: ["bestE1RM", "topKg", "volumeKg"])
    let all = try context.openStore().read {
      try TrainingProgress.fetch(
        $0, exercise: try ExerciseNames.resolve(exercise, $0), by: by, since: from, until: to, formula: formula,
        inPounds: weights.unit == .lb)
    }
    let rows = all.suffix(limiting.rows(of: all.count)).map {
      weights.cells($0, names: TrainingProgress.columns)
    }
    guard !rows.isEmpty else { throw GymError.noInput("no working sets of '\(exercise)'; see 'gym history exercises'") }
    let (columns, positions) = try ComputedFields.select(
      output.fieldList, of: TrainingProgress.columns.map(weights.name))
    let format = context.format(output)
    let out = BufferedOutput.standardOutput()
    chart.draw(
      rows.map { row -> (label: String, value: Double?) in
        (row[0].plainText(localTime: false), { if case .real(let v) = row[1] { v } else { nil } }())
      },
      title: "e1RM (\(weights.unit.rawValue))", default: .spark, context: context, format: format, to: out)
    ComputedFields.write(rows, names: columns, positions: positions, format: format, to: out)
  }
}

/// `gym history volume --by week|month [--muscle GROUP]`: work per muscle group.
struct HistoryVolume: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "volume",
    abstract: "Hard sets, reps and tonnage per muscle group per week or month.",
    discussion: HelpExamples.discussion(
      """
      Working sets of the exercises the muscle map knows (Config/muscles.yaml; your own \
      $XDG_CONFIG_HOME/gym/muscles.yaml adds and replaces entries; 'history exercises --unmapped' lists \
      the rest). A set counts in full for each primary muscle group and half for each secondary one: \
      half a set, half its reps and tonnage. Tonnage is weight × reps. Weeks start on Monday.
      """ + "\n\n" + FieldHelp.line(TrainingVolume.columns, for: "--fields"),
      examples: [
        "gym history volume",
        "gym history volume --by month --muscle chest -f csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "Per week or per month.") var by: WorkoutClock.Period = .week
  @Option(help: ArgumentHelp("Only this muscle group (any case).", valueName: "group")) var muscle: String?
  @OptionGroup var dates: DateRangeOptions
  @OptionGroup var chart: ChartOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var units: WeightUnitOptions
  @OptionGroup var limiting: LimitOptions

  func validate() throws {
    if output.ids { throw ValidationError("volume rows have no ids; use --fields period,muscle") }
  }

  func run(context: CommandContext) throws {
    let (from, to) = try dates.bounds()
    let map = try MuscleMap.load()
    let all = try context.openStore().read {
      try TrainingVolume.fetch($0, by: by, muscle: muscle, since: from, until: to, map: map)
    }
    let weights = units.display(context, columns: ["tonnageKg"])
    let rows = all.suffix(limiting.rows(of: all.count)).map {
      weights.cells($0, names: TrainingVolume.columns)
    }
    let (columns, positions) = try ComputedFields.select(output.fieldList, of: TrainingVolume.columns.map(weights.name))
    let format = context.format(output)
    let out = BufferedOutput.standardOutput()
    // Hard sets per period shown, every group of it together: a period `--limit` cut short is still
    // drawn with its whole total, never its rows shown alone.
    let shown = Set(rows.compactMap { row -> String? in if case .text(let period) = row[0] { period } else { nil } })
    var perPeriod: [(String, Double)] = []
    for row in all {
      guard case .text(let period) = row[0], shown.contains(period), case .real(let sets) = row[2] else { continue }
      if perPeriod.last?.0 == period {
        perPeriod[perPeriod.count - 1].1 += sets
      } else {
        perPeriod.append((period, sets))
      }
    }
    chart.draw(
      perPeriod.map { (label: $0.0, value: $0.1) }, title: "hard sets", default: .spark, context: context,
      format: format, to: out)
    ComputedFields.write(rows, names: columns, positions: positions, format: format, to: out)
  }
}
