import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `flock(2)` on the directory that holds the database, held by every store while it opens:
/// shared from before SQLite opens the file until its first read has taken the lock a WAL connection
/// then keeps (see `StoreFile.whileNoConnectionIsOpen`). In that gap SQLite has the file open without
/// a lock of its own, and a restore that moved the file aside there sent the opener's writes to the
/// file moved aside and its WAL to the new one's. A restore takes this lock exclusively, so an opener
/// waits for it and then opens the file that is at the path.
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

  /// Nil where the directory cannot be opened or locked (a file system without `flock`): the store
  /// opens as it did before this lock.
  static func acquire(_ path: String, exclusive: Bool, timeoutMilliseconds: Int) throws(StoreError) -> StoreOpenLock? {
    let directory = (path as NSString).deletingLastPathComponent
    let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    var waited = 0
    while flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        close(descriptor)
        return nil
      }
      guard waited < timeoutMilliseconds else {
        close(descriptor)
        throw StoreError.busy(path: path, timeoutMilliseconds: timeoutMilliseconds)
      }
      usleep(5_000)
      waited += 5
    }
    return StoreOpenLock(descriptor: descriptor, isExclusive: exclusive)
  }

  func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}
