import Foundation
import GRDB

/// What `migrate up` did.
public struct MigrationReport: Sendable {
  public let applied: [String]
  public let backup: Backup?
  public let fromVersion: Int
  public let toVersion: Int
  /// Wall time of the backup, and of the migrations with their checks.
  public var backupSeconds: Double = 0
  public var migrationSeconds: Double = 0
}

/// Applies pending migrations so that either all of them complete and are verified, or the
/// database is exactly as it was — with a backup either way.
///
/// 1. Foreign keys off (outside any transaction, where SQLite honours it: a rebuild must be able
///    to drop and recreate a parent table), then `BEGIN IMMEDIATE`: the write lock. A second
///    process starting a migration waits here, then finds nothing pending.
/// 2. If the database holds rows, an online backup of exactly this state, verified.
/// 3. Row counts of every table; the migrations, in order; their identifiers recorded.
/// 4. `foreign_key_check` on the touched tables and on the tables that reference them; row counts
///    compared for every table not declared to change; every declared index present.
/// 5. COMMIT — or, on any failure, ROLLBACK: SQLite never wrote the main file (WAL), so it is
///    byte-for-byte as it was, and the backup is kept.
public struct MigrationRunner {
  public let store: Store
  public var keepBackups = 5
  public var announce: (String) -> Void = { _ in }

  public init(store: Store) {
    self.store = store
  }

  public var migrations: [Migration] { store.modules.flatMap(\.migrations) }

  public func state() throws -> SchemaState {
    try store.read { try SchemaState.read($0, migrations: migrations) }
  }

  public func up(
    to target: String? = nil, only: Set<String>? = nil, backup: Bool = true, now: Date = Date()
  ) throws -> MigrationReport {
    try store.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA foreign_keys = OFF")
      defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
      try db.execute(sql: "BEGIN IMMEDIATE")
      do {
        let report = try apply(db, target: target, only: only, backup: backup, now: now)
        try db.execute(sql: "COMMIT")
        if report.backup != nil { Backup.prune(store.path, keep: keepBackups) }
        return report
      } catch {
        try? db.execute(sql: "ROLLBACK")
        throw error
      }
    }
  }

  private func apply(
    _ db: Database, target: String?, only: Set<String>?, backup takeBackup: Bool, now: Date
  ) throws -> MigrationReport {
    let state = try SchemaState.read(db, migrations: migrations)
    if state.isForeign { throw StoreError.foreignDatabase(path: store.path) }
    if !state.unknown.isEmpty { throw StoreError.newerSchema(path: store.path, unknown: state.unknown) }
    let pending = try only.map { state.pending(only: $0) } ?? state.pending(upTo: target)
    guard !pending.isEmpty else {
      return MigrationReport(applied: [], backup: nil, fromVersion: state.version, toVersion: state.version)
    }
    let before = try Self.rowCounts(db)
    var backup: Backup?
    let backupStart = Date()
    if takeBackup && before.values.contains(where: { $0 > 0 }) {
      backup = try Backup.take(database: store.path, version: state.version, now: now)
    }
    let migrationStart = Date()
    if try !db.tableExists("grdb_migrations") {
      try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    }
    for migration in pending {
      do {
        try migration.apply(db)
        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
        try verify(db, after: migration, before: before)
      } catch let error as DatabaseError where [.SQLITE_FULL, .SQLITE_IOERR].contains(error.resultCode) {
        // A full or failing disk is the machine's failure, not the migration's (74, not 65); rolled
        // back all the same.
        throw error
      } catch {
        throw StoreError.migrationFailed(
          identifier: migration.identifier, reason: Self.reason(error), backup: backup?.path)
      }
    }
    return MigrationReport(
      applied: pending.map(\.identifier), backup: backup, fromVersion: state.version,
      toVersion: state.version + pending.count, backupSeconds: migrationStart.timeIntervalSince(backupStart),
      migrationSeconds: Date().timeIntervalSince(migrationStart))
  }

  /// After each migration: its relationships hold and no table lost or gained rows it should not.
  private func verify(_ db: Database, after migration: Migration, before: [String: Int]) throws {
    db.clearSchemaCache()
    let tables = try Self.tables(db)
    var checked = Set(migration.touches)
    for table in tables where !migration.touches.isEmpty {
      let parents = try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(SQL.quote(table)))").map {
        $0["table"] as String
      }
      if parents.contains(where: migration.touches.contains) { checked.insert(table) }
    }
    for table in checked.sorted() where tables.contains(table) {
      let problems = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check(\(SQL.quote(table)))")
      if let first = problems.first {
        throw MigrationCheckError(
          "\(problems.count) row(s) of \(table) point at missing \(first["parent"] as String) rows "
            + "(rowid \(first["rowid"] as Int64? ?? 0))")
      }
    }
    let after = try Self.rowCounts(db)
    for (table, count) in before where !migration.rowsMayChange.contains(table) {
      guard let now = after[table] else {
        if count == 0 || migration.kind == .rename { continue }
        throw MigrationCheckError("table \(table) with \(count) rows is gone")
      }
      if now != count { throw MigrationCheckError("table \(table) had \(count) rows and now has \(now)") }
    }
    let module = store.modules.first { $0.name == migration.module }
    let applied = try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    // Declared indexes are checked once the module's last migration has run (they describe it).
    if let module, module.migrations.allSatisfy({ applied.contains($0.identifier) }) {
      let indexes = try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
      for table in module.tables {
        for index in table.indexes where !indexes.contains(index.name) {
          throw MigrationCheckError("index \(index.name) of \(table.name) is missing")
        }
      }
    }
  }

  /// Every ordinary table (not SQLite's, not FTS5's shadow tables) with its number of rows.
  public static func rowCounts(_ db: Database) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    for table in try tables(db) {
      counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(SQL.quote(table))")
    }
    return counts
  }

  static func tables(_ db: Database) throws -> [String] {
    try String.fetchAll(
      db,
      sql: """
        SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
          AND name <> 'grdb_migrations' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
          AND name NOT IN (SELECT m.name || suffix FROM sqlite_master m,
            (SELECT '_data' AS suffix UNION ALL SELECT '_idx' UNION ALL SELECT '_content' UNION ALL SELECT '_docsize'
             UNION ALL SELECT '_config')
            WHERE m.sql LIKE 'CREATE VIRTUAL TABLE%')
        ORDER BY name
        """)
  }

  static func reason(_ error: any Error) -> String {
    switch error {
    case let error as MigrationCheckError: error.message
    case let error as DatabaseError: error.message ?? "\(error.resultCode)"
    case let error as StoreError: error.description
    default: "\(error)"
    }
  }
}

/// A check after a migration failed: the message says what no longer holds.
struct MigrationCheckError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
