import ArgumentParser
import GymCLI
import GymCore

/// `gym library import goodreads FILE|-`: the library people already have.
struct LibraryImport: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract:
      "Import a Goodreads or StoryGraph export, or works as gym prints them (all or nothing; again changes nothing).",
    discussion: HelpExamples.discussion(
      """
      goodreads: export it from Goodreads: My Books → Import and export → Export Library. Works are \
      matched by Goodreads Book Id: a newer export updates them in place. Authors are matched by name. \
      A shelf of your own as the exclusive shelf imports as toRead with the shelf kept in 'shelves'. An \
      ISBN with a bad check digit is left empty, with a warning.

      storygraph: export it from StoryGraph: Manage Account → Export StoryGraph Library. Works are \
      matched by title and authors; each of Dates Read is a reading, ratings keep their quarter stars.

      gym: what 'library list' (any --fields) and 'library show' print, in JSON, NDJSON or CSV. A \
      record names its work by id, else goodreadsId, else title and authors; a work found changes in \
      the fields the record gives, one not found is added (with the record's id when it is free).
      """,
      examples: [
        "gym library import goodreads goodreads_library_export.csv",
        "gym library import goodreads - --dry-run < goodreads_library_export.csv",
        "gym library import storygraph storygraph_export.csv",
        "gym library show --all -f ndjson > library.ndjson && gym library import gym library.ndjson",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "Where the file comes from.") var source: LibrarySource
  @Argument(help: "The file, or - for stdin.") var file: String
  @Option(help: "gym files: the format (default: from the extension, else the first byte).")
  var inputFormat: InputFormat?
  @OptionGroup var dryRunOption: ImportDryRunOption

  enum LibrarySource: String, CaseIterable, ExpressibleByArgument { case goodreads, storygraph, gym }

  static func importExport<Format: LibraryExportFormat>(
    _ format: Format.Type, _ file: String, _ openStore: (() throws -> Store)?, _ progress: ProgressLine, dryRun: Bool
  ) throws -> String {
    let counts = try ExportFileImport<Format>(path: file).run(openStore: openStore, progress: progress)
    return openStore == nil
      ? ImportNote.validatedOnly(counts.rows, "rows")
      : counts.summary(verb: ImportNote.verb(dryRun: dryRun), isOwnShelf: Format.isOwnShelf)
        + ImportNote.suffix(dryRun: dryRun)
  }

  func validate() throws {
    if source != .gym && inputFormat != nil { throw ValidationError("--input-format is for gym's own files") }
  }

  func run(context: CommandContext) throws {
    let progress = ProgressLine("importing")
    defer { progress.finish() }
    let dryRun = dryRunOption.dryRun
    let openStore = context.storeForImport(dryRun: dryRun)
    let note: String
    switch source {
    case .goodreads:
      note = try Self.importExport(GoodreadsFormat.self, file, openStore, progress, dryRun: dryRun)
    case .storygraph:
      note = try Self.importExport(StoryGraphFormat.self, file, openStore, progress, dryRun: dryRun)
    case .gym:
      let counts = try LibraryRecordImport(path: file, format: inputFormat).run(
        openStore: openStore, progress: progress)
      note =
        openStore == nil
        ? ImportNote.validatedOnly(counts.read, "works")
        : "\(ImportNote.verb(dryRun: dryRun)) \(counts.read) works: \(counts.added) added, \(counts.updated) updated, "
          + "\(counts.unchanged) unchanged" + ImportNote.suffix(dryRun: dryRun)
    }
    progress.finish()
    printNote(note)
  }
}
