import Foundation
import GymCLI

/// `--passphrase-file FILE`: a passphrase for age's scrypt recipient, read from a file rather than
/// the command line or the environment (where other users and logs can see it). The file's first
/// line is the passphrase; its line ending is not part of it.
enum PassphraseFile {
  /// The work factor age itself uses (2^18), and the largest it accepts when decrypting (2^22).
  static let logN = 18
  static let maxLogN = 22

  static func read(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw GymError.noInput("cannot read the passphrase file '\(path)'")
    }
    var line = Array(data.prefix { $0 != UInt8(ascii: "\n") })
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    guard !line.isEmpty else {
      throw GymError.usage("the passphrase file '\(path)' is empty; write the passphrase on its first line")
    }
    return line
  }
}
