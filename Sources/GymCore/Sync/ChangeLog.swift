import Foundation
import GRDB

/// The log of changes to the synced tables (`sync_change`): this device's writes, recorded by the
/// store in the transaction that makes them, and other devices', pulled by `gym sync`. Every device
/// holds its rows in one order, by (hybrid clock, device, sequence): the database is what applying
/// the log in that order from nothing gives.
public enum ChangeLog {
  /// One change set as it travels: where it was made, its place in that device's log and its clock.
  public struct Entry: Sendable, Equatable {
    public var device: String
    public var seq: Int64
    public var hlc: Int64
    public var changeset: Changeset

    public init(device: String, seq: Int64, hlc: Int64, changeset: Changeset) {
      self.device = device
      self.seq = seq
      self.hlc = hlc
      self.changeset = changeset
    }
  }

  /// This device's name once sync began here; nil before (nothing is recorded).
  public static func device(_ db: Database) throws -> String? {
    guard try db.tableExists("sync_device") else { return nil }
    return try String.fetchOne(db, sql: "SELECT device FROM sync_device")
  }

  /// The recipient (`age1…`) of the identity this device syncs with; nil before its first sync
  /// that recorded one.
  public static func recipient(_ db: Database) throws -> String? {
    try String.fetchOne(db, sql: "SELECT recipient FROM sync_device")
  }

  /// Records `recipient` as this device's, once: a recipient already recorded stays.
  public static func recordRecipient(_ db: Database, _ recipient: String) throws {
    try db.execute(sql: "UPDATE sync_device SET recipient = ? WHERE recipient IS NULL", arguments: [recipient])
  }

  /// The latest clock reading this device has seen.
  public static func latestClock(_ db: Database) throws -> Int64? {
    try Int64.fetchOne(db, sql: "SELECT max(hlc) FROM sync_change")
  }

  /// Records one of this device's writes, in its transaction: its clock reading after every one
  /// this log holds (and after `after`, when given).
  public static func appendLocal(
    _ db: Database, device: String, changeset: Changeset, now: Date, after: Int64? = nil
  ) throws {
    let latest = [try latestClock(db), after].compactMap { $0 }.max()
    let hlc = HybridClock.next(after: latest, now: now)
    let seq = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM sync_change WHERE device = ?", arguments: [device]) ?? 0
    try db.execute(
      sql: "INSERT INTO sync_change (device, seq, hlc, changeset, effect, pushed) VALUES (?, ?, ?, ?, NULL, 0)",
      arguments: [device, seq + 1, hlc, Data(changeset.bytes)])
  }

  /// Begins recording on a database with no log yet: this device is named, and what the synced
  /// tables hold already becomes its first change (every row an insert), so the log builds the
  /// database from nothing. Its clock reading is after `after` (the latest of what the first sync
  /// pulls): what a device brings sorts after everything it found, never before a base.
  public static func begin(
    _ db: Database, device: String, tables: [SyncedTable], now: Date, after: Int64? = nil
  ) throws {
    try db.execute(
      sql: "INSERT INTO sync_device (only, device, since) VALUES (1, ?, ?)",
      arguments: [device, ISO8601DateFormatter().string(from: now)])
    try markBegun(db, tables)
    let contents = try self.contents(db, tables: tables)
    if !contents.isEmpty { try appendLocal(db, device: device, changeset: contents, now: now, after: after) }
  }

  /// The tables this log records (`sync_table`).
  public static func begun(_ db: Database) throws -> Set<String> {
    guard try db.tableExists("sync_table") else { return [] }
    return Set(try String.fetchAll(db, sql: "SELECT name FROM sync_table"))
  }

  /// Tables that sync since this log began (a later gym made them sync) begin now, in the sync's
  /// transaction, after `keys` gave their rows their keys: what they hold becomes one change of this
  /// device, like a log's first. Returns their names.
  public static func beginLater(
    _ db: Database, device: String, tables: [SyncedTable], now: Date, keys: (Set<String>) throws -> Void
  ) throws -> [String] {
    let begun = try self.begun(db)
    let later = tables.filter { !begun.contains($0.name) }
    guard !later.isEmpty else { return [] }
    try keys(Set(later.map(\.name)))
    try markBegun(db, later)
    let contents = try self.contents(db, tables: later)
    if !contents.isEmpty { try appendLocal(db, device: device, changeset: contents, now: now) }
    return later.map(\.name)
  }

  private static func markBegun(_ db: Database, _ tables: [SyncedTable]) throws {
    let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO sync_table (name) VALUES (?)")
    for table in tables { try insert.execute(arguments: [table.name]) }
  }

