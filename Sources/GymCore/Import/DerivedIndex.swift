import GRDB

/// A table that triggers keep in step with others (the library's full-text index). A bulk load
/// into empty tables builds it once, after the rows, instead of through the triggers row by row:
/// per row they cost most of a load, and while the load has dropped the indexes their lookups
/// scan whole tables.
public struct DerivedIndex: Sendable {
  /// Its own table (a full-text table, with the shadow tables SQLite names after it): never
  /// exported, since it is rebuilt from the others.
  public let table: String
  /// The table whose rows it indexes: the load is deferred only while that table is empty.
  public let source: String
  /// What its triggers' names start with.
  public let triggerPrefix: String
  /// Fills it from the tables in one statement.
  public let fill: String

  public init(table: String, source: String, triggerPrefix: String, fill: String) {
    self.table = table
    self.source = source
    self.triggerPrefix = triggerPrefix
    self.fill = fill
  }
}

/// A derived index deferred inside a load's transaction: its triggers dropped, then (`finish`) the
/// index filled in one statement and the triggers recreated from their own text, so the schema is
/// exactly what it was, and a failed load rolls all of it back.
public struct DerivedIndexDeferral {
  private let index: DerivedIndex
  private let triggers: [String]

  /// Defers `index` when its source table is empty; nil otherwise (the triggers keep it).
  public init?(_ db: Database, _ index: DerivedIndex) throws {
    let source = SQL.quote(index.source)
    guard try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM \(source))") == true else { return nil }
    let found = try Row.fetchAll(
      db,
      sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ? ORDER BY rowid",
      arguments: [index.triggerPrefix.count, index.triggerPrefix])
    guard !found.isEmpty else { return nil }
    for trigger in found { try db.execute(sql: "DROP TRIGGER \(SQL.quote(trigger["name"] as String))") }
    self.index = index
    triggers = found.map { $0["sql"] }
  }

  /// Fills the index from the loaded rows and recreates the triggers; call after the load (and
  /// after its indexes are built, which the fill's lookups use).
  public func finish(_ db: Database) throws {
    try db.execute(sql: index.fill)
    for sql in triggers { try db.execute(sql: sql) }
  }
}
