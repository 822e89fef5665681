import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A database that does not exist yet, made by one bulk load: built beside its path under a
/// temporary name (`<path>.import-<UUID>.partial`) and put in place only once the load has
/// succeeded, so nothing at the path is ever half-made. Nothing else can open the temporary file,
/// so the load runs without fsyncs and with its rollback journal in memory: the rows are written
/// once, instead of to the WAL and then again into the database (2,000,000 Apple Health records:
/// 6.3–6.6 s → 5.0 s). The journal stays small (only pages there when the load began are kept in
/// it) and is not optional: without one SQLite cannot undo a statement that fails part-way, and a
/// unique index build that meets a key twice (`DeferredIndexes.rebuild`) left a half-built index.
/// A failed load deletes the file; one killed leaves it for `StalePartials` to remove a day later.
///
/// Used by one thread at a time (the command that imports), hence `@unchecked Sendable`.
public final class FreshDatabase: @unchecked Sendable {
  public let target: String
  public let partial: String
  private var store: Store?
  /// How the store was opened, for `discard(leavingEmpty:)`.
  public private(set) var schema: (modules: [GymModule], options: Store.Options)?
  private var isPublished = false
  /// The fsync `startSync` began.
  private(set) var earlySync: BackgroundSync?
  /// After `mergeIntoTarget`: this load's rows it added, and those already there it left alone.
  public private(set) var merged: (added: Int, existing: Int)?
  /// The temporary files a signal ending the command removes (`SignalCleanup`).
  private var signalSlots: [Int] = []
  /// The folders the store makes for it (those of the target's path not there yet), deepest first:
  /// removed again, while empty, when the load fails, so a failed import leaves no trace.
  private let missingFolders: [String]

  public init(target: String) {
    self.target = target
    missingFolders = Folders.missing(above: target)
    partial = target + ".import-" + UUID().uuidString + ".partial"
    let base = (target as NSString).lastPathComponent + ".import-"
    let folder = (target as NSString).deletingLastPathComponent
    StalePartials.prune(in: folder.isEmpty ? "." : folder) { $0.hasPrefix(base) && $0.contains(".partial") }
  }

  /// Whether `openStore` has made the database.
  public var isOpen: Bool { store != nil }

  /// The store at the temporary path, made at the first call.
  public func openStore(modules: [GymModule], options: Store.Options) throws -> Store {
    if let store { return store }
    // A restore cut short between moving the database aside and putting the backup in its place:
    // a new database here would be overwritten by the restore's last step (as `Store` refuses too).
    if access(target, F_OK) != 0 && access(target + ".restoring", F_OK) == 0 {
      throw StoreError.interruptedRestore(path: target)
    }
    try StoreFile.refuseStrayWAL(target)
    signalSlots = SignalCleanup.register(["", "-wal", "-shm", "-journal"].map { partial + $0 })
    let store = try Store(path: partial, modules: modules, options: options)
    try store.writeWithoutTransaction { db in
      _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = MEMORY")
      try db.execute(sql: "PRAGMA synchronous = OFF")
    }
    self.store = store
    schema = (modules, options)
    return store
  }

  /// Starts writing what the load has committed so far out to disk, on a thread of its own, so the
  /// fsync of `publish` waits only for what is written after (on the bench export, the rows go out
  /// while the indexes are built; Docs/PerformanceNotes.md). A failure is reported by `publish`.
  public func startSync() {
    if earlySync == nil { earlySync = BackgroundSync(path: partial) }
  }

  /// Puts the loaded database at `target`: back in WAL mode, closed, fsynced, then given the
  /// target's name. False when another command made a database there meanwhile: this one is left
  /// complete at `partial` for the caller to merge, then `discard`.
  @discardableResult
  public func publish() throws -> Bool {
    guard let store else { return true }
    try StoreFile.refuseStrayWAL(target)  // left there since the load began
    try store.writeWithoutTransaction { db in
      _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
    }
    try store.close()
    self.store = nil
    do {
      try earlySync?.wait()
      try Durable.sync(partial)
    } catch {
      throw StoreError.cannotCreate(path: target, reason: error.description)
    }
    // A hard link never replaces: a database another command made at the path meanwhile is kept,
    // and the caller merges this one into it.
    if link(partial, target) == 0 {
      unlink(partial)
      Durable.syncDirectory(containing: target)
    } else if errno == EEXIST {
      return false
    } else {
      do {
        try Durable.rename(partial, to: target)
      } catch {
        throw StoreError.cannotCreate(path: target, reason: error.description)
      }
    }
    isPublished = true
    SignalCleanup.unregister(signalSlots)
    signalSlots = []
    return true
  }

  /// After a `publish` that found a database made at the path meanwhile (two imports into a new path
  /// at once): this load's rows merged into it, as `gym import --merge` would (`ImportMerge`), then
  /// the temporary database removed. Returns the target's store, open.
  public func mergeIntoTarget() throws -> Store {
    guard let schema else { throw StoreError.inconsistent("no load to merge into '\(target)'") }
    let store = try Store(path: target, modules: schema.modules, options: schema.options)
    try store.writeWithoutTransaction { db in
      try db.execute(sql: "ATTACH DATABASE ? AS staging", arguments: [partial])
      defer { try? db.execute(sql: "DETACH DATABASE staging") }
      try db.inTransaction(.immediate) {
        var merge = ImportMerge(keepingKeys: Set(store.syncedTables.map(\.name)))
        try merge.run(db, tables: schema.modules.flatMap(\.tables).map(\.name))
        merged = (merge.added, merge.existing)
        return .commit
      }
    }
    discard()
    return store
  }

  /// Removes the temporary database, if it is still there (after a failure; after `publish`,
  /// nothing is left to remove). `leavingEmpty`: a load that failed leaves the empty database a
  /// store opened at the path would have made, as imports into a new path always have.
  public func discard(leavingEmpty: Bool = false) {
    try? earlySync?.wait()
    try? store?.close()
    store = nil
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(partial + suffix) }
    SignalCleanup.unregister(signalSlots)
    signalSlots = []
    if leavingEmpty, !isPublished, let schema, access(target, F_OK) != 0 {
      try? Store(path: target, modules: schema.modules, options: schema.options).close()
    }
    if !isPublished && !leavingEmpty {
      Folders.removeWhileEmpty(missingFolders)
    }
  }
}