  /// Every row of the synced tables as an insert: the changeset that builds them from nothing.
  static func contents(_ db: Database, tables: [SyncedTable]) throws -> Changeset {
    // The diff is taken from empty copies of the tables in the connection's temp schema (an
    // attached database cannot be detached inside a transaction), dropped at once: while they
    // exist, they hide the tables of the same name from unqualified SQL.
    var names: [String] = []
    for table in tables {
      guard
        let sql = try String.fetchOne(
          db, sql: "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?", arguments: [table.name])
      else { continue }
      try db.execute(sql: sql.replacingOccurrences(of: "CREATE TABLE ", with: "CREATE TEMP TABLE ", options: .anchored))
      names.append(table.name)
    }
    let recorder = try SessionRecorder(db, tables: names)
    try recorder.recordContents(of: names, against: "temp")
    for name in names { try db.execute(sql: "DROP TABLE temp.\(SQL.quote(name))") }
    return try recorder.changeset()
  }

  /// Which of `device`'s sequence numbers this log holds: its own entries, and those a base
  /// adopted here stands for.
  public static func sequences(_ db: Database, device: String) throws -> Set<Int64> {
    var held = Set(try Int64.fetchAll(db, sql: "SELECT seq FROM sync_change WHERE device = ?", arguments: [device]))
    if let covered = try SyncBase.covers(db)[device], covered > 0 { held.formUnion(1...covered) }
    return held
  }

  /// This device's changes not yet copied to the remote, oldest first.
  public static func unpushed(_ db: Database, device: String) throws -> [Entry] {
    try Row.fetchAll(
      db, sql: "SELECT device, seq, hlc, changeset FROM sync_change WHERE device = ? AND pushed = 0 ORDER BY seq",
      arguments: [device]
    ).map(entry)
  }

  /// `device`'s changes numbered `first` through `last` that this log holds, oldest first.
  public static func entries(_ db: Database, device: String, from first: Int64, through last: Int64) throws
    -> [Entry]
  {
    try Row.fetchAll(
      db,
      sql: "SELECT device, seq, hlc, changeset FROM sync_change WHERE device = ? AND seq BETWEEN ? AND ? ORDER BY seq",
      arguments: [device, first, last]
    ).map(entry)
  }

  /// Marks `device`'s changes up to `seq` as on the remote.
  public static func markPushed(_ db: Database, device: String, through seq: Int64) throws {
    try db.execute(
      sql: "UPDATE sync_change SET pushed = 1 WHERE device = ? AND seq <= ? AND pushed = 0", arguments: [device, seq])
  }

  static func entry(_ row: Row) -> Entry {
    Entry(
      device: row["device"], seq: row["seq"], hlc: row["hlc"], changeset: Changeset([UInt8](row["changeset"] as Data)))
  }

  /// What integrating pulled changes did.
  public struct Integration: Sendable, Equatable {
    /// Changes new to this log.
    public var added = 0
    /// Changes already applied here that were undone and applied again after an earlier one.
    public var replayed = 0
    /// Changes dropped by the merge rules.
    public var dropped = 0

    public init() {}
  }

  /// Adds other devices' changes to the log and the database, in the log's order: the changes
  /// already applied after the earliest new one are undone (the inverse of what each did, newest
  /// first), then everything from that point is applied again in order, under the merge rules.
  /// Inside the caller's transaction; entries already in the log are skipped.
  public static func integrate(_ db: Database, _ entries: [Entry], tables: [SyncedTable]) throws -> Integration {
    var result = Integration()
    let held = try db.cachedStatement(sql: "SELECT 1 FROM sync_change WHERE device = ? AND seq = ?")
    let fresh = try entries.filter { entry in
      try Int64.fetchOne(held, arguments: [entry.device, entry.seq]) == nil
    }
    guard let earliest = fresh.min(by: { ($0.hlc, $0.device, $0.seq) < ($1.hlc, $1.device, $1.seq) }) else {
      return result
    }
    result.replayed = try undo(db, after: (earliest.hlc, earliest.device, earliest.seq), tables: tables).count
    let insert = try db.cachedStatement(
      sql: "INSERT INTO sync_change (device, seq, hlc, changeset, effect, pushed) VALUES (?, ?, ?, ?, X'', 1)")
    for entry in fresh {
      try insert.execute(arguments: [entry.device, entry.seq, entry.hlc, Data(entry.changeset.bytes)])
    }
    result.added = fresh.count
    let redo = try Int64.fetchAll(
      db, sql: "SELECT id FROM sync_change WHERE \(SQL.orderedFrom) ORDER BY hlc, device, seq",
      arguments: [earliest.hlc, earliest.hlc, earliest.device, earliest.hlc, earliest.device, earliest.seq])
    result.dropped = try apply(db, redo, tables: tables)
    return result
  }

