import Foundation
import GRDB

/// The store's recording of one write transaction for sync: a session on the synced tables from the
/// transaction's start, its changeset appended to the change log before the commit.
final class ChangeCapture {
  let recorder: SessionRecorder
  let device: String
  /// The tables whose inserted rows get their keys before the changeset is taken, parents first,
  /// and a session of their own that says which rows those are.
  let keyings: [RowKeying]
  let keyed: SessionRecorder?

  private init(recorder: SessionRecorder, device: String, keyings: [RowKeying], keyed: SessionRecorder?) {
    self.recorder = recorder
    self.device = device
    self.keyings = keyings
    self.keyed = keyed
  }

  /// A capture when sync has begun on this database and some module has synced tables; nil otherwise.
  static func begin(_ db: Database, tables: [SyncedTable], keyings: [RowKeying] = []) throws -> ChangeCapture? {
    guard !tables.isEmpty, let device = try ChangeLog.device(db) else { return nil }
    // Only what the log has begun: a table that syncs since, from a later gym, begins at the next sync.
    let begun = try ChangeLog.begun(db)
    let recorded = tables.map(\.name).filter(begun.contains)
    guard !recorded.isEmpty else { return nil }
    let keyings = keyings.filter { begun.contains($0.table) }
    return ChangeCapture(
      recorder: try SessionRecorder(db, tables: recorded), device: device, keyings: keyings,
      keyed: keyings.isEmpty ? nil : try SessionRecorder(db, tables: keyings.map(\.table)))
  }

  func finish(_ db: Database) throws {
    // The rows this write inserted or changed in a keyed table (an insert that reused a deleted
    // row's rowid is a change of it): each gets its key, which a row keyed already has.
    if let keyed, !keyed.isEmpty {
      let written = try keyed.changeset().rowids()
      for keying in keyings {
        if let rows = written[keying.table] { try keying.assign(db, rows: rows) }
      }
    }
    let changeset = try recorder.changeset()
    guard !changeset.isEmpty else { return }
    try ChangeLog.appendLocal(db, device: device, changeset: changeset, now: Date())
  }

  /// For work that commits on its own (bulk loads, `gym import`): on a synced database, a commit
  /// that changed a synced table is refused, since it could not be recorded with it.
  static func guardUnrecorded(_ db: Database, tables: [SyncedTable]) throws -> UnrecordedWrites? {
    guard !tables.isEmpty, try ChangeLog.device(db) != nil else { return nil }
    let observer = UnrecordedWrites(tables: Set(tables.map(\.name)))
    db.add(transactionObserver: observer, extent: .observerLifetime)
    return observer
  }
}

/// Refuses the commit of a transaction that changed a synced table without recording it.
final class UnrecordedWrites: TransactionObserver {
  let tables: Set<String>
  private var changed: String?

  init(tables: Set<String>) { self.tables = tables }

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { tables.contains(eventKind.tableName) }

  func databaseDidChange(with event: DatabaseEvent) { changed = changed ?? event.tableName }

  func databaseWillCommit() throws {
    if let changed {
      throw StoreError.unrecordedSyncWrite(table: changed)
    }
  }

  func databaseDidCommit(_ db: Database) { changed = nil }
  func databaseDidRollback(_ db: Database) { changed = nil }

  func end(_ db: Database) { db.remove(transactionObserver: self) }
}
