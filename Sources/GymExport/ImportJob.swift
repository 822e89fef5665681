import Foundation
import GRDB
import GymCLI
import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `gym import` did.
public struct ImportSummary: Sendable {
  public var tables = 0
  public var rows = 0
  public var exportSchema = 0
  public var migrated: [String] = []
  /// With `--merge`: rows already in the database, left alone.
  public var existing = 0
  /// The load went into a database another command made at the new path meanwhile.
  public var mergedIntoDatabaseMadeMeanwhile = false

  /// The load merged into the database another command made at its path meanwhile: the rows it
  /// added and those already there, as `--merge` counts them.
  mutating func merged(_ fresh: FreshDatabase) throws {
    try fresh.mergeIntoTarget().close()
    rows = fresh.merged?.added ?? rows
    existing = fresh.merged?.existing ?? 0
    mergedIntoDatabaseMadeMeanwhile = true
  }
}

/// Restores an export into an empty database, all or nothing: the export is verified first; its
/// rows are loaded into a staging database at the export's own schema version, which is then
/// migrated to this gym's (an older export's rows go through the same migrations a database
/// would); the staging tables are copied into the target in one transaction, foreign keys checked.
public struct ImportJob {
  public let reader: ExportReader
  public let target: String
  public let modules: [GymModule]
  public let options: Store.Options
  /// Into a database that has data: new rows are added, rows whose keys exist are left alone.
  public var merge = false

  public init(reader: ExportReader, target: String, modules: [GymModule], options: Store.Options, merge: Bool = false) {
    self.reader = reader
    self.target = target
    self.modules = modules
    self.options = options
    self.merge = merge
  }

  /// The name a verify's throwaway database begins with, in the temporary directory.
  static let verifyPrefix = "gym-verify-"

  /// Everything `run` relies on, without a target: the files, the schema, and every row loaded
  /// into a throwaway database (at this gym's schema by `run`'s own one-pass load, else staged and
  /// migrated). Once it passes, `run` can fail only for the target's reasons (`export verify`).
  public func check() throws {
    try reader.checkFiles()
    try checkSchema()
    // What a killed verify left in the temporary directory, once a day old, as the export's own.
    StalePartials.prune(in: NSTemporaryDirectory()) { $0.hasPrefix(Self.verifyPrefix) }
    // The rows, decrypted when the export is, go where only this user can read them.
    guard let directory = PrivateDirectory.make(prefix: Self.verifyPrefix) else {
      throw GymError(.cannotCreate, "cannot make a private directory for the check: \(PrivateDirectory.failure)")
    }
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let scratch = directory + "/rows.sqlite"
    // Rows at this gym's schema: the load `run` makes into a new database, into a throwaway one
    // (the bench export: 4 s, where the staging database took 29 s; Docs/PerformanceNotes.md).
    if let direct = tablesAtThisSchema {
      _ = try loadThrowaway(direct, at: scratch)
      return
    }
    _ = try stage(into: scratch)
  }

  /// The export's tables when its rows are at this gym's schema (`directTables`).
  private var tablesAtThisSchema: [ExportManifest.Table]? {
    directTables(applied: modules.flatMap { $0.migrations.map(\.identifier) })
  }

  /// The export loaded as `run` loads a new database, beside `path`, every check made; `whileLoaded`
  /// reads the file before it is deleted.
  private func loadThrowaway(
    _ tables: [ExportManifest.Table], at path: String, whileLoaded: (String) throws -> Void = { _ in }
  ) throws -> ImportSummary {
    try ImportJob(reader: reader, target: path, modules: modules, options: options)
      .loadIntoNewFile(tables, publishing: false, whileLoaded: whileLoaded)
  }

  /// A synced database records every write in its change log; a bulk copy is not recorded, and rows
  /// it added would stay on this device alone (Docs/Sync.md). Refused before the export is read.
  private func refuseSyncedTarget() throws {
    guard access(target, F_OK) == 0 else { return }
    let reader = try StoreReader(path: target, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, ofStore: true)
    defer { reader.close() }
    if let device = try reader.read({ try ChangeLog.device($0) }) {
      throw GymError.usage(
        "'\(target)' syncs as device '\(device)', and gym import cannot record its rows for the other devices; "
          + "import into a new database before its first sync")
    }
  }

