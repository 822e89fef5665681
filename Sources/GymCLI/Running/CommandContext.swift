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
      configuration.set(.databasePath, database, source: "--database")
    }
    self.configuration = configuration
    self.global = global
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
    guard access(databasePath, F_OK) == 0 else {
      if access(databasePath + ".restoring", F_OK) == 0 { throw StoreError.interruptedRestore(path: databasePath) }
      throw GymError.noInput(
        "no database at '\(databasePath)' (nothing was created); check --database or database.path, "
          + "or add or import something to create it")
    }
    return CommandStores.keep(
      try Store(path: databasePath, modules: ModuleRegistry.modules, options: configuration.storeOptions))
  }

  /// Opens the store for a command that adds records (add, import, seed), creating the database if
  /// it is not there, and saying so once.
  public func openStoreForWriting() throws -> Store {
    let isNew = access(databasePath, F_OK) != 0
    let store = CommandStores.keep(
      try Store(path: databasePath, modules: ModuleRegistry.modules, options: configuration.storeOptions))
    if isNew { CommandStores.noteCreated(databasePath) }
    return store
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
    guard access(databasePath, F_OK) == 0 else { return nil }
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
