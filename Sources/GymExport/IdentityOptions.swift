import ArgumentParser
import Foundation
import GymCLI

/// `--identity FILE` and `--passphrase-file FILE`: the age identities (`AGE-SECRET-KEY-1…`, as age-keygen writes them) that open
/// an encrypted export, for `export verify` and `import`.
public struct IdentityOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp("An age identity file (AGE-SECRET-KEY-1…), to read an encrypted export.", valueName: "file"))
  var identity: String?
  @Option(
    help: ArgumentHelp("A file whose first line is the passphrase an export was encrypted with.", valueName: "file"))
  var passphraseFile: String?
  @Flag(help: "With --identity or --passphrase-file, read an export that is not encrypted too.")
  var allowPlaintext = false

  public init() {}

  /// The export at `path`, opened with these keys. Given a key, an export that is not encrypted is
  /// refused: a key asks for an authenticated export, and a swapped plaintext one must not pass as it.
  func reader(_ path: String) throws -> ExportReader {
    let identities = try identities()
    let reader = try ExportReader(path: path, identities: identities)
    if !identities.isEmpty && !reader.isEncrypted && !allowPlaintext {
      throw GymError.data(
        "'\(path)' is not encrypted, though a key was given to open it; "
          + "if a plaintext export is expected there, pass --allow-plaintext")
    }
    return reader
  }

  private func identities() throws -> [AgeIdentity] {
    let passphrase = try passphraseFile.map {
      AgeIdentity.scrypt(passphrase: try PassphraseFile.read($0), maxLogN: PassphraseFile.maxLogN)
    }
    guard let identity else { return passphrase.map { [$0] } ?? [] }
    guard let text = try? String(contentsOfFile: identity, encoding: .utf8) else {
      throw GymError.noInput("cannot read the identity file '\(identity)'")
    }
    do {
      return try AgeIdentity.file(text) + (passphrase.map { [$0] } ?? [])
    } catch let error as AgeError {
      throw GymError.usage("--identity '\(identity)': \(error.description)")
    }
  }
}
