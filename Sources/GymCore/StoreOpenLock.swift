import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `flock(2)` on the directory that really holds the database (symbolic links resolved), held by
/// every store while it opens: shared from before SQLite opens the file until its first read has
/// taken the lock a WAL connection then keeps (see `StoreFile.whileNoConnectionIsOpen`). In that gap
/// SQLite has the file open without a lock of its own, and a restore that moved the file aside there
/// sent the opener's writes to the file moved aside and its WAL to the new one's. A restore takes this
/// lock exclusively, so an opener waits for it and then opens the file that is at the path.
///
/// A new (missing or empty) database is opened under the exclusive lock: one command creates the
/// schema while the others wait, instead of finding a half-made database and refusing it.
///
/// The directory, not the file: closing any descriptor of the database file would drop the POSIX
/// locks SQLite's connections in this process hold on it.
final class StoreOpenLock {
  private var descriptor: Int32
  let isExclusive: Bool

  private init(descriptor: Int32, isExclusive: Bool) {
    self.descriptor = descriptor
    self.isExclusive = isExclusive
  }

  enum Failure: Error {
    /// Held by another command past the timeout.
    case busy
    /// The directory cannot be opened to be locked (no read permission for this user).
    case unreadable
  }

  /// Waits up to `timeoutMilliseconds` (0: one try). Nil where the file system has no `flock`: the
  /// store opens as it did before this lock.
  static func acquire(_ path: String, exclusive: Bool, timeoutMilliseconds: Int) throws(Failure) -> StoreOpenLock? {
    let descriptor = open(lockedDirectory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable }
    var waited = 0
    while flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        close(descriptor)
        return nil
      }
      guard waited < timeoutMilliseconds else {
        close(descriptor)
        throw .busy
      }
      usleep(5_000)
      waited += 5
    }
    return StoreOpenLock(descriptor: descriptor, isExclusive: exclusive)
  }

  /// For a store: busy past the timeout is `StoreError.busy` (75). A directory this user cannot read
  /// cannot be locked: where it may write there (a `-wx` folder) that is refused (73), since a restore
  /// by a user who can read it would not wait for this one; a reader that cannot write opens without it.
  static func acquireForStore(_ path: String, exclusive: Bool, timeoutMilliseconds: Int) throws(StoreError)
    -> StoreOpenLock?
  {
    do {
      return try acquire(path, exclusive: exclusive, timeoutMilliseconds: timeoutMilliseconds)
    } catch .busy {
      throw StoreError.busy(path: path, timeoutMilliseconds: timeoutMilliseconds)
    } catch {
      guard access(lockedDirectory(of: path), W_OK) == 0 else { return nil }
      throw StoreError.readOnly(
        path: path,
        reason: "its directory cannot be read by this user, and gym locks it while a database opens; make it readable")
    }
  }

  /// The directory the database file is really in: a path through a symbolic link (to the file or to
  /// a folder) and the path it names are one database, and must take one lock.
  static func lockedDirectory(of path: String) -> String {
    if let real = StoreFile.realPath(path) { return (real as NSString).deletingLastPathComponent }
    let directory = (path as NSString).deletingLastPathComponent
    return StoreFile.realPath(directory.isEmpty ? "." : directory) ?? (directory.isEmpty ? "." : directory)
  }

  func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}