  private func checkSchema() throws {
    let known = Set(modules.flatMap { $0.migrations.map(\.identifier) })
    let unknown = reader.manifest.schema.filter { !known.contains($0) }
    if !unknown.isEmpty { throw StoreError.newerSchema(path: reader.path, unknown: unknown) }
  }

  public func run() throws -> ImportSummary {
    try refuseSyncedTarget()
    try reader.checkFiles()
    try checkSchema()
    let base = (target as NSString).lastPathComponent + ".import-"
    let folder = (target as NSString).deletingLastPathComponent
    StalePartials.prune(in: folder.isEmpty ? "." : folder) {
      $0.hasPrefix(base) && ($0.hasSuffix(".partial") || $0.contains(".partial-"))
    }
    // A new path: built beside it and put in place whole (`FreshDatabase`), so a failure or a kill
    // leaves nothing there, and a database another command made there meanwhile is merged into,
    // never deleted. What --merge would add to nothing is all of it.
    if access(target, F_OK) != 0 {
      if let direct = tablesAtThisSchema { return try loadIntoNewFile(direct) }
      return try stageIntoNewFile(tables: modules.flatMap(\.tables).map(\.name))
    }
    let store = try Store(path: target, modules: modules, options: options)
    let tables = modules.flatMap(\.tables).map(\.name)
    let existing = try store.read { db in
      try tables.reduce(0) { $0 + (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(SQL.quote($1))") ?? 0) }
    }
    guard existing == 0 || merge else {
      throw GymError.data(
        "'\(target)' already holds \(existing) rows; import restores into an empty database "
          + "(pass --database with a new path, or --merge to add what is not there)")
    }
    let staging = target + ".import-" + UUID().uuidString + ".partial"
    defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(staging + suffix) } }
    if existing == 0 && !merge,
      let direct = directTables(applied: try MigrationRunner(store: store).state().applied)
    {
      return try loadDirectly(direct, into: store)
    }
    return try stageAndCopy(staging: staging, into: store, tables: tables)
  }

