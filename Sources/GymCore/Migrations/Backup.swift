import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A backup of the database, next to it: `gym.sqlite.backup-20261122T101500Z-v7`, the time it
/// was taken (UTC) and the schema version it holds.
public struct Backup: Sendable, Equatable {
  public let path: String
  public let created: String
  public let version: Int

  static let marker = ".backup-"

  /// Parses a backup's file name; nil for any other file.
  public init?(path: String, database: String) {
    let name = (path as NSString).lastPathComponent
    let prefix = (database as NSString).lastPathComponent + Self.marker
    guard name.hasPrefix(prefix) else { return nil }
    let rest = name.dropFirst(prefix.count)
    let parts = rest.split(separator: "-")
    guard parts.count == 2, parts[0].count == 16, parts[1].hasPrefix("v"), let version = Int(parts[1].dropFirst())
    else { return nil }
    self.path = path
    self.created = String(parts[0])
    self.version = version
  }

  /// A file given by the user, whatever its name (a backup copied elsewhere).
  public init(unnamed path: String) {
    self.path = path
    self.created = ""
    self.version = 0
  }

  /// The backups of `database`, newest first.
  public static func list(of database: String) -> [Backup] {
    let directory = (database as NSString).deletingLastPathComponent
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
    return names.compactMap { name in
      Backup(path: directory.isEmpty ? name : directory + "/" + name, database: database)
    }.sorted { ($0.created, $0.version) > ($1.created, $1.version) }
  }

  /// Copies `database` to a new backup file with SQLite's online backup API, fsyncs it, checks
  /// that it opens and passes `integrity_check`, and only then gives it its final name. The caller
  /// holds the write lock: the copy, read through a connection of its own (SQLite cannot back up
  /// from a connection inside a write transaction), is exactly the state the migration starts from.
  static func take(database: String, version: Int, now: Date = Date()) throws -> Backup {
    let final = database + marker + stamp(now) + "-v\(version)"
    let temporary = final + ".partial"
    // A backup a killed process left half-written has no use: it never got its final name.
    for stale in partials(of: database) { unlink(stale) }
    let slots = SignalCleanup.register([temporary, temporary + "-journal"])
    defer { SignalCleanup.unregister(slots) }
    do {
      let source = try StoreReader(path: database)
      let copy = try DatabaseQueue(path: temporary)
      try source.backup(to: copy)
      source.close()
      try copy.writeWithoutTransaction { dest in
        // One self-contained file (no -wal beside it), which opens read-only anywhere.
        try dest.execute(sql: "PRAGMA journal_mode = DELETE")
      }
      try copy.close()
      try check(temporary)
      try Durable.sync(temporary)
      try Durable.rename(temporary, to: final)
    } catch let error as StoreError {
      unlink(temporary)
      throw error
    } catch {
      unlink(temporary)
      throw StoreError.backupFailed(path: final, reason: "\(error)")
    }
    return Backup(path: final, database: database)!
  }

