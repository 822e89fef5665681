import GRDB

/// Indexes that no longer match their tables, rebuilt (`gym migrate repair`). gym 0.1.0 built a new
/// database without a rollback journal, so an import whose input gave a key twice could leave a
/// unique index half-made; importing again then added the same rows a second time. A broken index is
/// dropped and made again from its own SQL; for a unique one, rows that repeat a key are removed first
/// when they are the same row in every column but the row key, and the repair stops, changing
/// nothing, when they differ or another table's rows point at one of them. Run in the caller's
/// transaction: all of it, or none.
public enum IndexRepair {
  public struct Outcome: Sendable, Equatable {
    /// The indexes made again, by name, with the repeated rows each one's table lost.
    public var rebuilt: [String: Int] = [:]
  }

  public static func run(_ db: Database) throws -> Outcome {
    var outcome = Outcome()
    // integrity_check stops at 100 lines, which one large index can fill: check, mend what it names,
    // check again, until it passes or names nothing new.
    while true {
      let problems = try String.fetchAll(db, sql: "PRAGMA main.integrity_check").filter { $0 != "ok" }
      guard !problems.isEmpty else { return outcome }
      let names = try damagedIndexes(db, problems).filter { outcome.rebuilt[$0] == nil }
      guard !names.isEmpty else {
        throw StoreError.inconsistent(
          "the indexes were made again and the database is still damaged (\(problems[0])); restore a backup")
      }
      let indexes = try names.map { try describe(db, index: $0) }
      for index in indexes { try db.execute(sql: "DROP INDEX main.\(SQL.quote(index.name))") }
      for index in indexes {
        outcome.rebuilt[index.name] = index.isUnique ? try removeRepeats(db, of: index) : 0
      }
      for index in indexes { try db.execute(sql: index.sql) }
    }
  }

  /// The indexes `integrity_check`'s lines name, in SQLite's own wordings; any other line (a page, a
  /// tree, a full-text table) is damage a rebuild cannot mend.
  public static func damagedIndexes(_ db: Database, _ problems: [String]) throws -> [String] {
    let indexes = try Set(String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'index'"))
    var names: [String] = []
    for problem in problems {
      let wordings = [" missing from index ", "wrong # of entries in index ", "non-unique entry in index "]
      guard let at = wordings.lazy.compactMap({ problem.range(of: $0) }).first,
        indexes.contains(String(problem[at.upperBound...]))
      else {
        throw StoreError.inconsistent(
          "the database is damaged beyond its indexes (\(problem)); restore a backup ('gym migrate backups')")
      }
      let name = String(problem[at.upperBound...])
      if !names.contains(name) { names.append(name) }
    }
    return names
  }

  struct Index {
    let name: String
    let table: String
    let sql: String
    let isUnique: Bool
    /// The key's columns, quoted: a row with any of them NULL repeats no other.
    let keyColumns: [String]
    /// Each key column's collation in the index, which decides what repeats.
    let collations: [String]

    /// The key as `GROUP BY` compares it: each column with the index's collation.
    var key: String { zip(keyColumns, collations).map { "\($0) COLLATE \($1)" }.joined(separator: ", ") }
  }

  /// What the schema says of an index gym made (its SQL kept), read before it is dropped.
  static func describe(_ db: Database, index name: String) throws -> Index {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT tbl_name, sql FROM main.sqlite_master WHERE type = 'index' AND name = ? AND sql IS NOT NULL",
        arguments: [name])
    else {
      throw StoreError.inconsistent(
        "index \(name) is damaged and SQLite made it (a key of its table); restore a backup ('gym migrate backups')")
    }
    let table: String = row[0]
    let listed = try Row.fetchAll(db, sql: "PRAGMA main.index_list(\(SQL.quote(table)))").first {
      ($0["name"] as String) == name
    }
    // index_xinfo: the key's columns first (`key` 1), with their collations, then the row key.
    let info = try Row.fetchAll(db, sql: "PRAGMA main.index_xinfo(\(SQL.quote(name)))").filter {
      ($0["key"] as Int) == 1
    }
    let key = info.map { $0["name"] as String? }
    // A key of expressions, or a unique index over some rows only: which rows repeat is not plain.
    guard let listed, !key.contains(nil), (listed["partial"] as Int) == 0 || (listed["unique"] as Int) == 0 else {
      throw StoreError.inconsistent("index \(name) is damaged and cannot be repaired here; restore a backup")
    }
    return Index(
      name: name, table: table, sql: row[1], isUnique: (listed["unique"] as Int) == 1,
      keyColumns: key.compactMap { $0 }.map(SQL.quote), collations: info.map { ($0["coll"] as String?) ?? "BINARY" })
  }

  /// Removes rows that repeat the unique `index`'s key (its indexes dropped), when each repeat is the
  /// same row and nothing points at it; returns how many went.
  private static func removeRepeats(_ db: Database, of index: Index) throws -> Int {
    let table = SQL.quote(index.table)
    let key = index.key
    let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))")
    // The same row is the same in every byte: `Dairy` is not `dairy`, whatever a column's collation.
    let names = columns.filter { ($0["pk"] as Int) == 0 }.map { SQL.quote($0["name"] as String) }
    let values = names.map { "\($0) COLLATE BINARY" }.joined(separator: ", ")
    // A unique index lets rows whose key has a NULL be many: those repeat nothing.
    let keyed = index.keyColumns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
    let differing = try Row.fetchOne(
      db,
      sql: """
        SELECT \(key) FROM (SELECT \(names.joined(separator: ", ")) FROM \(table) WHERE \(keyed)
          GROUP BY \(values)) GROUP BY \(key) HAVING count(*) > 1 LIMIT 1
        """)
    if let differing {
      throw StoreError.inconsistent(
        "\(index.table) holds rows that repeat the key of index \(index.name) (\(differing.description)) with other "
          + "values; gym cannot tell which to keep: remove one, then run 'gym migrate repair' again")
    }
    let repeats = "\(keyed) AND rowid NOT IN (SELECT min(rowid) FROM \(table) WHERE \(keyed) GROUP BY \(values))"
    for reference in try referencesTo(db, index.table) {
      let children = try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM \(SQL.quote(reference.child)) WHERE \(SQL.quote(reference.from)) IN
            (SELECT \(SQL.quote(reference.to)) FROM \(table) WHERE \(repeats))
          """)!
      if children > 0 {
        throw StoreError.inconsistent(
          "\(index.table) repeats rows under index \(index.name), and \(children) row(s) of \(reference.child) "
            + "point at the repeats: gym does not mend that yet, and changed nothing (the rows are all there; "
            + "counts through \(index.name) may be short)")
      }
    }
    try db.execute(sql: "DELETE FROM \(table) WHERE \(repeats)")
    return db.changesCount
  }

  /// Each table's foreign key that points at `table`: the child, its column, and the parent's.
  private static func referencesTo(_ db: Database, _ table: String) throws -> [(
    child: String, from: String, to: String
  )] {
    var found: [(child: String, from: String, to: String)] = []
    for child in try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table'") {
      for key in try Row.fetchAll(db, sql: "PRAGMA main.foreign_key_list(\(SQL.quote(child)))")
      where (key["table"] as String) == table {
        found.append((child, key["from"] as String, (key["to"] as String?) ?? "rowid"))
      }
    }
    return found
  }
}
