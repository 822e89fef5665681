import Crypto
import Foundation
import _CryptoExtras

/// A problem with age-encrypted data or keys: a wrong key, a damaged file. Its message names what.
public struct AgeError: Error, Equatable, CustomStringConvertible {
  /// Where reading a file failed, in the terms of age's conformance vectors.
  public enum Stage: Sendable, Equatable {
    /// Keys, recipients, options: not reading a file.
    case other
    /// The header does not parse (or a stanza an identity tried is malformed).
    case header
    /// The header parses, but no identity given opens any of its stanzas.
    case noMatch
    /// A stanza opened, but the header's MAC does not match.
    case mac
    /// The header is whole; the payload does not decrypt to its end.
    case payload
  }

  public let description: String
  public let stage: Stage
  init(_ description: String, stage: Stage = .other) {
    self.description = description
    self.stage = stage
  }
}

/// Who a file is encrypted to (age-encryption.org/v1): an X25519 public key (`age1…`) or a passphrase
/// (scrypt, which must be the file's only recipient).
public enum AgeRecipient: Sendable {
  /// The raw 32-byte X25519 public key.
  case x25519([UInt8])
  case scrypt(passphrase: [UInt8], logN: Int)

  /// `age1…`, as `age-keygen` prints it. The message never repeats the text: a secret key pasted
  /// where a recipient belongs must not reach a log.
  public init(parsing text: String) throws {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.uppercased().hasPrefix("AGE-SECRET-KEY-") {
      throw AgeError(
        "an age identity (a secret key), not a recipient; give its recipient, which 'age-keygen -y' prints")
    }
    if trimmed.hasPrefix("ssh-") || trimmed.hasPrefix("ecdsa-") {
      throw AgeError("an SSH key; gym encrypts to age X25519 recipients (age1…) only")
    }
    guard let (hrp, data) = Bech32.decode(trimmed), hrp == "age", data.count == 32,
      let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: data)
    else {
      if trimmed.lowercased().hasPrefix("age1") && Bech32.decode(trimmed) != nil {
        throw AgeError("an age plugin recipient; gym encrypts to age X25519 recipients (age1…) only")
      }
      throw AgeError("not an age recipient (age1…, as age-keygen prints)")
    }
    guard !Self.isLowOrder(key) else {
      throw AgeError("a low-order X25519 key: what is encrypted to it opens without any secret key")
    }
    self = .x25519(data)
  }

  /// A point of small order gives every private key the same all-zero shared secret (age refuses
  /// these too). Any clamped scalar shows it, so one fresh key decides.
  static func isLowOrder(_ key: Curve25519.KeyAgreement.PublicKey) -> Bool {
    guard let shared = try? Curve25519.KeyAgreement.PrivateKey().sharedSecretFromKeyAgreement(with: key) else {
      return true
    }
    return shared.withUnsafeBytes { bytes in bytes.allSatisfy { $0 == 0 } }
  }

  /// A recipients file, as `age -R` reads it: one `age1…` per line; `#` comments and blank lines
  /// skipped. A file with no recipient is refused, as age refuses it: encrypting to nobody is not an
  /// option. A bad line is named by its number, never quoted.
  public static func file(_ text: String) throws -> [AgeRecipient] {
    var recipients: [AgeRecipient] = []
    let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    for (index, line) in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
      do { recipients.append(try AgeRecipient(parsing: trimmed)) } catch let error as AgeError {
        throw AgeError("line \(index + 1): \(error.description)")
      }
    }
    guard !recipients.isEmpty else {
      throw AgeError("no recipient in it (one age1… a line, as age-keygen -y prints); nothing would be encrypted")
    }
    return recipients
  }

  public var string: String? {
    guard case .x25519(let key) = self else { return nil }
    return Bech32.encode(hrp: "age", data: key)
  }
}

/// What decrypts: an X25519 private key (`AGE-SECRET-KEY-1…`) or a passphrase.
public enum AgeIdentity: Sendable {
  /// The raw 32-byte X25519 private key.
  case x25519([UInt8])
  /// `maxLogN` bounds the work a file may ask for (age's own limit is 22).
  case scrypt(passphrase: [UInt8], maxLogN: Int)

  public init(parsing text: String) throws {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let (hrp, data) = Bech32.decode(trimmed), hrp == "age-secret-key-", data.count == 32,
      trimmed == trimmed.uppercased(), (try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: data)) != nil
    else { throw AgeError("not an age identity (AGE-SECRET-KEY-1…, as age-keygen writes)") }
    self = .x25519(data)
  }

  /// An identity file, as `age-keygen` writes it: `AGE-SECRET-KEY-1…` lines, `#` comments.
  public static func file(_ text: String) throws -> [AgeIdentity] {
    let identities = try text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }.map { try AgeIdentity(parsing: $0) }
    guard !identities.isEmpty else { throw AgeError("the identity file holds no AGE-SECRET-KEY-1… line") }
    return identities
  }

  /// A new key pair, as `age-keygen` makes one.
  public static func generate() -> (identity: String, recipient: String) {
    let key = Curve25519.KeyAgreement.PrivateKey()
    return (
      Bech32.encode(hrp: "age-secret-key-", data: Array(key.rawRepresentation)).uppercased(),
      Bech32.encode(hrp: "age", data: Array(key.publicKey.rawRepresentation))
    )
  }
}

