import Foundation
import GymCLI
import GymCore

#if canImport(Glibc)
  import Glibc
#endif

/// Copies exports to a remote after they are written: each tried again after a pause that grows
/// (a network that drops for a moment), recorded in the directory's `RemoteLog`, and never a reason
/// to lose or stop a local export.
struct RemoteCopy: Sendable {
  let remote: String
  /// The local exports' directory, where the log is kept.
  let directory: String
  /// The pauses between tries, in seconds: three tries in all.
  var pauses: [Double] = [1, 4]
  var now: @Sendable () -> Timestamp = { Timestamp.now() }

  var exports: RemoteExports { RemoteExports(remote: remote) }

  /// Copies `name` (an export in `directory`); returns nil when it is there, else the last failure.
  /// A configuration that cannot work (no such remote, no rclone) is not tried again.
  /// One copy at a time per directory (a lock beside the exports), so a one-off export and the
  /// scheduler never write the same remote directory, or the log, at once.
  @discardableResult
  func copy(_ name: String) -> Rclone.Failure? {
    let lock = DirectoryLock(directory)
    defer { lock.release() }
    // Recorded before it starts: a copy cut short (gym killed, the machine down) is found as
    // `copying` by the next run, which finishes it, and thinning keeps the local export meanwhile.
    record(name, state: "copying", tries: 0, failure: nil)
    var tries = 0
    var failure: Rclone.Failure?
    repeat {
      if tries > 0 { usleep(useconds_t(pauses[tries - 1] * 1_000_000)) }
      tries += 1
      do {
        try exports.upload(directory + "/" + name)
        failure = nil
      } catch let error as Rclone.Failure {
        failure = error
      } catch {
        failure = Rclone.Failure(status: 1, message: "\(error)")
      }
    } while failure.map({ !$0.isConfiguration }) == true && tries <= pauses.count
    record(name, state: failure == nil ? "copied" : "failed", tries: tries, failure: failure)
    return failure
  }

  private func record(_ name: String, state: String, tries: Int, failure: Rclone.Failure?) {
    var log = RemoteLog.read(in: directory)
    // Only the exports still here: the log does not grow with every export ever made.
    let here = Set(ExportListing.exports(in: directory).map(\.name))
    log.copies = log.copies.filter { here.contains($0.key) }
    log.copies[name] = RemoteLog.Copy(
      remote: remote, state: state, tries: tries, at: now().canonical, error: failure?.message)
    log.write(in: directory)
  }

  /// The exports still here whose last copy to this remote failed or never finished, oldest first.
  func failed() -> [String] {
    let log = RemoteLog.read(in: directory)
    return ExportListing.exports(in: directory).map(\.name).filter {
      ["failed", "copying"].contains(log.copies[$0]?.state) && log.copies[$0]?.remote == remote
    }
  }
}

/// An exclusive `flock` on `.gym-remote.lock` in a directory, held until released (or the process
/// ends); without a lock file (a read-only directory) it holds nothing.
final class DirectoryLock {
  private let descriptor: Int32

  init(_ directory: String) {
    descriptor = open(directory + "/.gym-remote.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    if descriptor >= 0 { _ = flock(descriptor, LOCK_EX) }
  }

  func release() {
    guard descriptor >= 0 else { return }
    _ = flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
