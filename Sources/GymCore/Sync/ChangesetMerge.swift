import CGymSQLite
import GRDB

/// Applies a changeset with gym's merge rules, SQLite's session extension finding each conflict
/// (`sqlite3changeset_apply_v2`). Changesets are applied in one order on every device (that of
/// their hybrid logical clocks), so "the later write" is the one applied last:
///
/// - an update that meets a row changed since (`DATA`): each column it changes takes its new
///   value, except a counter, which takes the change's difference (old to new), floored at zero;
/// - an update of a row deleted since (`NOTFOUND`) is dropped: a deleted record stays deleted;
/// - a delete that meets a row changed since: the row is deleted all the same;
/// - an insert of a key that exists (`CONFLICT`, the same record created on two devices): one
///   record, whose columns take the insert's known (non-null) values (a counter too: two devices
///   set up from one export hold the same lots, not twice them);
/// - a change another constraint refuses (`CONSTRAINT`) is dropped;
/// - rows left pointing at a deleted record (`FOREIGN_KEY`) follow their key's `ON DELETE`:
///   deleted, or their reference set to null.
///
/// Every decision depends only on the database and the change, so devices that apply the same
/// changesets in the same order from the same state end with the same rows.
public enum ChangesetMerge {
  /// What applying one changeset did.
  public struct Outcome: Sendable {
    /// The rows it changed here, as a changeset: its inverse undoes it exactly.
    public var effect: Changeset
    /// Changes dropped under the rules (an edit of a deleted record, a refused constraint).
    public var dropped = 0
  }

