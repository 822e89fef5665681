import ArgumentParser
import Foundation
import GymCore

/// The modules the executable registered, and what they add to the report; set once in `main`
/// before any command runs.
public enum ModuleRegistry {
  nonisolated(unsafe) public private(set) static var modules: [GymModule] = []
  nonisolated(unsafe) public private(set) static var reports: [ReportContribution] = []

  /// The executable's list, once, before any command runs.
  public static func register(_ features: [FeatureModule]) {
    modules = features.map(\.module) + [syncModule]
    reports = features.compactMap(\.report)
  }
}

/// What every command needs, built once: the effective configuration and the database path.
public struct CommandContext {
  public let configuration: Configuration
  public let global: GlobalOptions

  public init(_ global: GlobalOptions, environment: [String: String] = ConfigLoader.processEnvironment()) throws {
    let loader = ConfigLoader(environment: environment, workingDirectory: Self.workingDirectory())
    var configuration = try loader.load(explicit: global.config)
    if let database = global.database {
      // SQLite reads an empty name as a temporary database deleted at close: every write would vanish.
      guard !database.isEmpty else { throw GymError.usage("--database needs a path; give the database file's path") }
      configuration.set(.databasePath, database, source: "--database")
    }
    self.configuration = configuration
    self.global = global
  }

  /// A `TZ` the C library cannot read is UTC to it, without a word: every local time read or shown would
  /// be off by the zone (`TZ=Europe/Pariss`). Refused (78), as such a `time.zone` is. Read as glibc does:
  /// empty is UTC; a zone file's name or path, with or without a leading `:`; or a POSIX rule (`EST5EDT`,
  /// `UTC0`, `<+03>-3`).
  static func checkInheritedZone(_ zone: String?) throws {
    guard let zone, !zone.isEmpty else { return }
    let name = zone.hasPrefix(":") ? String(zone.dropFirst()) : zone
    if name.hasPrefix("/") ? ConfigKey.isZoneFile(name) : ConfigKey.isKnownTimeZone(name) { return }
    // POSIX: std offset [dst [offset] [,start[/time],end[/time]]], each name 3+ letters or <…>.
    let abbreviation = "([A-Za-z]{3,}|<[A-Za-z0-9+-]{3,}>)"
    let offset = "[+-]?[0-9]{1,2}(:[0-9]{2}){0,2}"
    let rule =
      "^\(abbreviation)\(offset)(\(abbreviation)(\(offset))?(,[A-Za-z0-9.]+(/[+-]?[0-9:]+)?,[A-Za-z0-9.]+(/[+-]?[0-9:]+)?)?)?$"
    if name.range(of: rule, options: .regularExpression) != nil { return }
    throw GymError(
      .configuration,
      "TZ '\(zone)' is no time zone this system knows, and local times would be read in UTC; set TZ to an IANA "
        + "name such as Europe/Paris (the files under /usr/share/zoneinfo), or time.zone in the configuration")
  }

  /// What a command decides for the whole process, once, before it runs: notes silenced by
  /// `--quiet`, and the zone days and hours follow (`time.zone`), which the C library's local time
  /// (SQLite's `localtime`, and gym's own) reads from TZ. Only the command runners below call it:
  /// a context made anywhere else (completion, a test) changes nothing outside itself.
  func adoptForProcess() {
    Notes.quiet = global.quiet
    if let zone = configuration.string(.timeZone) {
      setenv("TZ", zone, 1)
      tzset()
    }
  }

  /// The context of the command about to run, adopted for the process.
  public static func forRunningCommand(_ global: GlobalOptions) throws -> CommandContext {
    let context = try CommandContext(global)
    if context.configuration.string(.timeZone) == nil {
      try checkInheritedZone(getenv("TZ").map { String(cString: $0) })
    }
    context.adoptForProcess()
    return context
  }

