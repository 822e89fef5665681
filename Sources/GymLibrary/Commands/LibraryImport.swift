import ArgumentParser
import GymCLI
import GymCore

/// `gym library import goodreads FILE|-`: the library people already have.
struct LibraryImport: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract:
      "Import a Goodreads or StoryGraph export, or works as gym prints them (again changes nothing).",
    usage: "gym library import [goodreads|storygraph|gym] <file> [<options>]",
    discussion: HelpExamples.discussion(
      """
      A row of a Goodreads or StoryGraph export that gym cannot read is skipped and told with its \
      line; --strict refuses the file instead. gym's own files are all or nothing.

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
  @Argument(
    help: ArgumentHelp(
      "goodreads, storygraph or gym, then the file (or - for stdin); the file alone: recognised from its header.",
      valueName: "source"))
  var operands: [String]
  @Option(help: "gym files: the format (default: from the extension, else the first byte).")
  var inputFormat: InputFormat?
  @OptionGroup var dryRunOption: ImportDryRunOption
  @OptionGroup var strictOption: ImportStrictOption

  enum LibrarySource: String, CaseIterable, ExpressibleByArgument { case goodreads, storygraph, gym }

  static func importExport<Format: LibraryExportFormat>(
    _ format: Format.Type, _ input: ImportInput, _ openStore: (() throws -> Store)?, _ progress: ProgressLine,
    dryRun: Bool, strict: Bool
  ) throws -> String {
    var job = ExportFileImport<Format>(path: input.path)
    job.opened = input
    job.strict = strict
    let counts = try job.run(openStore: openStore, progress: progress)
    return openStore == nil
      ? ImportNote.validatedOnly(counts.rows, "rows" + counts.skips.summary)
      : counts.summary(verb: ImportNote.verb(dryRun: dryRun), isOwnShelf: Format.isOwnShelf)
        + ImportNote.suffix(dryRun: dryRun)
  }

  /// `SOURCE FILE`, or `FILE` alone.
  var given: (source: LibrarySource?, file: String) {
    operands.count == 2 ? (LibrarySource(rawValue: operands[0]), operands[1]) : (nil, operands.first ?? "")
  }

  func validate() throws {
    guard (1...2).contains(operands.count) else {
      throw ValidationError("give the file, or its source (goodreads, storygraph or gym) and the file")
    }
    if operands.count == 2 && given.source == nil {
      throw ValidationError(
        "'\(operands[0])' is not a source: goodreads, storygraph or gym (or give the file alone)")
    }
    if let source = given.source, source != .gym, inputFormat != nil {
      throw ValidationError("--input-format is for gym's own files")
    }
    if given.source == .gym && strictOption.strict {
      throw ValidationError(
        "--strict is for Goodreads and StoryGraph exports: gym's own files are all or nothing already")
    }
  }

  /// The source given, else what the header says: a Goodreads or StoryGraph export (told to the
  /// user), or gym's own file. Another app's export is refused, naming its command.
  func source(of input: ImportInput) throws -> LibrarySource {
    if let source = given.source { return source }
    if inputFormat != nil { return .gym }
    let known: KnownExport?
    do {
      known = try input.recognise()
    } catch {
      throw input.failure(error)
    }
    let source: LibrarySource
    switch known {
    case .goodreads: source = .goodreads
    case .storygraph: source = .storygraph
    case nil: source = .gym
    case let other?: throw input.failure(InputError(line: 1, message: other.misdirected(given.file)))
    }
    if source == .gym && strictOption.strict {
      throw GymError.usage(
        "--strict is for Goodreads and StoryGraph exports, and '\(input.displayName)' is not one: give its source if it is"
      )
    }
    if let known { logNote("reading \(input.displayName) as a \(known.name) export (from its header)") }
    return source
  }

  func run(context: CommandContext) throws {
    let progress = ProgressLine("importing")
    defer { progress.finish() }
    let dryRun = dryRunOption.dryRun
    let openStore = context.storeForImport(dryRun: dryRun)
    let input = try ImportInput(given.file)
    defer { input.close() }
    let note: String
    switch try source(of: input) {
    case .goodreads:
      note = try Self.importExport(
        GoodreadsFormat.self, input, openStore, progress, dryRun: dryRun, strict: strictOption.strict)
    case .storygraph:
      note = try Self.importExport(
        StoryGraphFormat.self, input, openStore, progress, dryRun: dryRun, strict: strictOption.strict)
    case .gym:
      let counts = try LibraryRecordImport(path: input.path, opened: input, format: inputFormat).run(
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
