import Foundation

/// An fsync of a file on a thread of its own, started while the caller goes on with other work,
/// so that the fsync the caller makes at the end has less left to wait for (a fresh database's
/// rows go out while its indexes are built). What it met is kept: the kernel reports a write-back
/// error to one fsync only, so `wait()` throws it and the caller's own fsync cannot pass over it.
final class BackgroundSync: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  /// Written by the thread before it signals `done`, read only after `done` is waited for.
  private var failure: SystemError?

  init(path: String) {
    Thread { [self] in
      do throws(SystemError) {
        try Durable.sync(path)
      } catch {
        failure = error
      }
      done.signal()
    }.start()
  }

  /// Waits for the fsync to end; throws what it met. May be called more than once.
  func wait() throws(SystemError) {
    done.wait()
    done.signal()
    if let failure { throw failure }
  }
}
