import Foundation
import GRDB

/// The store's recording of one write transaction for sync: a session on the synced tables from the
/// transaction's start, its changeset appended to the change log before the commit.
final class ChangeCapture {
  let recorder: SessionRecorder
  let device: String

  private init(recorder: SessionRecorder, device: String) {
    self.recorder = recorder
    self.device = device
  }

  /// A capture when sync has begun on this database and some module has synced tables; nil otherwise.
  static func begin(_ db: Database, tables: [SyncedTable]) throws -> ChangeCapture? {
    guard !tables.isEmpty, let device = try ChangeLog.device(db) else { return nil }
    return ChangeCapture(recorder: try SessionRecorder(db, tables: tables.map(\.name)), device: device)
  }

  func finish(_ db: Database) throws {
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