/// The key-wrapping of age's recipient stanzas (age-encryption.org/v1).
enum AgeStanzas {
  static let x25519Label = "age-encryption.org/v1/X25519"
  static let scryptLabel = "age-encryption.org/v1/scrypt"
  static var zeroNonce: ChaChaPoly.Nonce { try! ChaChaPoly.Nonce(data: [UInt8](repeating: 0, count: 12)) }

  static func seal(_ fileKey: [UInt8], with key: SymmetricKey) throws -> [UInt8] {
    let box = try ChaChaPoly.seal(fileKey, using: key, nonce: zeroNonce)
    return Array(box.ciphertext) + Array(box.tag)
  }

  static func open(_ body: [UInt8], with key: SymmetricKey) -> [UInt8]? {
    guard body.count == 32,
      let box = try? ChaChaPoly.SealedBox(nonce: zeroNonce, ciphertext: body.prefix(16), tag: body.suffix(16)),
      let key = try? ChaChaPoly.open(box, using: key)
    else { return nil }
    return Array(key)
  }

  static func wrap(_ fileKey: [UInt8], for recipient: AgeRecipient) throws -> AgeHeader.Stanza {
    switch recipient {
    case .x25519(let raw):
      let publicKey = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: raw)
      let ephemeral = Curve25519.KeyAgreement.PrivateKey()
      let share = Array(ephemeral.publicKey.rawRepresentation)
      let shared = try ephemeral.sharedSecretFromKeyAgreement(with: publicKey)
      guard shared.withUnsafeBytes({ $0.contains { $0 != 0 } }) else {
        throw AgeError("a low-order X25519 recipient: refusing to encrypt to it")
      }
      let key = shared.hkdfDerivedSymmetricKey(
        using: SHA256.self, salt: share + Array(publicKey.rawRepresentation), sharedInfo: Array(x25519Label.utf8),
        outputByteCount: 32)
      return .init(type: "X25519", arguments: [AgeHeader.base64(share)], body: try seal(fileKey, with: key))
    case .scrypt(let passphrase, let logN):
      let salt = AgePayload.randomBytes(16)
      let key = try KDF.Scrypt.deriveKey(
        from: passphrase, salt: Array(scryptLabel.utf8) + salt, outputByteCount: 32, rounds: 1 << logN, blockSize: 8,
        parallelism: 1)
      return .init(
        type: "scrypt", arguments: [AgeHeader.base64(salt), String(logN)], body: try seal(fileKey, with: key))
    }
  }

  /// The file key, from the first stanza an identity opens; nil when none does.
  static func unwrap(_ stanzas: [AgeHeader.Stanza], with identities: [AgeIdentity]) throws -> [UInt8]? {
    let scrypts = stanzas.filter { $0.type == "scrypt" }
    if !scrypts.isEmpty && stanzas.count > 1 {
      throw AgeError("an scrypt stanza must be the file's only recipient")
    }
    for identity in identities {
      for stanza in stanzas {
        switch identity {
        case .x25519(let raw):
          guard stanza.type == "X25519" else { continue }
          let privateKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw)
          guard stanza.arguments.count == 1, let share = AgeHeader.unbase64(stanza.arguments[0]), share.count == 32,
            stanza.body.count == 32
          else { throw AgeError("a malformed X25519 stanza") }
          guard let theirs = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: share),
            let shared = try? privateKey.sharedSecretFromKeyAgreement(with: theirs),
            shared.withUnsafeBytes({ $0.contains { $0 != 0 } })
          else { throw AgeError("an X25519 stanza with a low-order share") }
          let key = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: share + Array(privateKey.publicKey.rawRepresentation),
            sharedInfo: Array(x25519Label.utf8), outputByteCount: 32)
          if let fileKey = open(stanza.body, with: key), fileKey.count == 16 { return fileKey }
        case .scrypt(let passphrase, let maxLogN):
          guard stanza.type == "scrypt" else { continue }
          guard stanza.arguments.count == 2, let salt = AgeHeader.unbase64(stanza.arguments[0]), salt.count == 16,
            let logN = Int(stanza.arguments[1]), String(logN) == stanza.arguments[1], (1...62).contains(logN),
            stanza.body.count == 32
          else { throw AgeError("a malformed scrypt stanza") }
          guard logN <= maxLogN else { throw AgeError("the scrypt work factor 2^\(logN) is over 2^\(maxLogN)") }
          let key = try ScryptKeys.derive(passphrase: passphrase, salt: Array(scryptLabel.utf8) + salt, logN: logN)
          if let fileKey = open(stanza.body, with: key), fileKey.count == 16 { return fileKey }
        }
      }
    }
    return nil
  }
}

/// scrypt keys already derived in this process. Deriving one costs about a second and 256 MiB by
/// design; `export verify` and `import` open each file more than once (checked, then loaded).
enum ScryptKeys {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var derived: [[UInt8]: SymmetricKey] = [:]

  static func derive(passphrase: [UInt8], salt: [UInt8], logN: Int) throws -> SymmetricKey {
    // Keyed by a digest, so the passphrase itself is not kept.
    let id = Array(SHA256.hash(data: passphrase + [0] + salt + [UInt8(logN)]))
    if let key = lock.withLock({ derived[id] }) { return key }
    let key = try KDF.Scrypt.deriveKey(
      from: passphrase, salt: salt, outputByteCount: 32, rounds: 1 << logN, blockSize: 8, parallelism: 1)
    lock.withLock { derived[id] = key }
    return key
  }
}
