import ArgumentParser
import GymCLI
import GymCore

/// `gym history samples import FILE|-`: samples as NDJSON, a JSON array or CSV with the sample
/// field names (what `samples list --format ndjson|csv` writes). Re-importing adds nothing.
struct SamplesImport: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import samples from NDJSON, a JSON array or CSV (all or nothing; duplicates skipped).",
    discussion: HelpExamples.discussion(
      "Fields: type, start, end, value, unit, stage, source; units as gym stores them.",
      examples: [
        "gym history samples generate --days 7 | gym history samples import -",
        "gym history samples import samples.ndjson --dry-run",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The file to read, or - for stdin.") var file: String
  @Option(help: "The format (default: from the extension, else the first byte).")
  var inputFormat: InputFormat?
  @OptionGroup var dryRunOption: ImportDryRunOption

  func run(context: CommandContext) throws {
    var job = RecordImport(table: SampleSchema.table, conflict: SampleSchema.conflict, path: file, format: inputFormat)
    job.extra = SampleRules()
    let progress = ProgressLine("importing samples")
    let dryRun = dryRunOption.dryRun
    let openStore = context.storeForImport(dryRun: dryRun)
    let counts = try job.run(openStore: openStore, progress: progress)
    progress.finish()
    printNote(
      openStore == nil
        ? ImportNote.validatedOnly(counts.read, "samples")
        : "\(ImportNote.verb(dryRun: dryRun)) \(counts.read) samples: \(counts.inserted) inserted, "
          + "\(counts.unchanged) skipped as duplicates" + ImportNote.suffix(dryRun: dryRun))
  }
}

/// `gym history samples generate`: prints generated samples (only ever on request).
struct SamplesGenerate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Print generated health samples (for demos and benchmarks).",
    discussion: HelpExamples.discussion(
      "For example: gym history samples generate --days 30 | gym history samples import -",
      examples: [
        "gym history samples generate --days 1 --seed 2 > day.ndjson",
        "gym history samples generate --days 3 -f csv > samples.csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "Days of data, up to today.") var days = 7
  @Option(help: "Random seed: the same seed gives the same samples.") var seed: UInt64 = 1
  @OptionGroup var formatting: FormatOptions
  /// Not `output.format`: this output is meant for a pipe or a person as it is.
  var format: OutputFormat { formatting.format ?? .ndjson }

  func validate() throws {
    if days < 1 || days > 36_500 { throw ValidationError("--days must be from 1 to 36500") }
  }

  func run() throws {
    var generator = SampleGenerator(seed: seed, end: .now(), days: days)
    let writer = RecordWriter(format: format, columns: SampleSchema.table.fieldNames)
    generator.generate { writer.write($0) }
    writer.finish(next: nil)
  }
}