  /// Undoes every change after (hlc, device, seq), newest first, each by the inverse of what it did
  /// here (its effect; a change of this device's own, never merged, did what it says); their ids.
  /// Runs of effects that touch different rows, none in a table with a trigger, are undone together
  /// (`Changeset.grouped`): each meets exactly the rows it left, so their order does not matter.
  static func undo(_ db: Database, after point: (hlc: Int64, device: String, seq: Int64), tables: [SyncedTable])
    throws -> [Int64]
  {
    let undone = try Row.fetchAll(
      db,
      sql:
        "SELECT id, changeset, effect FROM sync_change WHERE \(SQL.orderedAfter) ORDER BY hlc DESC, device DESC, seq DESC",
      arguments: [point.hlc, point.hlc, point.device, point.hlc, point.device, point.seq])
    let triggered = try DisjointRun.Constraints.triggeredTables(db)
    var run = DisjointRun()
    func flush() throws {
      defer { run = DisjointRun() }
      let inverses = try run.changesets.map { try $0.inverted() }
      if inverses.count > 1, let grouped = try? Changeset.grouped(inverses) {
        do {
          try db.inSavepoint {
            try ChangesetMerge.applyExactly(grouped, to: db, tables: tables)
            return .commit
          }
          return
        } catch let error as ChangesetError where error.isConflict && db.isInsideTransaction {
          // Undone one at a time below: the error, if any, is then that change's own.
        }
      }
      for inverse in inverses { try ChangesetMerge.applyExactly(inverse, to: db, tables: tables) }
    }
    for row in undone {
      let effect = Changeset([UInt8]((row["effect"] as Data?) ?? (row["changeset"] as Data)))
      if effect.bytes.count > DisjointRun.byteLimit {
        try flush()
        try ChangesetMerge.applyExactly(try effect.inverted(), to: db, tables: tables)
        continue
      }
      let rows = try effect.changedRows()
      // A trigger fires on the rows as the grouped inverses leave them, in SQLite's order, which
      // may be a state the log never held (an author's last authorship gone for a moment): alone.
      if rows.contains(where: { triggered.contains($0.table) }) {
        try flush()
        try ChangesetMerge.applyExactly(try effect.inverted(), to: db, tables: tables)
        continue
      }
      if !run.admits(rows, rules: nil) { try flush() }
      run.add(effect, rows: rows)
    }
    try flush()
    return undone.map { $0["id"] }
  }

  /// Applies the changes `ids` name, in the log's order, under the merge rules, recording what each
  /// did; how many the rules dropped. A run of changes that may apply at once (`DisjointRun`) is
  /// applied at once when it meets no conflict and leaves no foreign-key rule to apply: each then did
  /// exactly what it says (its effect is left NULL: the change itself). Otherwise the run is halved
  /// and each half tried so, down to single changes, each then applied under the rules, a session
  /// recording its effect. (A base of a million rows applies plainly into a new device: no session.)
  static func apply(_ db: Database, _ ids: [Int64], tables: [SyncedTable]) throws -> Int {
    let rules = try ForeignKeyRules(db, tables: tables.map(\.name))
    let record = try db.cachedStatement(sql: "UPDATE sync_change SET effect = ? WHERE id = ?")
    let read = try db.cachedStatement(sql: "SELECT changeset FROM sync_change WHERE id = ?")
    let constraints = try DisjointRun.Constraints(db, tables: tables, rules: rules)
    var dropped = 0
    func applyAlone(_ id: Int64, _ changeset: Changeset) throws {
      let outcome = try ChangesetMerge.apply(changeset, to: db, tables: tables, rules: rules)
      dropped += outcome.dropped
      try record.execute(arguments: [Data(outcome.effect.bytes), id])
    }
    func applyRun(_ ids: ArraySlice<Int64>, _ changesets: ArraySlice<Changeset>, _ rows: ArraySlice<[ChangedRow]>)
      throws
    {
      guard let first = ids.first, let firstChangeset = changesets.first else { return }
      // A table with a trigger never applies plainly (the trigger may write a synced table).
      let plain = !rows.contains { $0.contains { constraints.triggered.contains($0.table) } }
      if plain, let grouped = ids.count == 1 ? firstChangeset : try? Changeset.grouped(Array(changesets)),
        try ChangesetMerge.applyPlainly(
          grouped, changes: rows.flatMap { $0 }, to: db, tables: tables, rules: rules)
      {
        for id in ids { try record.execute(arguments: [nil as Data?, id]) }
        return
      }
      guard ids.count > 1 else { return try applyAlone(first, firstChangeset) }
      let half = ids.startIndex + ids.count / 2
      try applyRun(ids[..<half], changesets[..<half], rows[..<half])
      try applyRun(ids[half...], changesets[half...], rows[half...])
    }
    var run = DisjointRun()
    func flush() throws {
      defer { run = DisjointRun() }
      try applyRun(run.ids[...], run.changesets[...], run.rows[...])
    }
    for id in ids {
      guard let bytes = try Data.fetchOne(read, arguments: [id]) else { continue }
      let changeset = Changeset([UInt8](bytes))
      let rows = try changeset.changedRows()
      if !run.admits(rows, rules: constraints) { try flush() }
      run.add(changeset, rows: rows, id: id, constraints: constraints)
    }
    try flush()
    return dropped
  }

