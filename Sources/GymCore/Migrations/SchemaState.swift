import GRDB

/// Where a database stands against the migrations this binary knows.
public struct SchemaState: Sendable {
  /// Applied identifiers, in the order they were applied.
  public let applied: [String]
  /// Known migrations not applied yet, in the order they will run.
  public let pending: [Migration]
  /// Applied identifiers this binary does not know: a newer gym wrote the database.
  public let unknown: [String]
  /// The database holds no gym schema history but has tables of its own.
  public let isForeign: Bool

  /// The schema version: how many migrations are applied (backups are named with it).
  public var version: Int { applied.count }

  public static func read(_ db: Database, migrations: [Migration]) throws -> SchemaState {
    let applied: [String]
    if try db.tableExists("grdb_migrations") {
      applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    } else {
      applied = []
      let tables = try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")!
      if tables > 0 { return SchemaState(applied: [], pending: migrations, unknown: [], isForeign: true) }
    }
    let known = Set(migrations.map(\.identifier))
    let done = Set(applied)
    return SchemaState(
      applied: applied, pending: migrations.filter { !done.contains($0.identifier) },
      unknown: applied.filter { !known.contains($0) }, isForeign: false)
  }

  /// The pending migrations among `identifiers`, in registration order (an export's schema).
  public func pending(only identifiers: Set<String>) -> [Migration] {
    pending.filter { identifiers.contains($0.identifier) }
  }

  /// The pending migrations up to and including `target` (all of them when nil).
  public func pending(upTo target: String?) throws(StoreError) -> [Migration] {
    guard let target else { return pending }
    guard let end = pending.firstIndex(where: { $0.identifier == target }) else {
      if applied.contains(target) { return [] }
      throw StoreError.unknownMigration(target)
    }
    return Array(pending[...end])
  }
}
