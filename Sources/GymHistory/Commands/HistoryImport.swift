import ArgumentParser
import GymCLI
import GymCore

/// `gym history import FILE|-`: gym's own NDJSON, JSON array or CSV, or a workout logger's export.
struct HistoryImport: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import workouts: gym's NDJSON, JSON or CSV (all or nothing), or a Strong or Hevy export.",
    discussion: HelpExamples.discussion(
      """
      gym's fields: id, completedAt, status, planTitle, focus, durationMinutes, intensity, notes, \
      distanceKm, activeEnergyKcal — what 'history list' and 'history show' print, in any format, \
      show's sets included. A record may leave out id (a new one) and status (completed). A record \
      whose id exists updates that workout in place when a value differs; with --partial only the \
      fields it gives. Strong and Hevy exports become one workout per session with its sets (see \
      'gym history show ID'); a row gym cannot read is skipped and told with its line (--strict: \
      the file is refused instead). Importing the same file twice changes nothing.
      """,
      examples: [
        "gym history import workouts.ndjson",
        "gym history import strong.csv --from strong --weight-unit kg",
        "gym history list -f json | gym history import - --dry-run",
        "gym history import edits.ndjson --partial",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The file to read, or - for stdin.") var file: String
  @Option(help: "Whose file it is: gym's own, or a Strong or Hevy export (default: recognised from its header).")
  var from: ImportSource?
  @Option(help: "Strong exports whose weights name no unit: the unit set in the app.")
  var weightUnit: WeightUnit?
  @Option(help: "Strong exports whose distances name no unit: the unit set in the app.")
  var distanceUnit: DistanceUnit?
  @Option(help: "gym files: the format (default: from the extension, else the first byte).")
  var inputFormat: InputFormat?
  @Flag(help: "Update only the fields each record gives (gym's files): change one value without restating the rest.")
  var partial = false
  @OptionGroup var dryRunOption: ImportDryRunOption
  @OptionGroup var strictOption: ImportStrictOption

  func validate() throws {
    if from != nil && from != .gym && inputFormat != nil {
      throw ValidationError("--input-format is for gym's own files")
    }
    if from != nil && from != .gym && partial { throw ValidationError("--partial is for gym's own files") }
    if from == .gym && strictOption.strict {
      throw ValidationError("--strict is for Strong and Hevy exports: gym's own files are all or nothing already")
    }
  }

  /// `--from`, else what the header says: a Strong (any language) or Hevy export, or gym's own file
  /// (told to the user when it is an app's). Another app's export is refused, naming its command.
  func source(of input: ImportInput) throws -> ImportSource {
    if let from { return from }
    if inputFormat != nil || partial { return .gym }
    let (known, columns): (KnownExport?, [String]?)
    do {
      (known, columns) = try input.header()
    } catch {
      throw input.failure(error)
    }
    let strong = StrongFormat(kilogramsPerUnit: nil, kilometresPerUnit: 1)
    let source: ImportSource
    switch known {
    case .strong: source = .strong
    case .hevy: source = .hevy
    case nil where columns.map(strong.recognises) == true: source = .strong
    case nil where columns.map(HevyFormat().recognises) == true: source = .hevy
    case nil: source = .gym
    case let other?: throw input.failure(InputError(line: 1, message: other.misdirected(file)))
    }
    if source == .gym && strictOption.strict {
      throw GymError.usage(
        "--strict is for Strong and Hevy exports, and '\(input.displayName)' is not one: give --from if it is")
    }
    if source != .gym {
      logNote("reading \(input.displayName) as a \(source == .strong ? "Strong" : "Hevy") export (from its header)")
    }
    return source
  }

  func run(context: CommandContext) throws {
    let progress = ProgressLine("importing")
    defer { progress.finish() }
    let dryRun = dryRunOption.dryRun
    let openStore = context.storeForImport(dryRun: dryRun)
    let input = try ImportInput(file)
    defer { input.close() }
    let from = try source(of: input)
    var summary: String
    var records: String?  // a note of its own: the personal records the import brought
    switch from {
    case .gym:
      let sets = WorkoutSetImport()
      var job = RecordImport(
        table: WorkoutSchema.table, conflict: .updateChanged(key: "id"), path: file, format: inputFormat)
      job.partial = partial
      job.nested = sets
      job.derived = WorkoutTotals.derived
      job.opened = input
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
        : StrongFormat(kilogramsPerUnit: weightUnit?.kilograms, kilometresPerUnit: distanceUnit?.kilometres)
      var job = LoggerImport(format: format, path: file)
      job.opened = input
      job.strict = strictOption.strict
      let counts = try job.run(openStore: openStore, progress: progress)
      let w = counts.workouts
      let s = counts.sets
      summary =
        openStore == nil
        ? ImportNote.validatedOnly(counts.rows, "rows, \(w.read) workouts" + counts.skips.summary)
        : "\(ImportNote.verb(dryRun: dryRun)) \(counts.rows) rows: workouts \(w.inserted) inserted, \(w.updated) updated, "
          + "\(w.unchanged) unchanged; sets \(s.inserted) inserted, \(s.updated) updated, \(s.unchanged) unchanged"
          + (counts.setsRemoved > 0 ? ", \(counts.setsRemoved) removed" : "") + counts.skips.summary
          + ImportNote.suffix(dryRun: dryRun)
      records = TrainingRecords.summary(counts.newRecords)
    }
    progress.finish()
    printNote(summary)
    if let records { printNote(records) }
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