  /// Consecutive changes that may apply as one (their rows grouped by table, in SQLite's order):
  /// they touch different rows (by table and primary key), and so neither's rows are the other's;
  /// at most 2,000 changes and 20,000 rows; a larger change stands alone. When applying, also:
  ///
  /// - no table with a trigger (a work's last authorship deleting its author writes a synced
  ///   table the change does not name);
  /// - no two tables a foreign key links (each change's rules apply after it, in order: a lot
  ///   whose item is deleted and made again later in the run is deleted);
  /// - a table with a unique index besides its key holds only inserts, or only deletes: SQLite
  ///   retries a write that breaks such an index after the table's other writes, so an update or
  ///   delete later in the run could free the value for a write that, applied in order, is refused.
  struct DisjointRun {
    static let changeLimit = 2_000
    static let rowLimit = 20_000
    /// A changeset this large (a base, a large import) is undone alone, unread.
    static let byteLimit = 4 << 20
    var ids: [Int64] = []
    var changesets: [Changeset] = []
    var rows: [[ChangedRow]] = []
    var rowCount = 0
    var names: Set<Name> = []
    var tables: Set<String> = []
    /// Per table with a unique index besides its key: the operations the run holds on it.
    var uniqueOperations: [String: Set<Change.Operation>] = [:]

    struct Name: Hashable {
      let table: String
      let key: [DatabaseValue]
    }

    /// What a run must keep to when its changes apply under the merge rules (nil: undoing exactly).
    struct Constraints {
      let triggered: Set<String>
      let uniquelyIndexed: Set<String>
      let rules: ForeignKeyRules

      static func triggeredTables(_ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger'"))
      }

      init(_ db: Database, tables: [SyncedTable], rules: ForeignKeyRules) throws {
        triggered = try Self.triggeredTables(db)
        var indexed: Set<String> = []
        for table in tables {
          let unique = try Row.fetchAll(db, sql: "PRAGMA index_list(\(SQL.quote(table.name)))").contains {
            ($0["unique"] as Int) == 1 && ($0["origin"] as String) != "pk"
          }
          if unique { indexed.insert(table.name) }
        }
        uniquelyIndexed = indexed
        self.rules = rules
      }
    }

    func admits(_ more: [ChangedRow], rules constraints: Constraints?) -> Bool {
      guard !ids.isEmpty else { return true }
      guard ids.count < Self.changeLimit, rowCount + more.count <= Self.rowLimit else { return false }
      if let constraints {
        let moreTables = Set(more.map(\.table))
        if moreTables.union(tables).contains(where: constraints.triggered.contains) { return false }
        for table in moreTables {
          if tables.contains(where: { constraints.rules.links($0, table) }) { return false }
        }
        for table in moreTables where constraints.uniquelyIndexed.contains(table) {
          let operations = (uniqueOperations[table] ?? []).union(more.filter { $0.table == table }.map(\.operation))
          if operations != [.insert] && operations != [.delete] { return false }
        }
      }
      return !more.contains { names.contains(Name(table: $0.table, key: $0.key)) }
    }

    mutating func add(_ changeset: Changeset, rows more: [ChangedRow], id: Int64 = 0, constraints: Constraints? = nil) {
      ids.append(id)
      changesets.append(changeset)
      rows.append(more)
      rowCount += more.count
      // A change past the limit stands alone: nothing joins it, so its rows need no names.
      guard rowCount <= Self.rowLimit else { return }
      for row in more {
        names.insert(Name(table: row.table, key: row.key))
        tables.insert(row.table)
        if constraints?.uniquelyIndexed.contains(row.table) ?? false {
          uniqueOperations[row.table, default: []].insert(row.operation)
        }
      }
    }
  }
}

extension SQL {
  /// Rows of `sync_change` after (hlc, device, seq) = (?, ?, ?), the hlc bound three times and the device twice.
  static let orderedAfter = "(hlc > ? OR (hlc = ? AND device > ?) OR (hlc = ? AND device = ? AND seq > ?))"
  /// The same, the point itself included.
  static let orderedFrom = "(hlc > ? OR (hlc = ? AND device > ?) OR (hlc = ? AND device = ? AND seq >= ?))"
}
