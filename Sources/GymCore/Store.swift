import CGymSQLite
import Foundation
import GRDB

/// The one database every module shares: SQLite in WAL mode (readers in other processes never
/// wait for a writer), foreign keys on, a busy timeout, every registered module's migrations applied.
///
/// One command is one process doing one thing, so one connection (a GRDB `DatabaseQueue`) serves
/// it. A `DatabasePool` was measured here doing a write and an fsync'd checkpoint on every open
/// and close, reads included: it recreates a missing WAL file with a dummy transaction, and SQLite
/// deletes the WAL when the last connection closes. WAL is a property of the file, set once when
/// the database is created; concurrency between processes is the same.
public final class Store: Sendable {
  public struct Options: Sendable {
    public var busyTimeoutMilliseconds: Int
    /// Apply pending migrations on open (the default) instead of refusing to work.
    public var autoMigrate: Bool
    /// Open as it is, whatever its schema: for `gym migrate`, which reports and decides itself.
    public var inspectOnly: Bool
    /// How many backups migrations keep next to the database (`database.backups.keep`).
    public var keepBackups: Int
    /// Told, in one line, when opening migrated a database that already had a schema.
    public var announce: @Sendable (String) -> Void
    /// Every write transaction is rolled back at its end: a dry run does all the work, and counts
    /// what it would change, but keeps nothing.
    public var rollsBackWrites = false
    /// `database.busy_timeout`'s default: how long a command waits for another one's lock.
    public static let defaultBusyTimeoutMilliseconds = 5000

    public init(
      busyTimeoutMilliseconds: Int = defaultBusyTimeoutMilliseconds, autoMigrate: Bool = true,
      inspectOnly: Bool = false, keepBackups: Int = 5,
      announce: @escaping @Sendable (String) -> Void = { _ in }
    ) {
      self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
      self.autoMigrate = autoMigrate
      self.inspectOnly = inspectOnly
      self.keepBackups = keepBackups
      self.announce = announce
    }
  }

  public let path: String
  public let modules: [GymModule]
  public let options: Options
  /// Reached only through `read`, `write` and `writeWithoutTransaction`, which turn a held lock
  /// into `StoreError.busy` (exit 75) in this one place.
  let database: DatabaseQueue

  /// SQLite's process-wide settings (`gym_sqlite_configure`), made once, before the first store
  /// opens; where SQLite is already in use (a test process) they stay as they are.
  private static let sqliteSettings: Void = { _ = gym_sqlite_configure() }()

