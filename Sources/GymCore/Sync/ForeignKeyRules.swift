import GRDB

/// What a foreign key's `ON DELETE` does, applied by sync itself (foreign keys are off while it
/// applies; `Store.writeSyncing`): only around the rows one changeset touched, so the work follows
/// the change, not the size of the tables.
public struct ForeignKeyRules: Sendable {
  struct Key: Sendable {
    let child: String
    let column: String
    let parent: String
    let setsNull: Bool
  }

  let keys: [Key]

  /// The foreign keys among `tables`. Each must be one column pointing at a synced table's integer
  /// primary key (its rowid): any other kind is an error here, rather than a rule left unapplied.
  public init(_ db: Database, tables: [String]) throws {
    var keys: [Key] = []
    for child in tables {
      let rows = try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(SQL.quote(child)))")
      for row in rows {
        let parent: String = row["table"]
        let id: Int = row["id"]
        let rowKey = try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQL.quote(parent)))").first {
          ($0["pk"] as Int) == 1 && ($0["type"] as String).uppercased() == "INTEGER"
        }.map { $0["name"] as String }
        let target: String? = row["to"]
        guard let name = tables.first(where: { $0.caseInsensitiveCompare(parent) == .orderedSame }), let rowKey,
          target == nil || target == rowKey, rows.filter({ ($0["id"] as Int) == id }).count == 1
        else {
          throw ChangesetError("sync cannot keep the foreign key \(child).\(row["from"] as String) → \(parent)")
        }
        keys.append(Key(child: child, column: row["from"], parent: name, setsNull: row["on_delete"] == "SET NULL"))
      }
    }
    self.keys = keys
  }

  /// Whether a foreign key links the two tables, either way (a table and itself when it points at
  /// itself): changes to them apply one at a time, each followed by the rules.
  func links(_ one: String, _ other: String) -> Bool {
    keys.contains { ($0.child == one && $0.parent == other) || ($0.child == other && $0.parent == one) }
  }

  /// After `changes` applied: a row they inserted or changed that points at a missing record, and
  /// every row pointing at a record they deleted, follows its key's `ON DELETE` (set null, or
  /// deleted, and so on down). `RESTRICT` deletes too: the record was deleted on a device where
  /// nothing pointed at it, which is the later word. Returns whether it changed a row.
  @discardableResult
  func resolve(_ db: Database, after changes: [ChangedRow]) throws -> Bool {
    var acted = false
    var deleted: [(table: String, key: DatabaseValue)] = []
    for change in changes {
      guard let key = change.key.first else { continue }
      if change.operation == .delete {
        deleted.append((change.table, key))
        continue
      }
      for foreignKey in keys where foreignKey.child == change.table {
        let child = SQL.quote(foreignKey.child)
        let column = SQL.quote(foreignKey.column)
        // Cached: a merge asks this once per change it applies.
        let dangling =
          try Bool.fetchOne(
            db.cachedStatement(
              sql: """
                SELECT EXISTS (SELECT 1 FROM \(child) c WHERE c.rowid = ? AND c.\(column) IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM \(SQL.quote(foreignKey.parent)) p WHERE p.rowid = c.\(column)))
                """), arguments: [key]) ?? false
        guard dangling else { continue }
        acted = true
        if foreignKey.setsNull {
          try db.execute(sql: "UPDATE \(child) SET \(column) = NULL WHERE rowid = ?", arguments: [key])
        } else {
          try db.execute(sql: "DELETE FROM \(child) WHERE rowid = ?", arguments: [key])
          deleted.append((foreignKey.child, key))
          break
        }
      }
    }
    while let (parent, key) = deleted.popLast() {
      for foreignKey in keys where foreignKey.parent == parent {
        let child = SQL.quote(foreignKey.child)
        let column = SQL.quote(foreignKey.column)
        if foreignKey.setsNull {
          try db.execute(sql: "UPDATE \(child) SET \(column) = NULL WHERE \(column) = ?", arguments: [key])
          acted = acted || db.changesCount > 0
        } else {
          let rows = try DatabaseValue.fetchAll(
            db, sql: "SELECT rowid FROM \(child) WHERE \(column) = ?", arguments: [key])
          try db.execute(sql: "DELETE FROM \(child) WHERE \(column) = ?", arguments: [key])
          acted = acted || !rows.isEmpty
          deleted += rows.map { (foreignKey.child, $0) }
        }
      }
    }
    return acted
  }
}
