import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new directory in the temporary directory that only this user can enter (mode 0700), with a
/// name nobody can guess (`mkdtemp`): where decrypted rows or a database copy are written for a
/// moment, never readable by others, whatever the umask.
public enum PrivateDirectory {
  /// Its absolute path (a relative one with a ':' would read to rclone as a remote); nil, with
  /// `errno` set, when it cannot be made.
  public static func make(prefix: String) -> String? {
    let base = URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path
    var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { return nil }
    return String(cString: made)
  }

  /// Why the last `make` failed, and what to do, for an error message.
  public static var failure: String {
    "\(String(cString: strerror(errno))) in '\(NSTemporaryDirectory())'; set TMPDIR to a writable directory"
  }
}
