import ArgumentParser
import Foundation
import GymCLI
import GymCore

/// `gym export`: compressed, verifiable, restorable exports of every registered module.
public struct ExportCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export the database: NDJSON, CSV or an SQLite snapshot, gzip'd, with a checksummed manifest.",
    discussion: HelpExamples.discussion(
      """
      An export is a directory gym-export-<time> under --out: a file per table (or one snapshot) \
      and manifest.json (gym version, schema, per-table rows and columns, SHA-256 of every file). \
      It is read in one transaction and written under a temporary name, then renamed.
      """,
      examples: [
        "gym export create --out backups",
        "gym export status --out backups",
      ]),
    subcommands: [
      ExportCreate.self, ExportVerify.self, ExportStatus.self, ExportSchedule.self, ExportPrune.self, ExportPull.self,
    ],
    defaultSubcommand: ExportCreate.self)

  public init() {}

  /// The gym version written into manifests; set by the executable.
  nonisolated(unsafe) public static var gymVersion = "0.0.0"
}

/// `gym export [create]`: one export now.
struct ExportCreate: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "create", abstract: "Write one export now.",
    discussion: HelpExamples.discussion(examples: [
      "gym export create --out backups",
      "gym export create --out backups --format sqlite",
      "gym export create --out backups --modules history --compress none",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var export: ExportOptionGroup
  @OptionGroup(title: "Remote copies") var remote: RemoteOptions

  func run(context: CommandContext) throws {
    let options = try export.options(context)
    let copyTo = try remote.remote(context)  // checked before anything is written
    let job = ExportJob(store: try context.openStore(), options: options, gymVersion: ExportCommand.gymVersion)
    let (path, manifest) = try job.run()
    let rows = manifest.totalRows ?? 0
    let bytes = manifest.totalBytes ?? 0
    let out = BufferedOutput.standardOutput()
    out.write(path + "\n")
    out.flush()
    printNote(
      "exported \(rows) rows from \(manifest.tables.count) tables to \(path) (\(bytes) bytes), verified checksums in manifest.json"
    )
    guard let remote = copyTo else { return }
    let copier = RemoteCopy(remote: remote, directory: options.out)
    let name = (path as NSString).lastPathComponent
    // Earlier exports whose copy failed go first, so the remote fills in time order.
    for earlier in copier.failed() where earlier != name {
      if copier.copy(earlier) == nil { printNote("copied \(earlier) to \(remote) (it had failed before)") }
    }
    if let failure = copier.copy(name) {
      throw GymError(
        Rclone.status(of: failure),
        "the export is kept at \(path), but copying it to \(remote) failed"
          + (failure.isConfiguration ? "" : " after \(copier.pauses.count + 1) tries")
          + ": \(failure); the next export retries it")
    }
    printNote("copied \(name) to \(remote)")
  }
}

/// The options of an export, shared by `create` and `schedule`.
struct ExportOptionGroup: ParsableArguments {
  @Option(help: "The format of the files (sqlite: one snapshot of the database).") var format: ExportFormat = .ndjson
  @Option(help: "How the files are compressed.") var compress: ExportCompression = .gzip
  @Option(help: "gzip level, 1 (fastest) to 9 (smallest).") var level = 6
  @Option(help: ArgumentHelp("Only these tables, comma-separated.", valueName: "a,b")) var tables: String?
  @Option(help: ArgumentHelp("Only these modules' tables, comma-separated.", valueName: "a,b")) var modules: String?
  @Option(help: ArgumentHelp("The directory exports go in (default: export.directory).", valueName: "dir"))
  var out: String?
  @Option(
    name: .customLong("encrypt-to"),
    help: ArgumentHelp("Encrypt every data file to this age recipient (age1…); repeat for several.", valueName: "age1…")
  )
  var encryptTo: [String] = []
  @Option(
    help: ArgumentHelp("Encrypt to each recipient in this file (one age1… a line), as age -R.", valueName: "file"))
  var recipientsFile: String?
  @Option(
    help: ArgumentHelp(
      "Encrypt every data file with the passphrase on this file's first line (age's scrypt).", valueName: "file"))
  var passphraseFile: String?

  func validate() throws {
    if !(1...9).contains(level) { throw ValidationError("--level must be 1 to 9") }
    if format == .sqlite && (tables != nil || modules != nil) {
      throw ValidationError("an sqlite snapshot holds every table; drop --tables and --modules")
    }
    // An export of no table is one gym itself calls damaged: say so before making it.
    for (option, value) in [("--tables", tables), ("--modules", modules)] where value.map(Self.names)?.isEmpty == true {
      throw ValidationError("\(option) needs at least one name")
    }
  }

  /// `a, b,` → `[a, b]`: the comma-separated names, empty ones left out.
  static func names(_ list: String) -> [String] {
    list.split(separator: ",").map(\.trimmed).filter { !$0.isEmpty }
  }

  func options(_ context: CommandContext) throws -> ExportOptions {
    var options = ExportOptions(out: out ?? context.exportDirectory)
    options.format = format
    options.compression = compress
    options.level = level
    options.tables = tables.map(Self.names)
    options.modules = modules.map(Self.names)
    for recipient in encryptTo {
      do { options.recipients.append(try AgeRecipient(parsing: recipient)) } catch let error as AgeError {
        throw GymError.usage("--encrypt-to: \(error.description)")
      }
    }
    if let recipientsFile {
      guard let text = try? String(contentsOfFile: recipientsFile, encoding: .utf8) else {
        throw GymError.noInput("cannot read the recipients file '\(recipientsFile)'")
      }
      do { options.recipients += try AgeRecipient.file(text) } catch let error as AgeError {
        throw GymError.usage("--recipients-file '\(recipientsFile)': \(error.description)")
      }
    }
    if options.recipients.isEmpty && passphraseFile == nil,
      let configured = context.configuration.string(.exportRecipients)
    {
      // Set but holding no key is refused like an empty recipients file: it asked for encryption.
      do { options.recipients = try AgeRecipient.file(configured) } catch let error as AgeError {
        throw GymError(.configuration, "export.recipients: \(error.description); fix it with 'gym config show'")
      }
    }
    if let passphraseFile {
      // age allows a passphrase only as a file's one recipient.
      guard options.recipients.isEmpty else {
        throw GymError.usage(
          "--passphrase-file cannot be combined with --encrypt-to or --recipients-file (age allows one or the other)")
      }
      options.recipients = [.scrypt(passphrase: try PassphraseFile.read(passphraseFile), logN: PassphraseFile.logN)]
    }
    return options
  }
}

/// `gym export verify PATH`: every checksum, every row, every count.
struct ExportVerify: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check an export: checksums, every row, counts, and that it loads into its schema (exit 65 if not).",
    discussion: HelpExamples.discussion(examples: [
      "gym export verify \"$(ls -d backups/*/ | tail -1)\""
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The export's directory.") var path: String
  @OptionGroup var keys: IdentityOptions

  func run(context: CommandContext) throws {
    let reader = try keys.reader(path)
    if reader.isEncrypted && reader.identities.isEmpty {
      try reader.checkFiles()
      printNote(
        "ok: \(path): \(reader.manifest.files.count) encrypted files, checksums match; "
          + "rows not read (give --identity FILE to check them too)")
      return
    }
    // Everything `gym import` relies on, staged into a throwaway database: after "ok", an import
    // can fail only for its target's reasons.
    try ImportJob(
      reader: reader, target: "", modules: ModuleRegistry.modules, options: context.configuration.storeOptions
    ).check()
    let rows = reader.manifest.totalRows ?? 0
    printNote(
      "ok: \(path): \(reader.manifest.files.count) files, \(rows) rows, checksums and counts match; "
        + "every row loads into its schema" + reader.manifest.partialNote)
  }
}

/// `gym import DIR`: restores an export into an empty database.
public struct ImportCommand: GymCommand {
  public static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Restore an export into an empty database (verified first, older schemas migrated, all or nothing).",
    discussion: HelpExamples.discussion(
      """
      With --merge, into a database that has data: rows whose keys are there (a workout's id, an \
      item's name, a sample's natural key …) are left alone and counted; the others are added, \
      their links rewritten to the rows they point at.
      """,
      examples: [
        "gym import \"$(ls -d backups/*/ | tail -1)\" --database restored.sqlite",
        "gym import \"$(ls -d backups/*/ | tail -1)\" --merge",
      ]))

  @OptionGroup(title: "Common options") public var global: GlobalOptions
  @Argument(help: "The export's directory.") var path: String
  @Flag(help: "Add to a database that has data; rows already there are left alone.") var merge = false
  @OptionGroup var keys: IdentityOptions

  public init() {}

  public func run(context: CommandContext) throws {
    let reader = try keys.reader(path)
    let summary = try ImportJob(
      reader: reader, target: context.databasePath, modules: ModuleRegistry.modules,
      options: context.configuration.storeOptions, merge: merge
    ).run()
    printNote(
      "imported \(summary.rows) rows into \(summary.tables) tables from \(path)"
        + (summary.mergedIntoDatabaseMadeMeanwhile
          ? "; merged into the database another command made there meanwhile, \(summary.existing) already there"
          : merge ? "; \(summary.existing) already there, left alone" : "")
        + (summary.migrated.isEmpty
          ? "" : "; the export's schema v\(summary.exportSchema) migrated: \(summary.migrated.joined(separator: ", "))")
        + reader.manifest.partialNote
    )
  }
}
