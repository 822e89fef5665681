import GRDB

/// Global keys given to rows after they are written. A table whose rows are added at SQLite's next
/// rowid (a bulk load appends that way, at full speed) gets each new row's key when sync begins
/// and, once it has, before each write is recorded (the rows the write inserted or changed, as its
/// session saw them: `ChangeCapture`); what points at a row moves along.
public struct RowKeying: Sendable {
  /// A column of another table that holds this table's key (`workout_set.workoutSeq`).
  public struct Reference: Sendable, Equatable {
    public let table: String
    public let column: String

    public init(_ table: String, _ column: String) {
      self.table = table
      self.column = column
    }
  }

  public let table: String
  /// The columns `key` reads, in this order.
  public let columns: [String]
  public let references: [Reference]
  /// The row's key at `ordinal`: 0 first, the next when a different row holds it already.
  public let key: @Sendable (_ values: [DatabaseValue], _ ordinal: Int) throws -> Int64

  public init(
    table: String, columns: [String], references: [Reference] = [],
    key: @escaping @Sendable (_ values: [DatabaseValue], _ ordinal: Int) throws -> Int64
  ) {
    self.table = table
    self.columns = columns
    self.references = references
    self.key = key
  }

  /// Gives rows their keys: `rows` (every row of the table when nil), each the first of its
  /// candidates that no other row holds and no row before it (in rowid order) took. Returns how
  /// many moved.
  @discardableResult
  public func assign(_ db: Database, rows: [Int64]? = nil) throws -> Int {
    let name = SQL.quote(table)
    if let rows, rows.isEmpty { return 0 }
    try db.execute(sql: "CREATE TEMP TABLE gym_rekey (new INTEGER PRIMARY KEY, old INTEGER NOT NULL UNIQUE)")
    defer { try? db.execute(sql: "DROP TABLE IF EXISTS temp.gym_rekey; DROP TABLE IF EXISTS temp.gym_rekey_row") }
    let selected = columns.map { "t." + SQL.quote($0) }.joined(separator: ", ")
    let source: String
    // A candidate another row holds is taken, unless that row moves too (it is one of `rows`).
    let held: Statement?
    if let rows {
      try db.execute(sql: "CREATE TEMP TABLE gym_rekey_row (old INTEGER PRIMARY KEY)")
      let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO temp.gym_rekey_row (old) VALUES (?)")
      for row in rows { try insert.execute(arguments: [row]) }
      source = "SELECT t.rowid, \(selected) FROM temp.gym_rekey_row r JOIN \(name) t ON t.rowid = r.old ORDER BY r.old"
      held = try db.makeStatement(
        sql:
          "SELECT EXISTS (SELECT 1 FROM \(name) WHERE rowid = ?1) AND NOT EXISTS (SELECT 1 FROM temp.gym_rekey_row WHERE old = ?1)"
      )
    } else {
      source = "SELECT t.rowid, \(selected) FROM \(name) t ORDER BY t.rowid"
      held = nil
    }
    let take = try db.makeStatement(sql: "INSERT OR IGNORE INTO temp.gym_rekey (new, old) VALUES (?, ?)")
    let cursor = try Row.fetchCursor(db, sql: source)
    var moved = 0
    while let row = try cursor.next() {
      let old: Int64 = row[0]
      let values = (1..<row.count).map { row[$0] as DatabaseValue }
      var placed = false
      for ordinal in 0..<10_000 {
        let key = try key(values, ordinal)
        if let held, try Bool.fetchOne(held, arguments: [key])! { continue }
        try take.execute(arguments: [key, old])
        if db.changesCount == 1 {
          placed = true
          if key != old { moved += 1 }
          break
        }
      }
      guard placed else { throw DatabaseError(message: "no free key in \(table) after 10,000 tries") }
    }
    guard moved > 0 else { return 0 }
    try db.execute(sql: "DELETE FROM temp.gym_rekey WHERE new = old")
    // References are rewritten before the rows they point at move.
    try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
    // A row whose new key is another moving row's present rowid steps aside first, below every
    // row and every new key, so that no row meets another while they move.
    let blocking = try Int64.fetchAll(
      db, sql: "SELECT a.old FROM temp.gym_rekey a JOIN temp.gym_rekey b ON b.new = a.old ORDER BY a.old")
    if !blocking.isEmpty {
      var aside = try Int64.fetchOne(
        db, sql: "SELECT min((SELECT MIN(rowid) FROM \(name)), (SELECT MIN(new) FROM temp.gym_rekey)) - 1")!
      for old in blocking {
        try move(db, from: old, to: aside)
        try db.execute(sql: "UPDATE temp.gym_rekey SET old = ? WHERE old = ?", arguments: [aside, old])
        aside -= 1
      }
    }
    for reference in references {
      let column = SQL.quote(reference.column)
      try db.execute(
        sql: """
          UPDATE \(SQL.quote(reference.table)) SET \(column) = (SELECT new FROM temp.gym_rekey WHERE old = \(column))
          WHERE \(column) IN (SELECT old FROM temp.gym_rekey)
          """)
    }
    try db.execute(
      sql: """
        UPDATE \(name) SET rowid = (SELECT new FROM temp.gym_rekey WHERE old = \(name).rowid)
        WHERE rowid IN (SELECT old FROM temp.gym_rekey)
        """)
    return moved
  }

  private func move(_ db: Database, from old: Int64, to new: Int64) throws {
    for reference in references {
      let column = SQL.quote(reference.column)
      try db.execute(
        sql: "UPDATE \(SQL.quote(reference.table)) SET \(column) = ? WHERE \(column) = ?", arguments: [new, old])
    }
    try db.execute(sql: "UPDATE \(SQL.quote(table)) SET rowid = ? WHERE rowid = ?", arguments: [new, old])
  }
}
