import Foundation
import GymCLI
import GymCore

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

  /// Copies `name` (an export in `directory`); returns nil when it is there, or rclone's last message.
  @discardableResult
  func copy(_ name: String) -> String? {
    var tries = 0
    var message: String?
    repeat {
      if tries > 0 { usleep(useconds_t(pauses[tries - 1] * 1_000_000)) }
      tries += 1
      do {
        try exports.upload(directory + "/" + name)
        message = nil
      } catch {
        message = "\(error)"
      }
    } while message != nil && tries <= pauses.count
    var log = RemoteLog.read(in: directory)
    // Only the exports still here: the log does not grow with every export ever made.
    let here = Set(ExportListing.exports(in: directory).map(\.name))
    log.copies = log.copies.filter { here.contains($0.key) }
    log.copies[name] = RemoteLog.Copy(
      remote: remote, state: message == nil ? "copied" : "failed", tries: tries, at: now().canonical, error: message)
    log.write(in: directory)
    return message
  }

  /// The exports still here whose last copy to this remote failed, oldest first.
  func failed() -> [String] {
    let log = RemoteLog.read(in: directory)
    return ExportListing.exports(in: directory).map(\.name).filter {
      log.copies[$0]?.state == "failed" && log.copies[$0]?.remote == remote
    }
  }
}
