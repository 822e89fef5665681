import ArgumentParser
import GymCLI
import GymCore

/// `gym library import goodreads FILE|-`: the library people already have.
struct LibraryImport: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import a Goodreads library export (all or nothing; importing it again changes nothing).",
    discussion: HelpExamples.discussion(
      """
      Export it from Goodreads: My Books → Import and export → Export Library. Works are matched by \
      Goodreads Book Id: a newer export updates them in place. Authors are matched by name. A shelf \
      of your own as the exclusive shelf imports as toRead with the shelf kept in 'shelves'. An ISBN \
      with a bad check digit is left empty, with a warning.
      """,
      examples: [
        "gym library import goodreads goodreads_library_export.csv",
        "gym library import goodreads - --dry-run < goodreads_library_export.csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The source: goodreads.") var source: LibrarySource
  @Argument(help: "The export's CSV file, or - for stdin.") var file: String
  @OptionGroup var dryRunOption: ImportDryRunOption

  enum LibrarySource: String, CaseIterable, ExpressibleByArgument { case goodreads }

  func run(context: CommandContext) throws {
    let progress = ProgressLine("importing")
    defer { progress.finish() }
    let dryRun = dryRunOption.dryRun
    let openStore = context.storeForImport(dryRun: dryRun)
    let counts = try GoodreadsImport(path: file).run(openStore: openStore, progress: progress)
    progress.finish()
    printNote(
      openStore == nil
        ? ImportNote.validatedOnly(counts.rows, "rows")
        : counts.summary(verb: ImportNote.verb(dryRun: dryRun)) + ImportNote.suffix(dryRun: dryRun))
  }
}