  /// Applies `changeset` to `db` (inside the caller's transaction, foreign keys off: `Store.writeSyncing`)
  /// under the merge rules.
  public static func apply(
    _ changeset: Changeset, to db: Database, tables: [SyncedTable], rules: ForeignKeyRules? = nil
  ) throws -> Outcome {
    let recorder = try SessionRecorder(db, tables: tables.map(\.name))
    let context = Context(.merge, tables: Set(tables.map(\.name)))
    try run(changeset, db: db, context: context)
    var dropped = context.dropped
    let counters = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0.counters) })
    for fix in context.fixes { if try !apply(fix, db: db, counters: counters[fix.change.table] ?? []) { dropped += 1 } }
    try (rules ?? ForeignKeyRules(db, tables: tables.map(\.name))).resolve(db, after: try changeset.changedRows())
    return Outcome(effect: try recorder.changeset(), dropped: dropped)
  }

  /// Applies `changeset` exactly: any conflict is an error and nothing of it stays (rewinding a
  /// change by its effect's inverse, which meets the rows exactly as the change left them).
  public static func applyExactly(_ changeset: Changeset, to db: Database, tables: [SyncedTable]) throws {
    try run(changeset, db: db, context: Context(.exact, tables: Set(tables.map(\.name))))
  }

  /// Applies `changeset` (several changes' rows, grouped: `Changeset.grouped`) when it meets no
  /// conflict and leaves no foreign-key rule to apply (`changes`: its rows): then what it did is
  /// exactly what it says, and needs no session to record. Returns false, with nothing applied,
  /// otherwise (the caller applies its changes one at a time, under the merge rules).
  public static func applyPlainly(
    _ changeset: Changeset, changes: [ChangedRow], to db: Database, tables: [SyncedTable], rules: ForeignKeyRules
  ) throws -> Bool {
    var applied = false
    try db.inSavepoint {
      let context = Context(.plain, tables: Set(tables.map(\.name)))
      try run(changeset, db: db, context: context)
      guard !context.conflicted, try !rules.resolve(db, after: changes) else { return .rollback }
      applied = true
      return .commit
    }
    return applied
  }

  private static func run(_ changeset: Changeset, db: Database, context: Context) throws {
    guard !changeset.isEmpty, let connection = db.sqliteConnection else { return }
    var bytes = changeset.bytes
    let box = Unmanaged.passRetained(context)
    defer { box.release() }
    let code = bytes.withUnsafeMutableBytes { buffer in
      sqlite3changeset_apply_v2(
        connection, Int32(buffer.count), buffer.baseAddress,
        { context, table in
          // Only the synced tables: a change to any other is skipped, whatever a file holds.
          guard let context, let table else { return 0 }
          return Unmanaged<Context>.fromOpaque(context).takeUnretainedValue().tables.contains(String(cString: table))
            ? 1 : 0
        },
        { context, kind, iterator in
          guard let context, let iterator else { return SQLITE_CHANGESET_ABORT }
          return Unmanaged<Context>.fromOpaque(context).takeUnretainedValue().decide(kind, iterator)
        }, box.toOpaque(), nil, nil, 0)
    }
    if let failure = context.failure { throw failure }
    // A plain application stopped at its first conflict: SQLite rolled it back.
    if context.conflicted { return }
    guard code == SQLITE_OK else {
      throw ChangesetError("cannot apply a changeset: \(String(cString: sqlite3_errstr(code)))")
    }
  }

  /// One conflict's resolution, made while SQLite applies; what needs SQL of its own waits in `fixes`.
  final class Context {
    /// Under the merge rules; exactly (any conflict an error); plainly (any conflict stops it).
    enum Mode { case merge, exact, plain }
    let mode: Mode
    let tables: Set<String>
    var fixes: [(change: Change, kind: Int32)] = []
    var dropped = 0
    var failure: (any Error)?
    var conflicted = false

    init(_ mode: Mode, tables: Set<String>) {
      self.mode = mode
      self.tables = tables
    }

    func decide(_ kind: Int32, _ iterator: OpaquePointer) -> Int32 {
      if mode == .plain {
        conflicted = true
        return SQLITE_CHANGESET_ABORT
      }
      if mode == .exact {
        // A foreign-key conflict's iterator answers no other call.
        let change = kind == SQLITE_CHANGESET_FOREIGN_KEY ? nil : try? Change(iterator, conflicting: true)
        failure = ChangesetError(
          "a change did not meet the rows it was made against (conflict \(kind) on \(change?.table ?? "?"): "
            + "expected \(change.map { "\($0.old)" } ?? "?"), found \(change.map { "\($0.current)" } ?? "?"))",
          isConflict: true)
        return SQLITE_CHANGESET_ABORT
      }
      // Foreign keys are off while sync applies (`ForeignKeyRules` keeps them): none is reported.
      if kind == SQLITE_CHANGESET_FOREIGN_KEY { return SQLITE_CHANGESET_OMIT }
      // A delete of a row an earlier change deleted: done already.
      if kind == SQLITE_CHANGESET_NOTFOUND, (try? Change(iterator, conflicting: false))?.operation == .delete {
        return SQLITE_CHANGESET_OMIT
      }
      let change: Change
      do { change = try Change(iterator, conflicting: true) } catch {
        failure = error
        return SQLITE_CHANGESET_ABORT
      }
      switch kind {
      case SQLITE_CHANGESET_DATA where change.operation == .delete: return SQLITE_CHANGESET_REPLACE
      case SQLITE_CHANGESET_DATA, SQLITE_CHANGESET_CONFLICT: fixes.append((change, kind))
      default: dropped += 1
      }
      return SQLITE_CHANGESET_OMIT
    }
  }

  /// An update over a changed row, or an insert over an existing one, column by column; false when
  /// a constraint refuses the result (nothing of it stays).
  private static func apply(_ fix: (change: Change, kind: Int32), db: Database, counters: Set<String>) throws -> Bool {
    let change = fix.change
    let names = try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQL.quote(change.table)))").map { $0["name"] as String }
    guard names.count == change.new.count else { throw ChangesetError("\(change.table) has other columns here") }
    var assignments: [String] = []
    var arguments: [DatabaseValue] = []
    for (index, name) in names.enumerated() where !change.primaryKey[index] {
      guard let new = change.new[index] else { continue }
      let column = SQL.quote(name)
      if counters.contains(name) && fix.kind == SQLITE_CHANGESET_DATA {
        // An update of a counter: its difference, onto what the row holds now.
        assignments.append("\(column) = max(0, coalesce(\(column), 0) + (? - ?))")
        arguments += [new, change.old[index] ?? 0.databaseValue]
      } else if fix.kind == SQLITE_CHANGESET_DATA || !new.isNull {
        assignments.append("\(column) = ?")
        arguments.append(new)
      }
    }
    guard !assignments.isEmpty else { return true }
    let keys = names.indices.filter { change.primaryKey[$0] }
    let condition = keys.map { "\(SQL.quote(names[$0])) = ?" }.joined(separator: " AND ")
    arguments += change.key
    do {
      try db.inSavepoint {
        try db.execute(
          sql: "UPDATE \(SQL.quote(change.table)) SET \(assignments.joined(separator: ", ")) WHERE \(condition)",
          arguments: StatementArguments(arguments))
        return .commit
      }
      return true
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      return false
    }
  }
}
