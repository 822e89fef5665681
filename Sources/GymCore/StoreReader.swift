import Foundation
import GRDB

/// A database file read as it is: read-only, never created, migrated or checkpointed, with the
/// store's busy timeout and its error translation (a held lock is `StoreError.busy`, exit 75).
/// The one way gym looks into a file without opening it as the store: `gym version`, the doctor,
/// completion, a backup or a snapshot being checked.
public final class StoreReader {
  public let path: String
  private let queue: DatabaseQueue
  private let timeout: Int

  /// `ofStore`: the file is a store's own, which a restore may replace. It is opened as a store opens
  /// (`StoreOpenLock`): a restore that swapped the file between SQLite's open and its first lock would
  /// have this reader see one file through the other's WAL. Backups, snapshots and copies, and a
  /// reader opened while this process already holds the store, pass false.
  public init(
    path: String, busyTimeoutMilliseconds: Int = Store.Options.defaultBusyTimeoutMilliseconds, ofStore: Bool = false
  ) throws {
    self.path = path
    timeout = busyTimeoutMilliseconds
    var configuration = Configuration()
    configuration.readonly = true
    // Beside other gym processes a reader can meet a lock too (another one recovering the WAL index).
    configuration.busyMode = .timeout(TimeInterval(busyTimeoutMilliseconds) / 1000)
    let openLock = ofStore ? try Self.openLock(path, timeoutMilliseconds: busyTimeoutMilliseconds) : nil
    defer { openLock?.release() }
    queue = try Store.translatingErrors(path: path, timeout: busyTimeoutMilliseconds) {
      try DatabaseQueue(path: path, configuration: configuration)
    }
    // A WAL connection keeps the shared lock its first read takes, which a restore waits for. A file
    // that is no database fails here and again, reported, at the caller's read.
    if openLock != nil { _ = try? read { try Int.fetchOne($0, sql: "PRAGMA schema_version") } }
  }

  /// Shared, as a store's; a directory this user cannot read is opened without it (a reader never writes).
  private static func openLock(_ path: String, timeoutMilliseconds: Int) throws(StoreError) -> StoreOpenLock? {
    do {
      return try StoreOpenLock.acquire(path, exclusive: false, timeoutMilliseconds: timeoutMilliseconds)
    } catch .busy {
      throw StoreError.busy(path: path, timeoutMilliseconds: timeoutMilliseconds)
    } catch {
      return nil
    }
  }

  /// One read transaction.
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    try Store.translatingErrors(path: path, timeout: timeout) { try queue.read(body) }
  }

  /// Copies the whole database into `destination` through SQLite's backup API.
  func backup(to destination: DatabaseQueue) throws {
    try Store.translatingErrors(path: path, timeout: timeout) { try queue.backup(to: destination) }
  }

  public func close() {
    try? queue.close()
  }
}