  /// Removes the database a failed command created at `path` (the file its symbolic links lead to)
  /// with its `-wal` and `-shm`, while no table holds a row but the schema's history and the store's
  /// identity (every table counts: a sync that began a device and then failed keeps its database) and
  /// no connection has it open. A file changed between the look and the removal (another command
  /// wrote) stays.
  public static func removeIfEmpty(_ given: String) {
    let path = StoreFile.realPath(given) ?? given
    // The file as it is, and what its WAL holds (a reader leaves an empty one: nothing written).
    func state() -> [Int] {
      var info = stat()
      guard stat(path, &info) == 0 else { return [] }
      let file = [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ino)]
      return file + [stat(path + "-wal", &info) == 0 ? Int(info.st_size) : 0]
    }
    // First with no connection open: what a WAL still holds goes into the file, so the look below and
    // the removal see the same bytes.
    guard (try? StoreFile.whileNoConnectionIsOpen(path, timeoutMilliseconds: 0) {}) != nil else { return }
    let before = state()
    guard let reader = try? StoreReader(path: path, busyTimeoutMilliseconds: 0) else { return }
    let empty = try? reader.read { db in
      let tables = try Row.fetchAll(
        db,
        sql:
          "SELECT name, sql LIKE 'CREATE VIRTUAL%' FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      ).map { (name: $0[0] as String, isVirtual: $0[1] as Bool) }
      // A full-text index's own tables hold rows when it holds none; its content is the tables' rows.
      let virtual = tables.filter(\.isVirtual).map(\.name)
      return try tables.filter { table in
        !table.isVirtual && !["grdb_migrations", "store_identity"].contains(table.name)
          && !virtual.contains { table.name.hasPrefix($0 + "_") }
      }.allSatisfy { table in
        !(try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(SQL.quote(table.name)))") ?? true)
      }
    }
    reader.close()
    guard empty == true else { return }
    try? StoreFile.whileNoConnectionIsOpen(path, timeoutMilliseconds: 0) {
      guard state() == before else { return }
      for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
  }

  /// Whether the file at `path` begins as an SQLite database does (its 16-byte magic string): what a
  /// command writing a file (`report --out`) never replaces.
  public static func isSQLiteFile(_ path: String) -> Bool {
    switch try? StoreFile.inspect(path) {
    case .sqliteWAL, .sqliteRollbackJournal: true
    default: false
    }
  }

  /// `path` as SQLite must be given it to read it as a file name: `:memory:` names no file, and
  /// `file:…` is a URI to the system's SQLite (its own parameters, another file: `file:x?mode=rwc`).
  /// Such a path is the file of that name in the working directory.
  public static func literalPath(_ path: String) -> String {
    path == ":memory:" || path.lowercased().hasPrefix("file:") ? "./" + path : path
  }

  /// Opens (creating if needed) the database at `path` and brings its schema up to date.
  /// A file that is not a gym database is refused before anything writes to it.
  public init(path: String, modules: [GymModule], options: Options = Options()) throws {
    _ = Self.sqliteSettings
    self.path = path
    self.modules = modules
    self.options = options
    // Before the lock, `stat` alone: the header is read once, under it.
    let isNew = StoreFile.isNew(path)
    if isNew && access(path, F_OK) != 0 { try StoreFile.createDirectory(for: path) }
    // Held until the first read below has taken SQLite's own lock (a restore waits for both).
    let timeout = options.busyTimeoutMilliseconds
    var openLock = try StoreOpenLock.acquireForStore(path, exclusive: isNew, timeoutMilliseconds: timeout)
    defer { openLock?.release() }
    var existing = try StoreFile.inspect(path)
    if let shared = openLock, !shared.isExclusive, existing == .missing || existing == .empty {
      shared.release()  // restored away, or emptied, while this waited: created under the exclusive lock
      openLock = try StoreOpenLock.acquireForStore(path, exclusive: true, timeoutMilliseconds: timeout)
      existing = try StoreFile.inspect(path)
    }
    if existing == .missing, access(path + ".restoring", F_OK) == 0 { throw StoreError.interruptedRestore(path: path) }
    if existing == .missing || existing == .empty { try StoreFile.refuseStrayWAL(path) }
    if existing == .sqliteRollbackJournal || (existing == .sqliteWAL && StoreFile.hasPendingWAL(path)) {
      // A read-write connection that closes last checkpoints the WAL into the main file and deletes
      // it: whose database this is must be known before one opens.
      try Self.translatingErrors(path: path, timeout: options.busyTimeoutMilliseconds) {
        try StoreFile.refuseForeign(path, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
      }
    } else if existing == .sqliteWAL {
      StoreFile.removeStrandedCompanions(path)
    }
    var configuration = Configuration()
    configuration.busyMode = .timeout(TimeInterval(options.busyTimeoutMilliseconds) / 1000)
    let isWAL = existing == .sqliteWAL  // read from the header: no query on the common path
    configuration.prepareDatabase { db in
      if !isWAL, try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
        // Only a new, empty database gets here: others were refused or are WAL already.
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
      db.add(function: GlobalKey.sqlFunction)
    }
    do {
      database = try DatabaseQueue(path: path, configuration: configuration)
    } catch let error as DatabaseError {
      throw Self.translate(error, path: path, timeout: options.busyTimeoutMilliseconds)
    }
    try migrateIfNeeded()
  }

  /// Checks the schema history in one read (the common case: nothing to do, no write lock), then
  /// refuses what it must and applies what is pending, through `MigrationRunner` (backup first,
  /// verified after, all or nothing).
  private func migrateIfNeeded() throws {
    guard !options.inspectOnly else {
      // A first read takes the lock a WAL connection keeps, which a restore waits for.
      _ = try read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
      return
    }
    let state = try read { db in
      // The common case, a gym database, in one query; the table list only when that fails.
      if let applied = try? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") {
        return (tables: ["grdb_migrations"], applied: Set(applied))
      }
      let tables = try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      return (tables: tables, applied: Set<String>())
    }
    if !state.tables.isEmpty && !state.tables.contains("grdb_migrations") {
      throw StoreError.foreignDatabase(path: path)
    }
    let known = modules.flatMap { $0.migrations.map(\.identifier) }
    let unknown = state.applied.subtracting(known).sorted()
    if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: unknown) }
    let pending = known.filter { !state.applied.contains($0) }
    guard !pending.isEmpty else { return }
    // A new database gets its schema without a word; an existing one is announced.
    guard options.autoMigrate || state.applied.isEmpty else {
      throw StoreError.pendingMigrations(path: path, pending: pending)
    }
    var runner = MigrationRunner(store: self)
    runner.keepBackups = options.keepBackups
    let report = try translatingErrors { try runner.up() }
    if report.fromVersion > 0 && !report.applied.isEmpty {
      options.announce(
        "gym: migrated '\(path)' from schema v\(report.fromVersion) to v\(report.toVersion) "
          + "(\(report.applied.joined(separator: ", ")))"
          + (report.backup.map { "; backup: \($0.path)" } ?? ""))
    }
  }

  /// Closes the connection now: SQLite checkpoints the WAL and, as the last connection, removes
  /// it. Nothing may use the store after (GRDB does not check).
  public func close() throws {
    try translatingErrors { try database.close() }
  }

  /// A read transaction; `SQLITE_BUSY` past the timeout becomes `StoreError.busy`.
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    try translatingErrors { try database.read(body) }
  }

  /// Every module's tables that `gym sync` shares.
  public var syncedTables: [SyncedTable] { modules.flatMap(\.syncedTables) }

  /// The schema of the synced tables, as change files name it: the last migration of each module
  /// that has some (`staples/004-global-keys`). Devices on another one hold each other's changes
  /// back until both run the same gym.
  public var syncSchema: String {
    modules.filter { !$0.syncedTables.isEmpty }.compactMap { $0.migrations.last?.identifier }.joined(separator: ",")
  }

  /// Every module's `assignSyncKeys`, in the write transaction that begins sync.
  public func assignSyncKeys(_ db: Database) throws {
    for module in modules { try module.assignSyncKeys(db) }
  }

  /// `assignSyncKeys` of the modules that own any of `tables` only (tables that begin syncing later).
  public func assignSyncKeys(_ db: Database, owning tables: Set<String>) throws {
    for module in modules where module.syncedTables.contains(where: { tables.contains($0.name) }) {
      try module.assignSyncKeys(db)
    }
  }

  /// One write transaction, all or nothing. Once sync has begun on this database, what it changes in
  /// the synced tables is recorded in the change log (`sync_change`) in the same transaction: a
  /// write is never kept without its record, nor recorded without being kept.
  public func write<T>(_ body: (Database) throws -> T) throws -> T {
    guard options.rollsBackWrites else {
      return try translatingErrors {
        try database.write { db in
          let capture = try ChangeCapture.begin(db, tables: syncedTables, keyings: modules.flatMap(\.rowKeyings))
          let result = try body(db)
          try capture?.finish(db)
          return result
        }
      }
    }
    return try translatingErrors {
      try database.writeWithoutTransaction { db in
        var result: T?
        try db.inTransaction(.immediate) {
          result = try body(db)
          return .rollback
        }
        // swift-format-ignore: NeverForceUnwrap
        return result!
      }
    }
  }

  /// The connection outside a transaction, for work that sets connection state first (pragmas,
  /// an attached database) and opens its own transaction. Such work is not recorded for sync: on a
  /// synced database, a body that changes a synced table is refused (before its commit can stay).
  public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
    try translatingErrors {
      try database.writeWithoutTransaction { db in
        let guarded = try ChangeCapture.guardUnrecorded(db, tables: syncedTables)
        defer { guarded?.end(db) }
        return try body(db)
      }
    }
  }

  /// A write transaction of `gym sync` itself: what it applies from other devices is already in the
  /// change log, so nothing is recorded again. Foreign keys are off inside it, so that SQLite's
  /// `ON DELETE` actions never touch a row a changeset did not name (undoing a change must meet
  /// exactly the rows it left); the merge applies those rules itself (`ChangesetMerge`), and the
  /// transaction commits only when no row points at a missing one.
  public func writeSyncing<T>(_ body: (Database) throws -> T) throws -> T {
    try translatingErrors {
      try database.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        // A merge or a base touches pages all over the tables: SQLite's default 2 MB page cache
        // read most of them again from the file (half the time of a 200,000-row base in the kernel).
        var result: T?
        try db.withPageCache(mebibytes: 64) {
          try db.inTransaction(.immediate) {
            result = try body(db)
            for table in syncedTables {
              if let broken = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check(\(SQL.quote(table.name)))") {
                throw StoreError.inconsistent(
                  "sync would leave a row of \(table.name) pointing at a missing \(broken["parent"] as String)")
              }
            }
            return .commit
          }
        }
        // swift-format-ignore: NeverForceUnwrap
        return result!
      }
    }
  }

  private func translatingErrors<T>(_ body: () throws -> T) throws -> T {
    try Self.translatingErrors(path: path, timeout: options.busyTimeoutMilliseconds, body)
  }

  static func translatingErrors<T>(path: String, timeout: Int, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError {
      throw translate(error, path: path, timeout: timeout)
    }
  }

  static func translate(_ error: DatabaseError, path: String, timeout: Int) -> any Error {
    switch error.resultCode {
    case .SQLITE_BUSY, .SQLITE_LOCKED: StoreError.busy(path: path, timeoutMilliseconds: timeout)
    case .SQLITE_NOTADB: StoreError.notADatabase(path: path)
    case .SQLITE_CORRUPT: StoreError.damaged(path: path)
    case .SQLITE_READONLY: StoreError.readOnly(path: path, reason: StoreFile.whyReadOnly(path))
    case .SQLITE_CANTOPEN:
      FileManager.default.fileExists(atPath: path)
        ? StoreError.readOnly(path: path, reason: StoreFile.whyReadOnly(path))
        : StoreError.cannotCreate(path: path, reason: "SQLite cannot open it")
    default: error
    }
  }

  /// `$XDG_DATA_HOME/gym/gym.sqlite`, or `~/.local/share/gym/gym.sqlite`.
  public static func defaultPath(environment: [String: String]) -> String {
    XDGDirectories.dataHome(environment) + "/gym/gym.sqlite"
  }
}