  static func partials(of database: String) -> [String] {
    let directory = (database as NSString).deletingLastPathComponent
    let prefix = (database as NSString).lastPathComponent + marker
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
    return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".partial") }.map {
      directory.isEmpty ? $0 : directory + "/" + $0
    }
  }

  /// Opens a backup read-only and runs `integrity_check`.
  public static func check(_ path: String) throws(StoreError) {
    do {
      let reader = try StoreReader(path: path)
      defer { reader.close() }
      let result = try reader.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
      guard result == ["ok"] else {
        throw StoreError.backupFailed(
          path: path, reason: "integrity_check: \(result.prefix(3).joined(separator: "; "))")
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError.backupFailed(path: path, reason: "it does not open as a database (\(error))")
    }
  }

  /// Replaces `database` with a copy of this backup. The backup is checked first (it opens,
  /// passes `integrity_check`, holds a gym schema this binary knows); the copy is written beside it
  /// under a name of its own and fsynced; then, with no connection open and no command opening the
  /// database (`StoreFile.whileNoConnectionIsOpen`), it is named `<database>.restoring`, the current
  /// file, with its `-wal`, gets the name `<database>.replaced-<time>` (never overwritten, never
  /// deleted) and the copy is renamed into place. A copy that fails (a full disk) leaves the database
  /// where it was; two restores at once each put their own copy in place, one after the other.
  public func restore(
    to given: String, migrations: [Migration],
    busyTimeoutMilliseconds: Int = Store.Options.defaultBusyTimeoutMilliseconds, now: Date = Date()
  ) throws -> String? {
    // Through a symbolic link, the file it names is restored (the link would be replaced instead).
    let database = Self.resolvedLink(given)
    try Self.check(path)
    let reader = try StoreReader(path: path)
    defer { reader.close() }
    let state = try reader.read { db in try SchemaState.read(db, migrations: migrations) }
    if state.isForeign { throw StoreError.foreignDatabase(path: path) }
    if !state.unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: state.unknown) }
    let directory = (database as NSString).deletingLastPathComponent
    let name = (database as NSString).lastPathComponent
    // What a killed restore left: once a day old, or at once when its process is gone.
    StalePartials.prune(in: directory.isEmpty ? "." : directory) {
      $0.hasPrefix(name + ".restoring-") && $0.hasSuffix(".partial")
    }
    for left in Self.abandonedCopies(of: database) { unlink(left) }
    let copy = database + ".restoring-\(getpid())-\(UUID().uuidString.prefix(8)).partial"
    let temporary = database + ".restoring"
    // Held while this restore lives: a copy no one holds, and that has not changed for a minute, is
    // one a stopped restore left (a process id says nothing across containers sharing a volume).
    let held = open(copy, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    defer { if held >= 0 { close(held) } }
    do {
      guard held >= 0, flock(held, LOCK_EX) == 0 else {
        throw StoreError.restoreFailed(path: database, reason: "'\(copy)': " + String(cString: strerror(errno)))
      }
      try Self.copy(path, into: held)
      try Durable.sync(descriptor: held)
    } catch {
      unlink(copy)
      if let error = error as? StoreError { throw error }
      if access(directory.isEmpty ? "." : directory, W_OK) != 0 {
        throw StoreError.readOnly(
          path: database,
          reason: "its directory is not writable, and a restore writes its copy beside it; make it writable")
      }
      throw StoreError.restoreFailed(path: database, reason: "\(error)")
    }
    defer { unlink(copy) }  // still there only when the restore did not take it
    return try StoreFile.whileNoConnectionIsOpen(database, timeoutMilliseconds: busyTimeoutMilliseconds) {
      // The one name a restore cut short is known by, given only now that this restore goes ahead.
      do { try Durable.rename(copy, to: temporary) } catch {
        throw StoreError.restoreFailed(path: database, reason: "\(error)")
      }
      do { return try replace(database, with: temporary, now: now) } catch {
        unlink(temporary)  // this restore's copy, under the locks: the one place it is removed
        throw error
      }
    }
  }

  /// Moves `database` (with its `-wal` and `-shm`) aside and `copy` into its place. The current file
  /// first gets its second name (a hard link), so the path is never without a database: a program
  /// opening it in between (not gym: gym waits for the restore) would make a new one there.
  private func replace(_ database: String, with temporary: String, now: Date) throws -> String? {
    guard access(database, F_OK) == 0 else {
      // A -wal and -shm left without their database are not the copy's (SQLite would read them into
      // it, or delete them): kept aside under the name a replaced file would have.
      if access(database + "-wal", F_OK) == 0 || access(database + "-shm", F_OK) == 0 {
        Self.moveCompanions(of: database, to: try Self.asideName(database, now: now))
      }
      do { try Durable.rename(temporary, to: database) } catch {
        throw StoreError.restoreFailed(path: database, reason: error.description)
      }
      return nil
    }
    let target = try Self.asideName(database, now: now)
    let linked = link(database, target) == 0
    guard linked || rename(database, target) == 0 else {
      throw StoreError.restoreFailed(path: database, reason: "'\(target)': " + String(cString: strerror(errno)))
    }
    Self.moveCompanions(of: database, to: target)
    do {
      try Durable.rename(temporary, to: database)
    } catch {
      // Put the original back: with the link it never left.
      Self.moveCompanions(of: target, to: database)
      if linked { unlink(target) } else { _ = rename(target, database) }
      throw StoreError.restoreFailed(path: database, reason: error.description)
    }
    return target
  }

  /// The `-wal` and `-shm` of `source`, where there are any, renamed to those of `target`.
  private static func moveCompanions(of source: String, to target: String) {
    for suffix in ["-wal", "-shm"] where access(source + suffix, F_OK) == 0 {
      _ = rename(source + suffix, target + suffix)
    }
  }

  /// `<database>.replaced-<time>`, to the millisecond when a restore had the second already; a
  /// third within that millisecond is told to try again (75), never given an existing name.
  private static func asideName(_ database: String, now: Date) throws -> String {
    for milliseconds in [false, true] {
      let name = database + ".replaced-" + FileStamp.utc(now, milliseconds: milliseconds)
      // Taken by any of its files: a -wal set aside alone would be read into a file given its name.
      if ["", "-wal", "-shm"].allSatisfy({ access(name + $0, F_OK) != 0 }) { return name }
    }
    throw StoreError.restoredThisInstant(path: database)
  }

  static func stamp(_ date: Date) -> String { FileStamp.utc(date) }

  /// The copies of restores of `database` that no restore holds (`<database>.restoring-<pid>-<id>.partial`,
  /// each held by its restore's `flock` while it lives) and that have not changed for a minute (one
  /// just made, not yet locked, is left alone): left by a restore killed or interrupted while it waited.
  public static func abandonedCopies(of database: String, now: Date = Date()) -> [String] {
    let directory = (database as NSString).deletingLastPathComponent
    let prefix = (database as NSString).lastPathComponent + ".restoring-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
    return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".partial") }
      .map { directory.isEmpty ? $0 : directory + "/" + $0 }
      .filter { path in
        var info = stat()
        guard stat(path, &info) == 0, now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > 60 else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
      }
  }

  /// The bytes of the file at `source`, written through `descriptor` (whose file this restore holds).
  private static func copy(_ source: String, into descriptor: Int32) throws {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw SystemError.last }
    defer { close(input) }
    while true {
      let sent = sendfile(descriptor, input, nil, 1 << 24)
      if sent == 0 { return }
      if sent < 0 {
        guard errno == EINTR else { throw SystemError.last }
        continue
      }
    }
  }

  /// `path`, or the file it names when it is a symbolic link.
  public static func resolvedLink(_ path: String) -> String {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
    return StoreFile.realPath(path) ?? path
  }

  /// Deletes the oldest backups of `database` beyond the newest `keep`.
  static func prune(_ database: String, keep: Int) {
    for old in list(of: database).dropFirst(max(keep, 1)) { unlink(old.path) }
  }

}

/// UTC times in file names: `20261122T101500Z` (or `20261122T101500.123Z`), which sort as time.
public enum FileStamp {
  public static func utc(_ date: Date, milliseconds: Bool = false) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = milliseconds ? "yyyyMMdd'T'HHmmss.SSS'Z'" : "yyyyMMdd'T'HHmmss'Z'"
    return formatter.string(from: date)
  }
}
