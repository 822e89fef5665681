import CGymSQLite
import GRDB

/// `gym import --merge`: the staging database's rows into a target that already has data. A row
/// whose key is already there is left alone and counted; a new row is added with a new rowid, and
/// the rows that point at it (foreign keys) are rewritten to the new one.
///
/// A table's key is its first unique, non-partial index (a workout's `id`, a sample's natural key,
/// an item's name, a set's workout and position); a table without one (a work added by hand) is
/// matched on all of its columns but the rowid.
///
/// A row of a table in `keepingKeys` (a synced table, whose keys mean the same row on every device)
/// keeps its key when it is free here, so the merged row is the same record as on the device the
/// export came from; so does a row whose primary key is its natural key (a reading goal's year).
public struct ImportMerge {
  public private(set) var added = 0
  public private(set) var existing = 0
  /// staging rowid → target rowid, per table, for the children's foreign keys.
  private var rowids: [String: [Int64: Int64]] = [:]
  let keepingKeys: Set<String>

  public init(keepingKeys: Set<String> = []) { self.keepingKeys = keepingKeys }

  /// Merges the tables of the database attached as `staging` into `main`, parents first. A table
  /// with a key that the export brings more rows to than it holds has its non-unique indexes built
  /// once after the merge, instead of each new row going into each of them at a random page. (A
  /// table without a key keeps them: its rows are looked up by every column, through them.) The
  /// target's rows are counted only up to the export's, so a small export costs little.
  public mutating func run(_ db: Database, tables: [String]) throws {
    var keys: [String: [String]] = [:]
    for table in tables { keys[table] = try Self.keyColumns(db, table) }
    var deferred: Set<String> = []
    for table in tables where keys[table] != nil {
      let name = SQL.quote(table)
      let bringing = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM staging.\(name)") ?? 0
      let holding =
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM (SELECT 1 FROM main.\(name) LIMIT ?)", arguments: [bringing]) ?? 0
      if bringing > holding { deferred.insert(table) }
    }
    let indexes = try DeferredIndexes.drop(db, tables: deferred, keepingUnique: true)
    for table in tables { try merge(db, table, key: keys[table] ?? nil) }
    try indexes.rebuild(db)
  }

