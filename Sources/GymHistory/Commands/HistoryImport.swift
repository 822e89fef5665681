import ArgumentParser
import GymCLI
import GymCore

/// `gym history import FILE|-`: NDJSON, a JSON array or CSV with the workout field names.
struct HistoryImport: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import workouts from NDJSON, a JSON array or CSV (all or nothing, idempotent by id).",
    discussion: """
      Fields: id, completedAt, status, planTitle, focus, durationMinutes, intensity. A record whose \
      id exists updates that workout in place when a value differs; the same file imported twice \
      changes nothing.
      """)

  @OptionGroup var global: GlobalOptions
  @Argument(help: "The file to read, or - for stdin.") var file: String
  @Option(help: "ndjson, json or csv (default: from the extension, else the first byte).")
  var inputFormat: InputFormat?
  @Flag(help: "Validate every record and write nothing.") var dryRun = false
  @Flag(help: "No summary line.") var quiet = false

  func run(context: CommandContext) throws {
    let job = RecordImport(
      table: WorkoutSchema.table, conflict: .updateChanged(key: "id"), path: file, format: inputFormat)
    let progress = ProgressLine("importing")
    defer { progress.finish() }
    let counts = try job.run(openStore: dryRun ? nil : context.openStore, progress: progress)
    progress.finish()
    guard !quiet else { return }
    if dryRun {
      printError("validated \(counts.read) records; nothing written (--dry-run)")
    } else {
      printError(
        "imported \(counts.read) records: \(counts.inserted) inserted, \(counts.updated) updated, \(counts.unchanged) unchanged"
      )
    }
  }
}
