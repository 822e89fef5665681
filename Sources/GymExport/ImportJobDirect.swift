import Foundation
import GRDB
import GymCLI
import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one-pass import: an export of rows at exactly this gym's schema loads straight into the
/// target (`DirectImport`), with no staging database and no migrations.
extension ImportJob {
  /// The export's tables in the registry's order (parents first) when it can be loaded straight
  /// into a database whose schema is `applied`: rows, not a snapshot, at exactly that schema,
  /// every table one the registry has. Nil otherwise: the export goes through a staging database.
  /// Only the migrations of modules with exported tables are compared: one of a module without
  /// any (sync's log, the store's identity) changes no row an export holds, nor does one that remakes
  /// views alone (`.view`): an export made before `history/017` loads in one pass (staged and merged
  /// row by row it took 44 s instead of 4 for the bench export).
  func directTables(applied: [String]) -> [ExportManifest.Table]? {
    let shaping = Set(
      modules.filter { !$0.tables.isEmpty }.flatMap { $0.migrations.filter { $0.kind != .view }.map(\.identifier) })
    guard reader.format != .sqlite,
      Set(applied).intersection(shaping) == Set(reader.manifest.schema).intersection(shaping)
    else { return nil }
    let registry = modules.flatMap(\.tables).map(\.name)
    let byName = Dictionary(reader.manifest.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    guard byName.count == reader.manifest.tables.count, Set(byName.keys).isSubset(of: registry) else { return nil }
    return registry.compactMap { byName[$0] }
  }

  /// A target that does not exist yet is built beside it and put in place when complete
  /// (`FreshDatabase`: no fsyncs, the rows written once). Nothing else can open the file, so the
  /// rows are committed before they are checked: the scan for rows that break a CHECK then runs on
  /// every core (`ParallelCheckScan`), and the rows go out to disk while it and the index builds
  /// run (`startSync`), so the fsync at the end waits only for the indexes. Not `publishing` (`export
  /// verify`, a staging database): every check made, `whileLoaded` given the file's path, then the
  /// file discarded.
  func loadIntoNewFile(
    _ tables: [ExportManifest.Table], publishing: Bool = true, whileLoaded: (String) throws -> Void = { _ in }
  ) throws -> ImportSummary {
    let fresh = FreshDatabase(target: target)
    defer { fresh.discard() }
    let store = try fresh.openStore(modules: modules, options: options)
    let loader = DirectImport(reader: reader, derivedIndexes: modules.flatMap(\.derivedIndexes))
    var summary = ImportSummary(tables: tables.count, exportSchema: reader.manifest.schema.count)
    try explainingDatabaseErrors {
      // The references are checked once, after the rows (`checkForeignKeys`), instead of a parent
      // looked up for every row that names one (the library's 80,000 of the bench export).
      try store.writeWithoutTransaction { try $0.execute(sql: "PRAGMA foreign_keys = OFF") }
      let loaded = try store.write { db in
        let loaded = try loader.loadRows(db, tables: tables)
        try checkForeignKeys(db)
        return loaded
      }
      try store.writeWithoutTransaction { try $0.execute(sql: "PRAGMA foreign_keys = ON") }
      if publishing { fresh.startSync() }
      if let found = try ParallelCheckScan.firstViolation(path: fresh.partial, tables: tables.map(\.name)) {
        throw loader.violation(table: found.table, rowid: found.rowid, check: found.check)
      }
      try store.write { db in try loader.finish(db, loaded) }
      summary.rows = loaded.rows
    }
    guard publishing else {
      try whileLoaded(fresh.partial)
      return summary
    }
    // Another command made a database at the path meanwhile: this load is merged into it.
    if try !fresh.publish() { try summary.merged(fresh) }
    return summary
  }

  /// The one-pass load in one transaction, foreign keys checked before it commits.
  func loadDirectly(_ tables: [ExportManifest.Table], into store: Store) throws -> ImportSummary {
    var summary = ImportSummary(tables: tables.count, exportSchema: reader.manifest.schema.count)
    try explainingDatabaseErrors {
      try store.write { db in
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        let loader = DirectImport(reader: reader, derivedIndexes: modules.flatMap(\.derivedIndexes))
        summary.rows = try loader.load(db, tables: tables)
        try checkForeignKeys(db)
      }
    }
    return summary
  }

  /// SQLite's refusal of a row (a type, a NOT NULL, a unique key) said as the export's fault.
  private func explainingDatabaseErrors(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as DatabaseError where Self.isExportsFault(error) {
      throw GymError.data(
        "\(reader.path)/\(ExportManifest.fileName): its tables do not fit its schema (\(error.message ?? "\(error)")); "
          + "the export was edited or damaged")
    }
  }

  /// Whether SQLite refused what the export holds (a constraint, a type, a table or column its schema
  /// lacks, a snapshot whose own schema is damaged), not failed to write (a full disk, a file-size
  /// limit, a lock): those are the machine's, reported as such (exit 74, 75), never as a damaged
  /// export someone might throw away.
  static func isExportsFault(_ error: DatabaseError) -> Bool {
    [
      .SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_ERROR, .SQLITE_TOOBIG, .SQLITE_RANGE, .SQLITE_CORRUPT,
      .SQLITE_NOTADB,
    ]
    .contains(error.resultCode)
  }

  func checkForeignKeys(_ db: Database) throws {
    let orphans = try Row.fetchAll(db, sql: "PRAGMA main.foreign_key_check")
    if let first = orphans.first {
      throw GymError.data(
        "\(reader.path): \(orphans.count) row(s) of \(first["table"] as String) point at missing "
          + "\(first["parent"] as String) rows; nothing was imported")
    }
  }
}
