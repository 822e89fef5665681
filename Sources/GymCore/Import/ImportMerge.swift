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

  /// Merges the tables of the database attached as `staging` into `main`, parents first.
  public mutating func run(_ db: Database, tables: [String]) throws {
    for table in tables { try merge(db, table) }
  }

  private mutating func merge(_ db: Database, _ table: String) throws {
    let info = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(SQL.quote(table)))")
    let primaryKey = info.first { ($0["pk"] as Int) == 1 && ($0["type"] as String).uppercased() == "INTEGER" }
      .map { $0["name"] as String }
    let columns = info.map { $0["name"] as String }.filter { $0 != primaryKey }
    var parents: [String: String] = [:]  // column → parent table
    for key in try Row.fetchAll(db, sql: "PRAGMA main.foreign_key_list(\(SQL.quote(table)))") {
      parents[key["from"] as String] = key["table"] as String
    }
    let keyColumns = try Self.keyColumns(db, table) ?? columns
    let quoted = columns.map(SQL.quote)
    let find = try db.makeStatement(
      sql: "SELECT rowid FROM main.\(SQL.quote(table)) WHERE "
        + keyColumns.map { "\(SQL.quote($0)) IS ?" }.joined(separator: " AND ") + " LIMIT 1")
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
