import ArgumentParser
import GymCLI
import GymCore

/// `gym history import-health export.xml|export.zip|-`: an Apple Health export.
struct HistoryImportHealth: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "import-health",
    abstract: "Import an Apple Health export (export.xml, the export's .zip, or - for stdin).",
    discussion: HelpExamples.discussion(
      """
      Every record becomes a sample: the types gym knows with units converted (lb → kg, mi → km, \
      kJ → kcal …), any other type as the export writes it ('gym history samples types' lists them); \
      sleep analysis keeps its stages; blood pressure (a <Correlation>) becomes its systolic and \
      diastolic samples, paired by their start, end and source; workouts become completed workouts. \
      Every generation of the export is read (iOS 8 and 9 wrote compact dates and 'source'). The file \
      is streamed: memory does not grow with it. A record gym cannot read is skipped and told with \
      its line (--strict: the export is refused instead). Importing the same export again adds \
      nothing, and an export imported before this version adds only the types kept since.
      """,
      examples: [
        "gym history import-health export.xml",
        "gym history import-health - --dry-run < export.xml",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "export.xml, the export's .zip, or - for stdin.") var file: String
  @OptionGroup var dryRunOption: ImportDryRunOption
  @OptionGroup var strictOption: ImportStrictOption

  func run(context: CommandContext) throws {
    let progress = ProgressLine("importing Apple Health")
    defer { progress.finish() }
    let dryRun = dryRunOption.dryRun
    let openStore = context.storeForImport(dryRun: dryRun)
    var job = AppleHealthImport(path: file)
    job.strict = strictOption.strict
    let counts = try job.run(openStore: openStore, progress: progress)
    progress.finish()
    let s = counts.samples
    let w = counts.workouts
    printNote(
      openStore == nil
        ? ImportNote.validatedOnly(counts.records, "records, \(w.read) workouts" + counts.skips.summary)
        : "\(dryRun ? "would read" : "read") \(counts.records) records: \(s.inserted) samples inserted, "
          + "\(s.unchanged) skipped as duplicates, \(counts.unknownRecords) of other types kept as written; "
          + "workouts \(w.inserted) inserted, \(w.updated) updated, \(w.unchanged) unchanged"
          + counts.skips.summary + ImportNote.suffix(dryRun: dryRun))
  }
}
