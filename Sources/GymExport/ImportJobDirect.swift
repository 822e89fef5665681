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
  func directTables(applied: [String]) -> [ExportManifest.Table]? {
    guard reader.format != .sqlite, Set(applied) == Set(reader.manifest.schema) else { return nil }
    let registry = modules.flatMap(\.tables).map(\.name)
    let byName = Dictionary(reader.manifest.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    guard byName.count == reader.manifest.tables.count, Set(byName.keys).isSubset(of: registry) else { return nil }
    return registry.compactMap { byName[$0] }
  }

  /// A target that does not exist yet is built beside it under a temporary name, then put in
  /// place. Without a rollback journal: there is nothing to roll back to, a failure deletes the
  /// file, and the load is written once instead of to the WAL and then again into the database
  /// (1,000,000 workouts: 0.6 s less). Fsynced before it takes the target's name, which it takes
  /// only if nothing else has meanwhile.
  func loadIntoNewFile(_ tables: [ExportManifest.Table]) throws -> ImportSummary {
    let partial = target + ".import-" + UUID().uuidString + ".partial"
    defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(partial + suffix) } }
    let store = try Store(path: partial, modules: modules, options: options)
    try store.database.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA journal_mode = OFF")
      try db.execute(sql: "PRAGMA synchronous = OFF")
    }
    let summary = try loadDirectly(tables, into: store)
    try store.database.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
    }
    try store.close()
    let descriptor = open(partial, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0, fsync(descriptor) == 0 else {
      if descriptor >= 0 { close(descriptor) }
      throw GymError(.ioError, "cannot write '\(partial)': \(String(cString: strerror(errno))); nothing was imported")
    }
    close(descriptor)
    // A hard link does not replace: a database that appeared at the target meanwhile is kept.
    if link(partial, target) != 0 {
      let reason = errno
      guard reason != EEXIST else {
        throw GymError.data("'\(target)' appeared while the import ran; nothing was imported (run it again)")
      }
      guard rename(partial, target) == 0 else {
        throw GymError(
          .cannotCreate,
          "cannot create '\(target)': \(String(cString: strerror(errno))); choose a writable --database path")
      }
    }
    let folder = (target as NSString).deletingLastPathComponent
    Directory.fsync(folder.isEmpty ? "." : folder)
    return summary
  }

  /// The one-pass load in one transaction, foreign keys checked before it commits.
  func loadDirectly(_ tables: [ExportManifest.Table], into store: Store) throws -> ImportSummary {
    var summary = ImportSummary(tables: tables.count, exportSchema: reader.manifest.schema.count)
    do {
      try store.write { db in
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        let loader = DirectImport(reader: reader, derivedIndexes: modules.flatMap(\.derivedIndexes))
        summary.rows = try loader.load(db, tables: tables)
        try checkForeignKeys(db)
      }
    } catch let error as DatabaseError {
      throw GymError.data(
        "\(reader.path)/\(ExportManifest.fileName): its tables do not fit its schema (\(error.message ?? "\(error)")); "
          + "the export was edited or damaged")
    }
    return summary
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