  /// `key`: the table's key columns (`keyColumns`), nil for a table without one.
  private mutating func merge(_ db: Database, _ table: String, key: [String]?) throws {
    let info = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(SQL.quote(table)))")
    let primaryKey = info.first { ($0["pk"] as Int) == 1 && ($0["type"] as String).uppercased() == "INTEGER" }
      .map { $0["name"] as String }
    let columns = info.map { $0["name"] as String }.filter { $0 != primaryKey }
    var parents: [String: String] = [:]  // column → parent table
    for key in try Row.fetchAll(db, sql: "PRAGMA main.foreign_key_list(\(SQL.quote(table)))") {
      parents[key["from"] as String] = key["table"] as String
    }
    let keyColumns = key ?? columns
    let quoted = columns.map(SQL.quote)
    let find = try db.makeStatement(sql: try Self.findSQL(db, table, keyColumns: keyColumns, isKey: key != nil))
    let insert = try db.makeStatement(
      sql: "INSERT INTO main.\(SQL.quote(table)) (\(quoted.joined(separator: ", "))) "
        + "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
    // A primary key that is the record's natural key (a goal's year) is always kept.
    let naturalKey = primaryKey.map { keyColumns.contains($0) } ?? false
    let keeping = primaryKey.map { key in keepingKeys.contains(table) || naturalKey ? key : nil } ?? nil
    let insertKeeping = try keeping.map { key in
      try db.makeStatement(
        sql:
          "INSERT OR IGNORE INTO main.\(SQL.quote(table)) (\(([key] + columns).map(SQL.quote).joined(separator: ", "))) "
          + "VALUES (\(Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")))")
    }
    let select = try db.makeStatement(
      sql: "SELECT rowid, \(quoted.joined(separator: ", ")) FROM staging.\(SQL.quote(table)) ORDER BY rowid")
    let rows = try Row.fetchCursor(select)
    var map: [Int64: Int64] = [:]
    let handle = select.sqliteStatement
    while let row = try rows.next() {
      // Read and bound by byte count: text with a NUL inside stays whole.
      var values: [DatabaseValue] = (1..<Int32(row.count)).map { ExactValues.value(handle, at: $0) }
      for (index, column) in columns.enumerated() {
        guard let parent = parents[column], case .int64(let old) = values[index].storage else { continue }
        guard let new = rowids[parent]?[old] else {
          throw StoreError.inconsistent(
            "\(table).\(column) points at \(parent) row \(old), which the export does not hold")
        }
        values[index] = new.databaseValue
      }
      let stagingRowid: Int64 = row[0]
      let key = keyColumns.map { column in
        columns.firstIndex(of: column).map { values[$0] } ?? stagingRowid.databaseValue
      }
      if case .int64(let found) = try ExactValues.run(find, key)?.storage {
        map[stagingRowid] = found
        existing += 1
      } else {
        // Its own key where that is free; a new one where another row has it.
        var kept = false
        if let insertKeeping {
          _ = try ExactValues.run(insertKeeping, [stagingRowid.databaseValue] + values)
          kept = db.changesCount == 1
        }
        if kept {
          map[stagingRowid] = stagingRowid
        } else {
          try ExactValues.run(insert, values)
          map[stagingRowid] = db.lastInsertedRowID
        }
        added += 1
      }
    }
    rowids[table] = map
  }

  /// The lookup of a row by `keyColumns` (bound as ?1, ?2 … in their order). A row matched on every
  /// column (a table without a key) is looked up through one index: that of the column with the most
  /// distinct values in the export, searched in the index's collation (`title IS ?2 COLLATE NOCASE`),
  /// and every column compared exactly without an index (`+column`, which keeps the column's
  /// collation). That filter lets through every exact match only when the column compares in BINARY
  /// or in the index's own collation (a NOCASE column's 'Dune' is not 'DUNE' in BINARY): another
  /// index is not a candidate. Without statistics SQLite may pick an index
  /// most rows share (every work of one import has the same lastModified) and read all of them for
  /// each row: merging the bench export's 20,000 works took most of a minute. When no index can be
  /// searched so, SQLite chooses, as before.
  package static func findSQL(_ db: Database, _ table: String, keyColumns: [String], isKey: Bool) throws -> String {
    func sql(through index: (column: String, collation: String)?) -> String {
      var conditions = keyColumns.enumerated().map { position, column in
        "\(index == nil ? "" : "+")\(SQL.quote(column)) IS ?\(position + 1)"
      }
      if let index, let position = keyColumns.firstIndex(of: index.column) {
        conditions.insert("\(SQL.quote(index.column)) IS ?\(position + 1) COLLATE \(index.collation)", at: 0)
      }
      return "SELECT rowid FROM main.\(SQL.quote(table)) WHERE " + conditions.joined(separator: " AND ") + " LIMIT 1"
    }
    guard !isKey else { return sql(through: nil) }
    var leading: [(column: String, collation: String, distinct: Int)] = []
    for index in try Row.fetchAll(db, sql: "PRAGMA main.index_list(\(SQL.quote(table)))")
    where (index["partial"] as Int) == 0 {
      let first = try Row.fetchOne(
        db, sql: "SELECT name, coll FROM pragma_index_xinfo(?, 'main') WHERE seqno = 0 AND key = 1",
        arguments: [index["name"] as String])
      guard let column = first?["name"] as String?, let collation = first?["coll"] as String?,
        keyColumns.contains(column), collation.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
        let declared = try Self.collation(db, table, column),
        declared.uppercased() == "BINARY" || declared.uppercased() == collation.uppercased()
      else { continue }
      let distinct =
        try Int.fetchOne(
          db, sql: "SELECT COUNT(DISTINCT \(SQL.quote(column)) COLLATE \(collation)) FROM staging.\(SQL.quote(table))")
        ?? 0
      leading.append((column, collation, distinct))
    }
    let unbound = StatementArguments(Array(repeating: DatabaseValue.null, count: keyColumns.count))
    for index in leading.sorted(by: { ($0.distinct, $1.column) > ($1.distinct, $0.column) }) {
      let candidate = sql(through: (index.column, index.collation))
      let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + candidate, arguments: unbound).map {
        $0["detail"] as String
      }
      if plan.contains(where: { $0.hasPrefix("SEARCH") }) { return candidate }
    }
    return sql(through: nil)
  }

  /// The collation a column of `main`'s table compares in (its declared one, else BINARY); nil when
  /// SQLite cannot say.
  static func collation(_ db: Database, _ table: String, _ column: String) throws -> String? {
    var collation: UnsafePointer<CChar>?
    let status = sqlite3_table_column_metadata(
      db.sqliteConnection, "main", table, column, nil, &collation, nil, nil, nil)
    guard status == SQLITE_OK, let collation else { return nil }
    return String(cString: collation)
  }

  /// The columns of the table's first unique, non-partial index, if it has one.
  static func keyColumns(_ db: Database, _ table: String) throws -> [String]? {
    for index in try Row.fetchAll(db, sql: "PRAGMA main.index_list(\(SQL.quote(table)))") {
      guard (index["unique"] as Int) == 1, (index["partial"] as Int) == 0 else { continue }
      let name: String = index["name"]
      let columns = try Row.fetchAll(db, sql: "PRAGMA main.index_info(\(SQL.quote(name)))").compactMap {
        $0["name"] as String?
      }
      if !columns.isEmpty { return columns }
    }
    return nil
  }
}
