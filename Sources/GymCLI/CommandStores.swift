import GymCore
import Synchronization

/// The stores a command opened. A command is a process: when it ends, its stores are closed (SQLite
/// checkpoints and removes the WAL, as on every close) but never deallocated, because the process
/// exits next. Deallocating GRDB's queue costs a short command a twentieth of its time: Foundation's
/// notification center, and libdispatch starting a thread only to dispose of the queue.
enum CommandStores {
  private static let open = Mutex<[Store]>([])
  private static let created = Mutex<[String]>([])

  /// A database this command created; it is announced once the command has succeeded.
  static func noteCreated(_ path: String) {
    created.withLock { $0.append(path) }
  }

  /// "gym: created database '…'" for each database the command made, after it succeeded: a command
  /// that fails does not claim to have made something.
  static func announceCreated() {
    for path in created.withLock({ $0 }) { printNote("gym: created database '\(path)'") }
  }

  static func keep(_ store: Store) -> Store {
    open.withLock { $0.append(store) }
    return store
  }

  /// Closes every store the command opened; they stay referenced until the process exits.
  static func closeAll() {
    // A store that cannot close (a statement still open) is left to SQLite's crash safety: the
    // process ends either way, and the next open recovers the WAL.
    open.withLock { stores in for store in stores { try? store.close() } }
  }
}