  /// getcwd(3): FileManager costs more than the rest of a small query's configuration.
  static func workingDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "." }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  public var databasePath: String {
    Store.literalPath(
      configuration.string(.databasePath) ?? Store.defaultPath(environment: ConfigLoader.processEnvironment()))
  }

  /// Where exports go without `--out`: `export.directory`, else `$XDG_DATA_HOME/gym/exports`.
  public var exportDirectory: String {
    if let configured = configuration.string(.exportDirectory) { return configured }
    let database = Store.defaultPath(environment: ConfigLoader.processEnvironment())
    return (database as NSString).deletingLastPathComponent + "/exports"
  }

  /// Opens the shared store with every registered module's schema, for the rest of the command.
  /// A read never creates: a database path that does not exist is exit 66 and nothing is made, so
  /// a mistyped path in a script fails instead of reporting an empty database.
  public func openStore() throws -> Store {
    guard !databaseIsNew else {
      if access(databasePath + ".restoring", F_OK) == 0 { throw StoreError.interruptedRestore(path: databasePath) }
      // An empty file is no database either: a read would make it one.
      let what = access(databasePath, F_OK) == 0 ? "only an empty file" : "no database"
      throw GymError.noInput(
        "\(what) at '\(databasePath)' (nothing was created); check --database or database.path, "
          + "or add or import something to create it")
    }
    return CommandStores.keep(
      try Store(path: databasePath, modules: ModuleRegistry.modules, options: configuration.storeOptions))
  }

  /// Opens the store for a command that adds records (add, import, seed), creating the database if
  /// it is not there, and saying so once.
  public func openStoreForWriting() throws -> Store {
    let (isNew, noFile, folders) = (databaseIsNew, noFileAtPath, Folders.missing(above: databasePath))
    let store = CommandStores.keep(
      try Store(path: databasePath, modules: ModuleRegistry.modules, options: configuration.storeOptions))
    if isNew { noteCreatedDatabase(whereNoFileWas: noFile, madeFolders: folders) }
    return store
  }

  /// Nothing at the path, not even a symbolic link (`lstat`).
  public var noFileAtPath: Bool {
    var info = stat()
    return lstat(databasePath, &info) != 0
  }

  /// Whether no database is at the path yet: no file, or an empty one (what a store makes one of). A
  /// device or a folder there is no database, and the store refuses it.
  public var databaseIsNew: Bool {
    var info = stat()
    return stat(databasePath, &info) != 0 || (info.st_mode & S_IFMT == S_IFREG && info.st_size == 0)
  }

  /// The command made the database: said once it has succeeded; should it fail, the database is
  /// removed again while no record is in it (`CommandStores.discardCreated`).
  public func noteCreatedDatabase(whereNoFileWas: Bool, madeFolders: [String] = []) {
    CommandStores.noteCreated(databasePath, whereNoFileWas: whereNoFileWas, madeFolders: madeFolders)
  }

  /// How an import reaches the store: to write (creating the database); with `dryRun`, a store
  /// whose writes roll back, so the import counts what it would insert, update and leave; nil when a
  /// dry run has no database yet (every record is validated, and all would be inserted).
  /// A database that is not there yet is made beside its path and put in place only when the
  /// command succeeds (`FreshDatabase`).
  public func storeForImport(dryRun: Bool) -> (() throws -> Store)? {
    if dryRun { Notes.dryRun = true }
    guard dryRun else {
      guard access(databasePath, F_OK) != 0 else { return openStoreForWriting }
      let fresh = CommandStores.keepFresh(FreshDatabase(target: databasePath))
      let options = configuration.storeOptions
      return { try fresh.openStore(modules: ModuleRegistry.modules, options: options) }
    }
    guard !databaseIsNew else { return nil }
    return {
      var options = configuration.storeOptions
      options.rollsBackWrites = true
      return CommandStores.keep(try Store(path: databasePath, modules: ModuleRegistry.modules, options: options))
    }
  }

  /// `--format`, else `output.format`.
  public func format(_ options: OutputOptions) -> OutputFormat {
    format(options.formatting)
  }

  public func format(_ options: FormatOptions) -> OutputFormat {
    options.format ?? configuration.outputFormat
  }

  /// The page size: `--limit` (0: none), else `output.page_size` for a table.
  /// A table is for a person and keeps `output.page_size`; json, ndjson and csv are for programs and
  /// return every row unless `--limit` says otherwise.
  public func limit(_ paging: PagingOptions, format: OutputFormat) -> Int? {
    let limit = paging.limit ?? (format == .table ? configuration.integer(.pageSize) : 0)
    return limit == 0 ? nil : limit
  }
}

/// A command whose errors become one line on stderr and a distinct exit status.
public protocol GymCommand: ParsableCommand {
  var global: GlobalOptions { get }
  func run(context: CommandContext) throws
}

extension GymCommand {
  public func run() throws {
    defer { CommandStores.closeAll() }
    do {
      try run(context: try .forRunningCommand(global))
      try CommandStores.publishFresh()
      CommandStores.announceCreated()
      try StandardErrorLoss.check()
    } catch {
      CommandStores.discardCreated()
      throw Self.report(error, verbose: global.verbose)
    }
  }

  public static func report(_ error: any Error, verbose: Bool) -> any Error {
    reportError(error, verbose: verbose)
  }
}

/// A command that waits on asynchronous work (the scheduler's service group), with the same
/// one-line errors and exit statuses as every other command.
public protocol AsyncGymCommand: AsyncParsableCommand {
  var global: GlobalOptions { get }
  func run(context: CommandContext) async throws
}

extension AsyncGymCommand {
  /// What the command's own `run() async` calls: declared in the type itself, since a default here
  /// would lose to `ParsableCommand`'s synchronous one (which prints help).
  public func runReportingErrors() async throws {
    defer { CommandStores.closeAll() }
    do {
      try await run(context: try .forRunningCommand(global))
      try CommandStores.publishFresh()
      CommandStores.announceCreated()
      try StandardErrorLoss.check()
    } catch {
      CommandStores.discardCreated()
      throw reportError(error, verbose: global.verbose)
    }
  }
}

/// An error as one line on stderr (with `--verbose`, its detail too), as the exit code to leave with.
func reportError(_ error: any Error, verbose: Bool) -> any Error {
  if error is ExitCode || error is CleanExit || error is ValidationError { return error }
  let (status, message) = ErrorReporting.classify(error)
  printError("gym: error: \(ErrorReporting.oneLine(message))")
  if verbose { printError("gym: detail: \(String(reflecting: error))") }
  return ExitCode(status.rawValue)
}
