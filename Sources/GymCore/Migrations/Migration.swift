import GRDB

/// What a migration does to the schema, which decides how it is checked.
public enum MigrationKind: String, Sendable, CaseIterable {
  /// A new table, a nullable column, a column with a default, an index: existing rows keep their values.
  case additive
  /// `ALTER TABLE … RENAME COLUMN` (or TABLE): same rows, a new name.
  case rename
  /// SQLite's 12-step table rebuild (a type, a constraint or a relationship changes): same rows,
  /// indexes, triggers and views recreated.
  case rebuild
  /// A data transformation: rows of the tables it declares may change.
  case custom
  /// Views alone dropped and made again: no table, index or row changes, so an export's rows load
  /// into this schema as into the one before it (`gym import` takes its one-pass load).
  case view
}

/// One schema migration, identified `<module>/<NNN>-<what>`, written as literal SQL and never
/// edited once released: its checksum is in `Config/migrations.sha256`, and a test fails when the
/// SQL of a released migration changes.
public struct Migration: Sendable {
  public let identifier: String
  public let kind: MigrationKind
  /// Built when first needed: every command opens the store, which needs only the identifiers.
  public var sql: String { makeSQL() }
  private let makeSQL: @Sendable () -> String
  /// The existing tables it changes: their foreign keys (and those of tables pointing at them) are
  /// checked after it runs.
  public let touches: [String]
  /// Tables whose row counts may change (a `custom` migration's data transformation). Every other
  /// table must keep exactly its rows.
  public let rowsMayChange: [String]

  public init(
    _ identifier: String, _ kind: MigrationKind, touches: [String] = [], rowsMayChange: [String] = [],
    sql: @autoclosure @escaping @Sendable () -> String
  ) {
    self.identifier = identifier
    self.kind = kind
    self.makeSQL = sql
    self.touches = touches
    self.rowsMayChange = rowsMayChange
  }

  public var module: String { String(identifier.prefix { $0 != "/" }) }

  public func apply(_ db: Database) throws {
    try db.execute(sql: sql)
  }

  /// What the checksum covers: the kind and the SQL text, exactly.
  public var checksumInput: String { "\(kind.rawValue)\n\(sql)" }
}
