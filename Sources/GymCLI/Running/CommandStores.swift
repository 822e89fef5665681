import GRDB
import GymCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The stores a command opened. A command is a process: when it ends, its stores are closed (SQLite
/// checkpoints and removes the WAL, as on every close) but never deallocated, because the process
/// exits next. Deallocating GRDB's queue costs a short command a twentieth of its time: Foundation's
/// notification center, and libdispatch starting a thread only to dispose of the queue.
enum CommandStores {
  private static let open = Mutex<[Store]>([])
  private static let created = Mutex<[String]>([])
  /// Of `created`, those where no file was before, with the folders made for them (`discardCreated`).
  private static let removable = Mutex<[(path: String, folders: [String])]>([])
  private static let fresh = Mutex<[FreshDatabase]>([])

  /// A database an import makes (`FreshDatabase`): put in place once the command has succeeded,
  /// deleted otherwise.
  static func keepFresh(_ database: FreshDatabase) -> FreshDatabase {
    fresh.withLock { $0.append(database) }
    return database
  }

  /// Puts every database the command made in place (before "created database" is said). One that
  /// another command made at the same path meanwhile (two imports into a new path at once) is
  /// kept, and this command's rows are merged into it as `gym import --merge` would.
  static func publishFresh() throws {
    for database in fresh.withLock({ $0 }) where database.isOpen {
      guard database.schema != nil else { continue }
      if try database.publish() {
        noteCreated(database.target)
      } else {
        _ = keep(try database.mergeIntoTarget())
      }
    }
  }

  /// A database this command created; it is announced once the command has succeeded.
  static func noteCreated(_ path: String, whereNoFileWas: Bool = false, madeFolders: [String] = []) {
    created.withLock { $0.append(path) }
    if whereNoFileWas { removable.withLock { $0.append((path, madeFolders)) } }
  }

  /// "gym: created database '…'" for each database the command made, after it succeeded: a command
  /// that fails does not claim to have made something.
  static func announceCreated() {
    for path in created.withLock({ $0 }) { printNote("gym: created database '\(path)'") }
  }

  /// After a failure: each database the command made where no file was is removed again while it
  /// holds no row (its schema alone: a sync whose remote failed, an add refused after the store
  /// opened) and no other command has it open; a failed command leaves no database. A file that was
  /// there (empty, or a link to nothing) is never removed.
  static func discardCreated() {
    open.withLock { stores in for store in stores { try? store.close() } }
    for (path, folders) in removable.withLock({ $0 }) {
      Store.removeIfEmpty(path)
      // Only while empty, and only once the database is gone: another command's files stay.
      if access(path, F_OK) != 0 { Folders.removeWhileEmpty(folders) }
    }
    removable.withLock { $0.removeAll() }
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
    // A failed import leaves nothing: no database, no journal, no folder it made.
    fresh.withLock { databases in for database in databases { database.discard() } }
  }
}
