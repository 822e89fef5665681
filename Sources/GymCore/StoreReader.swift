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

  public init(path: String, busyTimeoutMilliseconds: Int = Store.Options.defaultBusyTimeoutMilliseconds) throws {
    self.path = path
    timeout = busyTimeoutMilliseconds
    var configuration = Configuration()
    configuration.readonly = true
    // Beside other gym processes a reader can meet a lock too (another one recovering the WAL index).
    configuration.busyMode = .timeout(TimeInterval(busyTimeoutMilliseconds) / 1000)
    queue = try Store.translatingErrors(path: path, timeout: busyTimeoutMilliseconds) {
      try DatabaseQueue(path: path, configuration: configuration)
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
