import ArgumentParser
import GymCLI
import GymCore

/// `gym history import FILE|-`: gym's own NDJSON, JSON array or CSV, or a workout logger's export.
struct HistoryImport: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import workouts: gym's NDJSON, JSON or CSV, or a Strong or Hevy export (all or nothing).",
    discussion: HelpExamples.discussion(
      """
      gym's fields: id, completedAt, status, planTitle, focus, durationMinutes, intensity, notes, \
      distanceKm, activeEnergyKcal — what 'history list' and 'history show' print, in any format, \
      show's sets included. A record may leave out id (a new one) and status (completed). A record \
      whose id exists updates that workout in place when a value differs; with --partial only the \
      fields it gives. Strong and Hevy exports become one workout per session with its sets (see \
      'gym history show ID'). Importing the same file twice changes nothing.
      """,
      examples: [
        "gym history import workouts.ndjson",
        "gym history import strong.csv --from strong --weight-unit kg",
        "gym history list -f json | gym history import - --dry-run",
        "gym history import edits.ndjson --partial",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The file to read, or - for stdin.") var file: String
  @Option(help: "Whose file it is: gym's own, or a Strong or Hevy export.") var from: ImportSource = .gym
  @Option(help: "Strong exports whose weights name no unit: the unit set in the app.")
  var weightUnit: WeightUnit?
  @Option(help: "Strong exports whose distances name no unit: the unit set in the app.")
  var distanceUnit: DistanceUnit = .km
  @Option(help: "gym files: the format (default: from the extension, else the first byte).")
  var inputFormat: InputFormat?
  @Flag(help: "Update only the fields each record gives (gym's files): change one value without restating the rest.")
  var partial = false
  @OptionGroup var dryRunOption: ImportDryRunOption

  func validate() throws {
    if from != .gym && inputFormat != nil { throw ValidationError("--input-format is for gym's own files") }
    if from != .gym && partial { throw ValidationError("--partial is for gym's own files") }
  }

  func run(context: CommandContext) throws {
    let progress = ProgressLine("importing")
    defer { progress.finish() }
    let dryRun = dryRunOption.dryRun
    let openStore = context.storeForImport(dryRun: dryRun)
    var summary: String
    switch from {
    case .gym:
      let sets = WorkoutSetImport()
      var job = RecordImport(
        table: WorkoutSchema.table, conflict: .updateChanged(key: "id"), path: file, format: inputFormat)
      job.partial = partial
      job.nested = sets
      let counts = try job.run(openStore: openStore, progress: progress)
      let s = sets.counts
      summary = ImportNote.line(
        counts, "records", dryRun: dryRun, counted: openStore != nil,
        more: s.read + sets.removed > 0
          ? "; sets \(s.inserted) inserted, \(s.updated) updated, \(s.unchanged) unchanged, \(sets.removed) removed"
          : "")
    case .strong, .hevy:
      let format: any LoggerFormat =
        from == .hevy
        ? HevyFormat()
        : StrongFormat(kilogramsPerUnit: weightUnit?.kilograms, kilometresPerUnit: distanceUnit.kilometres)
      let counts = try LoggerImport(format: format, path: file).run(openStore: openStore, progress: progress)
      let w = counts.workouts
      let s = counts.sets
      summary =
        openStore == nil
        ? ImportNote.validatedOnly(counts.rows, "rows, \(w.read) workouts")
        : "\(ImportNote.verb(dryRun: dryRun)) \(counts.rows) rows: workouts \(w.inserted) inserted, \(w.updated) updated, "
          + "\(w.unchanged) unchanged; sets \(s.inserted) inserted, \(s.updated) updated, \(s.unchanged) unchanged"
          + ImportNote.suffix(dryRun: dryRun)
      if let records = TrainingRecords.summary(counts.newRecords) { summary += "\n" + records }
    }
    progress.finish()
    printNote(summary)
  }
}

enum ImportSource: String, CaseIterable, ExpressibleByArgument {
  case gym, strong, hevy
}

enum WeightUnit: String, CaseIterable, ExpressibleByArgument {
  case kg, lb

  var kilograms: Double { self == .kg ? 1 : 0.453_592_37 }
}

enum DistanceUnit: String, CaseIterable, ExpressibleByArgument {
  case km, mi

  var kilometres: Double { self == .km ? 1 : 1.609_344 }
}
