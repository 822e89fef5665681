import GRDB

/// `gym migrate verify`: the checks a database must pass, and its tables' row counts.
public struct StoreVerification: Sendable {
  public struct Check: Sendable {
    public let name: String
    public let problems: [String]
    public var passed: Bool { problems.isEmpty }
  }

  public let checks: [Check]
  public let rowCounts: [(table: String, rows: Int)]

  public var passed: Bool { checks.allSatisfy(\.passed) }

  public static func run(_ db: Database, modules: [GymModule]) throws -> StoreVerification {
    let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
    let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
      "\(row["table"] as String) rowid \(row["rowid"] as Int64? ?? 0) → missing \(row["parent"] as String)"
    }
    let indexes = try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
    var missing: [String] = []
    for module in modules {
      for table in module.tables {
        for index in table.indexes where !indexes.contains(index.name) {
          missing.append("\(index.name) on \(table.name)")
        }
      }
    }
    let state = try SchemaState.read(db, migrations: modules.flatMap(\.migrations))
    let schema =
      state.pending.map { "pending: \($0.identifier)" } + state.unknown.map { "unknown to this gym: \($0)" }
    let counts = try MigrationRunner.rowCounts(db).sorted { $0.key < $1.key }.map { (table: $0.key, rows: $0.value) }
    return StoreVerification(
      checks: [
        Check(name: "integrity_check", problems: integrity),
        Check(name: "foreign_key_check", problems: orphans),
        Check(name: "declared indexes", problems: missing),
        Check(name: "migrations", problems: schema),
      ], rowCounts: counts)
  }
}
