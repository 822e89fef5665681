import Foundation
import GRDB

/// A base: the synced tables as the first changes of the log left them, standing for those
/// changes. `gym sync compact` makes one from the longest run of the log, in its order, that every
/// device holds and that no change yet to come can sort before; a new device adopts the newest and
/// then applies only the changes after it. A base is known by the clock reading of the last change
/// it holds; in a log, an adopted base is one change of the device named `.base` (never a device's
/// name) numbered by that reading, at that reading: it sorts after every change it holds and before
/// every change it does not.
public enum SyncBase {
  /// The log's name for bases.
  public static let device = ".base"

  public struct Snapshot: Sendable, Equatable {
    /// The clock reading of the last change it holds: what the base is known by.
    public var hlc: Int64
    /// Per device, the changes 1 through this that it holds.
    public var covers: [String: Int64]
    /// Every row, as an insert.
    public var changeset: Changeset

    public init(hlc: Int64, covers: [String: Int64], changeset: Changeset) {
      self.hlc = hlc
      self.covers = covers
      self.changeset = changeset
    }

    /// The base as a change of the log.
    public var entry: ChangeLog.Entry {
      ChangeLog.Entry(device: SyncBase.device, seq: hlc, hlc: hlc, changeset: changeset)
    }
  }

  /// Per device, the changes 1 through this that the bases adopted here stand for.
  public static func covers(_ db: Database) throws -> [String: Int64] {
    var covers: [String: Int64] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT device, max(seq) AS seq FROM sync_base GROUP BY device") {
      covers[row["device"]] = row["seq"]
    }
    return covers
  }

  /// Records what `base` stands for, in the transaction that integrates its entry.
  public static func adopt(_ db: Database, _ base: Snapshot) throws {
    let insert = try db.cachedStatement(sql: "INSERT INTO sync_base (base, device, seq) VALUES (?, ?, ?)")
    for (device, seq) in base.covers.sorted(by: { $0.key < $1.key }) {
      try insert.execute(arguments: [base.hlc, device, seq])
    }
  }

  /// The base this log can make: the longest run from the start of the log, in
  /// its order, of changes with a clock reading at most `floor` (no device will make a change that
  /// sorts before it) that every device holds (`applied`: per device, the end of the run of its
  /// changes from 1 that every device's marker says it holds), and the synced tables as that run
  /// left them (the changes after it undone, in a savepoint rolled back). Nil when the run holds no
  /// change a base adopted here does not already stand for.
  public static func make(
    _ db: Database, floor: Int64, applied: [String: Int64], tables: [SyncedTable]
  ) throws -> Snapshot? {
    var covers = try covers(db)
    var last: (hlc: Int64, device: String, seq: Int64)?
    var fresh = 0
    // All read before anything else runs: an unfinished statement would keep the tables locked
    // against the temporary tables `contents` makes.
    let rows = try Row.fetchAll(
      db, sql: "SELECT hlc, device, seq FROM sync_change WHERE hlc <= ? ORDER BY hlc, device, seq", arguments: [floor])
    for row in rows {
      let hlc: Int64 = row["hlc"]
      let device: String = row["device"]
      let seq: Int64 = row["seq"]
      guard hlc <= floor else { break }
      if device != Self.device {
        guard seq <= applied[device] ?? 0 else { break }
        covers[device] = max(covers[device] ?? 0, seq)
        fresh += 1
      }
      last = (hlc, device, seq)
    }
    guard let last, fresh > 0 else { return nil }
    var contents = Changeset([])
    try db.inSavepoint {
      _ = try ChangeLog.undo(db, after: last, tables: tables)
      contents = try ChangeLog.contents(db, tables: tables)
      return .rollback
    }
    return Snapshot(hlc: last.hlc, covers: covers.filter { $0.value > 0 }, changeset: contents)
  }

  /// This device's changes that no other device can hold (numbered after `remote`, the last the
  /// remote holds of it) and whose clock readings are at most `hlc` (a base's place: made while
  /// they waited to push, unseen by the device that made the base) get new readings after every one
  /// this log holds, in their order, and the log is replayed from the first of them: a base stays
  /// before every change it does not hold. How many were given new readings.
  public static func retime(
    _ db: Database, device: String, after remote: Int64, notAfter hlc: Int64, now: Date, tables: [SyncedTable]
  ) throws -> Int {
    guard
      let first = try Row.fetchOne(
        db,
        sql: """
          SELECT hlc, seq FROM sync_change WHERE device = ? AND pushed = 0 AND seq > ? AND hlc <= ?
          ORDER BY seq LIMIT 1
          """,
        arguments: [device, remote, hlc])
    else { return 0 }
    let firstSeq: Int64 = first["seq"]
    // Undone from the first of them on (the point just before it), newest first.
    let point: (hlc: Int64, device: String, seq: Int64) = (first["hlc"], device, firstSeq - 1)
    _ = try ChangeLog.undo(db, after: point, tables: tables)
    var clock = try ChangeLog.latestClock(db)
    let moved = try Int64.fetchAll(
      db, sql: "SELECT id FROM sync_change WHERE device = ? AND seq >= ? ORDER BY seq", arguments: [device, firstSeq])
    for id in moved {
      let next = HybridClock.next(after: clock, now: now)
      try db.execute(sql: "UPDATE sync_change SET hlc = ? WHERE id = ?", arguments: [next, id])
      clock = next
    }
    // The same changes as were undone (new readings only move them later): in their new order.
    let order = try Int64.fetchAll(
      db, sql: "SELECT id FROM sync_change WHERE \(SQL.orderedAfter) ORDER BY hlc, device, seq",
      arguments: [point.hlc, point.hlc, point.device, point.hlc, point.device, point.seq])
    _ = try ChangeLog.apply(db, order, tables: tables)
    return moved.count
  }
}