  /// Into a new path, an export the one-pass load cannot take (a snapshot, an older schema): staged
  /// and migrated, then copied into a database built beside the path, put there only once whole.
  private func stageIntoNewFile(tables: [String]) throws -> ImportSummary {
    let fresh = FreshDatabase(target: target)
    defer { fresh.discard() }
    let store = try fresh.openStore(modules: modules, options: options)
    // Named as the import's partial files are, so one a kill leaves is pruned a day later.
    let staging = fresh.partial + "-staging"
    defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(staging + suffix) } }
    var copying = self
    copying.merge = false
    var summary = try copying.stageAndCopy(staging: staging, into: store, tables: tables)
    if try !fresh.publish() { try summary.merged(fresh) }
    return summary
  }

  /// Into a database that has data (or that `--merge` names): the export loaded into a database of
  /// its own, then copied or merged. One at this gym's schema is loaded as a new database is
  /// (`loadIntoNewFile`); the bench export's 1,105,612 rows took 29 s to stage one at a time
  /// (Docs/PerformanceNotes.md). An older one is staged at its own schema and migrated.
  private func stageAndCopy(staging: String, into store: Store, tables: [String]) throws -> ImportSummary {
    guard let direct = tablesAtThisSchema else {
      var summary = try stage(into: staging)
      try copy(from: staging, into: store, tables: tables, summary: &summary)
      return summary
    }
    var summary = ImportSummary(exportSchema: reader.manifest.schema.count)
    _ = try loadThrowaway(direct, at: staging) { loaded in
      try copy(from: loaded, into: store, tables: tables, summary: &summary)
    }
    return summary
  }

  /// The export as a database of its own, migrated to this gym's schema.
  private func stage(into staging: String) throws -> ImportSummary {
    do {
      return try stageRows(into: staging)
    } catch let error as DatabaseError where Self.isExportsFault(error) {
      // The rows do not fit the schema the manifest names: a table or column it does not have, a
      // value its constraints refuse. The export was edited or damaged.
      throw GymError.data(
        "\(reader.path)/\(ExportManifest.fileName): its tables do not fit its schema (\(error.message ?? "\(error)")); "
          + "the export was edited or damaged")
    }
  }

  private func stageRows(into staging: String) throws -> ImportSummary {
    let manifest = reader.manifest
    var summary = ImportSummary(exportSchema: manifest.schema.count)
    var inspect = options
    inspect.inspectOnly = true
    if reader.format == .sqlite {
      try reader.copySnapshot(to: staging)
      try reader.checkSnapshot(
        at: staging, expected: try referenceSchema(beside: staging), dataTables: modules.flatMap(\.tables).map(\.name))
    } else {
      let store = try Store(path: staging, modules: modules, options: inspect)
      _ = try MigrationRunner(store: store).up(only: Set(manifest.schema), backup: false)
      try store.write { db in
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        for table in manifest.tables {
          let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
          let sql =
            "INSERT INTO \(SQL.quote(table.name)) (\(table.columns.map(SQL.quote).joined(separator: ", "))) "
            + "VALUES (\(marks))"
          // Made at the first row, so a row that does not match its columns is reported as such
          // before the columns are checked against the table (and still made for a table of none).
          var statement: Statement?
          try reader.rows(of: table) { values in
            if statement == nil { statement = try db.makeStatement(sql: sql) }
            try ExactValues.run(statement!, Self.databaseValues(values, table: table.name))
          }
          if statement == nil { _ = try db.makeStatement(sql: sql) }
        }
      }
    }
    let store = try Store(path: staging, modules: modules, options: inspect)
    summary.migrated = try MigrationRunner(store: store).up(backup: false).applied
    return summary
  }

  /// The schema objects gym's migrations make at the export's schema version, from an empty
  /// database made for the purpose beside `staging`.
  private func referenceSchema(beside staging: String) throws -> Set<String> {
    let reference = staging + "-reference"
    defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(reference + suffix) } }
    var inspect = options
    inspect.inspectOnly = true
    let store = try Store(path: reference, modules: modules, options: inspect)
    _ = try MigrationRunner(store: store).up(only: Set(reader.manifest.schema), backup: false)
    let objects = try store.read(ExportReader.schemaObjects)
    try store.close()
    return objects
  }

  /// Copies every table from the staging database into the target, in the registry's order
  /// (parents before children), in one transaction.
  private func copy(from staging: String, into store: Store, tables: [String], summary: inout ImportSummary) throws {
    try store.writeWithoutTransaction { db in
      try db.execute(sql: "ATTACH DATABASE ? AS staging", arguments: [staging])
      defer { try? db.execute(sql: "DETACH DATABASE staging") }
      // A merge adds rows all over the tables and their indexes: with SQLite's 2 MB page cache it
      // read most pages again from the file for each row (as `Store.writeSyncing` found for sync).
      try db.withPageCache(mebibytes: 64) {
        try db.inTransaction(.immediate) {
          let present = try Set(String.fetchAll(db, sql: "SELECT name FROM staging.sqlite_master WHERE type = 'table'"))
          let copied = tables.filter(present.contains)
          summary.tables = copied.count
          if merge {
            var merging = ImportMerge(keepingKeys: Set(store.syncedTables.map(\.name)))
            try merging.run(db, tables: copied)
            summary.rows = merging.added
            summary.existing = merging.existing
          } else {
            for table in copied {
              let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(SQL.quote(table)))")
                .map { SQL.quote($0["name"] as String) }.joined(separator: ", ")
              try db.execute(
                sql:
                  "INSERT INTO main.\(SQL.quote(table)) (\(columns)) SELECT \(columns) FROM staging.\(SQL.quote(table)) ORDER BY rowid"
              )
              summary.rows += db.changesCount
            }
          }
          try checkForeignKeys(db)
          return .commit
        }
      }
    }
  }

  /// An export's raw values as SQLite values (numbers as `ExportNumber` reads them).
  static func databaseValues(_ values: RecordValues, table: String) throws -> [DatabaseValue] {
    try values.kinds.indices.map { i in
      switch values.kinds[i] {
      case .missing, .null: return .null
      case .boolTrue: return 1.databaseValue
      case .boolFalse: return 0.databaseValue
      case .string: return values.string(i).databaseValue
      case .number:
        switch try values.withBytes(i, { try ExportNumber($0, table: table) }) {
        case .integer(let integer): return integer.databaseValue
        case .real(let real): return real.databaseValue
        }
      }
    }
  }
}
