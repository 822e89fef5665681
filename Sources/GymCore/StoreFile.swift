import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Looks at a database file before SQLite does, so that a file gym must refuse stays untouched.
enum StoreFile {
  enum Kind: Equatable {
    case missing, empty, sqliteWAL, sqliteRollbackJournal
  }

  /// Reads the first 100 bytes with plain system calls (this runs on every command).
  static func inspect(_ path: String) throws(StoreError) -> Kind {
    var info = stat()
    guard stat(path, &info) == 0 else { return .missing }
    guard info.st_mode & S_IFMT == S_IFREG else { throw StoreError.notADatabase(path: path) }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw StoreError.cannotCreate(path: path, reason: "it cannot be read") }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 100)
    let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 100) }
    if count == 0 { return .empty }
    guard count >= 20, header.prefix(16).elementsEqual("SQLite format 3\0".utf8) else {
      throw StoreError.notADatabase(path: path)
    }
    // Byte 18 is the file format write version: 2 means WAL, which every gym database uses.
    return header[18] == 2 ? .sqliteWAL : .sqliteRollbackJournal
  }

  /// `path` with every symbolic link resolved, absolute; nil when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }

  /// Whether no database is at `path` yet: no file, or an empty one (read by `stat` alone).
  static func isNew(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) != 0 || info.st_size == 0
  }

  /// A `-wal` with changes in it beside no database, or beside an empty file (moved without it?):
  /// SQLite takes it for a crash's leftover of a new database and deletes it, or a new database made
  /// there reads it as its own and is damaged. Refused: nothing may make a database at `path` then.
  static func refuseStrayWAL(_ path: String) throws(StoreError) {
    guard isNew(path), hasPendingWAL(path) else { return }
    throw StoreError.inconsistent(
      "'\(path)-wal' holds changes of a database that is not at '\(path)' (moved without it?): put the database "
        + "back beside it, or move the -wal away; nothing was written")
  }

  /// Whether a `-wal` file beside the database holds frames not yet in the main file. Usually only
  /// while another process has the database open: gym's own last connection removes its WAL.
  static func hasPendingWAL(_ path: String) -> Bool {
    var info = stat()
    return stat(path + "-wal", &info) == 0 && info.st_size > 0
  }

  /// Opening the store writes to a database: it switches the file to WAL, and its last connection
  /// checkpoints a pending WAL. Such a database is checked read-only first (a read-only connection
  /// never checkpoints) and refused if it holds tables but no gym schema history.
  static func refuseForeign(_ path: String, busyTimeoutMilliseconds: Int) throws {
    let reader = try StoreReader(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    defer { reader.close() }
    let tables = try reader.read { db in
      try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    }
    if !tables.isEmpty && !tables.contains("grdb_migrations") {
      throw StoreError.foreignDatabase(path: path)
    }
  }

  static func createDirectory(for path: String) throws(StoreError) {
    let directory = (path as NSString).deletingLastPathComponent
    guard !directory.isEmpty else { return }
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw StoreError.cannotCreate(path: path, reason: "cannot create directory '\(directory)'")
    }
    guard FileManager.default.isWritableFile(atPath: directory) else {
      throw StoreError.cannotCreate(path: path, reason: "directory '\(directory)' is not writable")
    }
  }
}

extension StoreFile {
  /// A reader that may not write the database (another user, or a read-only file) still creates its
  /// `-shm` and `-wal`, as its own and as read-only as the file, and cannot remove them as it leaves.
  /// They would lock the owner out for good. When no connection is open, the `-shm` is only an index
  /// SQLite rebuilds and an empty `-wal` holds nothing, so gym removes them, under the lock SQLite's
  /// last connection takes before it deletes them itself: exclusive on the database file. A `-wal`
  /// with frames in it is left alone.
  static func removeStrandedCompanions(_ path: String) {
    let stranded = ["-wal", "-shm"].filter { access(path + $0, F_OK) == 0 && access(path + $0, W_OK) != 0 }
    guard !stranded.isEmpty, access(path, W_OK) == 0 else { return }
    var info = stat()
    if stranded.contains("-wal"), stat(path + "-wal", &info) == 0, info.st_size > 0 { return }
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    guard lockAsLastConnection(descriptor) else { return }  // someone has it open: refused as read-only
    for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
      if suffix == "-wal", stat(path + suffix, &info) == 0, info.st_size > 0 { continue }
      unlink(path + suffix)
    }
  }

  /// Runs `body` holding the store's open lock (`StoreOpenLock`) exclusively and the lock SQLite's last
  /// connection takes (below): no connection is open and no store is being opened. Replacing the
  /// file under an open connection, or one being opened, would send its writes to the file moved
  /// aside. Both are tried together, without waiting, and let go again while a connection is still
  /// open, so a command opening a database meanwhile waits for one try, never for the whole wait;
  /// still open past the timeout is `busy` (75). A directory this user cannot read cannot be locked:
  /// refused (73). A WAL left with changes in it (its writer died before it checkpointed) is
  /// checkpointed into the file first, so the file moved aside never leaves them behind.
  static func whileNoConnectionIsOpen<T>(_ path: String, timeoutMilliseconds: Int, _ body: () throws -> T) throws -> T {
    var waited = 0
    var checkpointed = false
    while true {
      let openLock: StoreOpenLock?
      var locked = true
      do {
        openLock = try StoreOpenLock.acquire(path, exclusive: true, timeoutMilliseconds: 0)
      } catch .busy {
        openLock = nil
        locked = false
      } catch {
        throw StoreError.readOnly(
          path: path, reason: "its directory cannot be read, and a restore locks it; check its permissions")
      }
      if locked {
        defer { openLock?.release() }
        if !checkpointed && !isNew(path) && hasPendingWAL(path) {
          checkpointed = true
          checkpointAbandonedWAL(path)
        }
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
          // Nothing there is open by anyone; a file that is there but cannot be locked is not replaced.
          guard errno == ENOENT else { throw StoreError.readOnly(path: path, reason: whyReadOnly(path)) }
          return try body()
        }
        defer { close(descriptor) }
        if lockAsLastConnection(descriptor) { return try body() }
      }
      guard waited < timeoutMilliseconds else {
        throw StoreError.busy(path: path, timeoutMilliseconds: timeoutMilliseconds)
      }
      usleep(10_000)
      waited += 10
    }
  }

  /// Opens and closes a connection: the last one to close checkpoints the WAL into the file and
  /// removes it. Best effort: another connection still open keeps its WAL, and then the wait for it
  /// follows.
  private static func checkpointAbandonedWAL(_ path: String) {
    guard let queue = try? DatabaseQueue(path: path) else { return }
    _ = try? queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    try? queue.close()
  }

  /// SQLite's EXCLUSIVE lock on the unix VFS: a write lock over the pending byte (2^30) and the 510
  /// bytes of the shared range after the reserved byte. Every open WAL connection holds a shared lock
  /// there, so this is granted only when none is open. An open-file-description lock conflicts with
  /// this process's own SQLite locks too, and leaves them in place when it is released.
  private static func lockAsLastConnection(_ descriptor: Int32) -> Bool {
    #if os(Linux)
      var lock = flock()
      lock.l_type = Int16(F_WRLCK)
      lock.l_whence = Int16(SEEK_SET)
      lock.l_start = 0x4000_0000
      lock.l_len = 512
      let openFileDescriptionSetLock: Int32 = 37  // F_OFD_SETLK, which Glibc shows only with _GNU_SOURCE
      return fcntl(descriptor, openFileDescriptionSetLock, &lock) == 0
    #else
      return false
    #endif
  }

  /// Which of the files SQLite needs to write stops this user, in words that say what to change.
  /// A WAL database needs its `-wal` and `-shm` files writable, and its directory to create them.
  static func whyReadOnly(_ path: String) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    if access(path, W_OK) != 0 { return "the file is read-only for this user; check its permissions" }
    for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 && access(path + suffix, W_OK) != 0 {
      return "'\(path + suffix)' is read-only for this user (a reader that may not write the database left it, "
        + "or has the database open now); try again when no one else has it open, or check its permissions"
    }
    if access(directory.isEmpty ? "." : directory, W_OK) != 0 {
      return "its directory is not writable, and SQLite needs to create its -wal and -shm files there; "
        + "make the directory writable or copy the database elsewhere"
    }
    return "SQLite cannot write it; check the permissions of the file, its -wal and -shm files and its directory"
  }
}
