import Crypto
import Foundation

/// age's payload (age-encryption.org/v1): a 16-byte nonce, then the plaintext in chunks of 64 KiB,
/// each sealed with ChaCha20-Poly1305 under a key derived from the file key and that nonce, the
/// chunk's number and a last-chunk flag in its nonce. Memory is one chunk, however long the file.
enum AgePayload {
  static let chunkSize = 64 * 1024
  static let tagSize = 16

  static func key(fileKey: [UInt8], nonce: [UInt8]) -> SymmetricKey {
    HKDF<SHA256>.deriveKey(
      inputKeyMaterial: SymmetricKey(data: fileKey), salt: nonce, info: Array("payload".utf8), outputByteCount: 32)
  }

  /// The chunk's nonce: an 11-byte big-endian counter, then 1 for the last chunk, else 0.
  static func nonce(_ counter: UInt64, last: Bool) -> ChaChaPoly.Nonce {
    var bytes = [UInt8](repeating: 0, count: 12)
    for i in 0..<8 { bytes[3 + i] = UInt8(truncatingIfNeeded: counter >> (8 * (7 - i))) }
    bytes[11] = last ? 1 : 0
    return try! ChaChaPoly.Nonce(data: bytes)
  }

  static func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
  }
}

/// Encrypts to age recipients as bytes are written: the header and nonce first, then each chunk once
/// the next byte shows it is not the last. `sink` receives the file's bytes in order.
public final class AgeEncryptor {
  let sink: ([UInt8]) throws -> Void
  let key: SymmetricKey
  var buffer: [UInt8] = []
  var counter: UInt64 = 0

  public init(recipients: [AgeRecipient], sink: @escaping ([UInt8]) throws -> Void) throws {
    guard !recipients.isEmpty else { throw AgeError("no recipient to encrypt to") }
    if recipients.count > 1, recipients.contains(where: { if case .scrypt = $0 { true } else { false } }) {
      throw AgeError("a passphrase cannot be combined with other recipients")
    }
    let fileKey = AgePayload.randomBytes(16)
    let header = AgeHeader(stanzas: try recipients.map { try AgeStanzas.wrap(fileKey, for: $0) })
    let nonce = AgePayload.randomBytes(16)
    self.sink = sink
    key = AgePayload.key(fileKey: fileKey, nonce: nonce)
    buffer.reserveCapacity(AgePayload.chunkSize)
    try sink(header.encoded(fileKey: fileKey) + nonce)
  }

  public func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws {
    var rest = bytes[...]
    while !rest.isEmpty {
      if buffer.count == AgePayload.chunkSize { try seal(last: false) }
      let take = min(AgePayload.chunkSize - buffer.count, rest.count)
      buffer.append(contentsOf: rest.prefix(take))
      rest = rest.dropFirst(take)
    }
  }

  /// Seals what is left as the last chunk (empty only when nothing was written).
  public func finish() throws { try seal(last: true) }

  func seal(last: Bool) throws {
    let box = try ChaChaPoly.seal(buffer, using: key, nonce: AgePayload.nonce(counter, last: last))
    try sink(Array(box.ciphertext) + Array(box.tag))
    buffer.removeAll(keepingCapacity: true)
    counter += 1
  }
}

/// Decrypts an age file fed in pieces: the header is checked (a stanza one identity opens, then its
/// MAC), then each chunk is opened and handed to `sink` as soon as a following byte shows it is not
/// the last. A wrong key, a changed byte, a truncated or extended file throws.
public final class AgeDecryptor {
  let identities: [AgeIdentity]
  let sink: ([UInt8]) throws -> Void
  var pending: [UInt8] = []
  var key: SymmetricKey?
  var counter: UInt64 = 0
  var nonceNeeded = true
  var fileKey: [UInt8] = []

  public init(identities: [AgeIdentity], sink: @escaping ([UInt8]) throws -> Void) {
    self.identities = identities
    self.sink = sink
  }

  public func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws {
    pending.append(contentsOf: bytes)
    if key == nil && fileKey.isEmpty {
      let parsed: (header: AgeHeader, macInput: ArraySlice<UInt8>, mac: [UInt8], end: Int)?
      let unwrapped: [UInt8]?
      do {
        parsed = try AgeHeader.parse(pending[...])
        unwrapped = try parsed.flatMap { try AgeStanzas.unwrap($0.header.stanzas, with: identities) }
      } catch let error as AgeError {
        throw AgeError(error.description, stage: .header)
      }
      guard let (_, macInput, mac, end) = parsed else { return }
      guard let opened = unwrapped else {
        throw AgeError("no identity given opens this file (a wrong key or passphrase)", stage: .noMatch)
      }
      // swift-crypto compares the codes in constant time.
      guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: macInput, using: AgeHeader.macKey(opened))
      else { throw AgeError("the header's MAC does not match: the header was changed", stage: .mac) }
      fileKey = opened
      pending.removeFirst(end)
    }
    if nonceNeeded {
      guard pending.count >= 16 else { return }
      key = AgePayload.key(fileKey: fileKey, nonce: Array(pending.prefix(16)))
      pending.removeFirst(16)
      nonceNeeded = false
    }
    let sealed = AgePayload.chunkSize + AgePayload.tagSize
    // A full chunk that opens as not the last is released at once, as age's reference does; one
    // that does not may still be a full last chunk, which only the end of the file shows.
    var offset = 0
    while pending.count - offset >= sealed {
      let chunk = pending[offset..<(offset + sealed)]
      if try open(chunk, last: false, orNil: true) == nil {
        if pending.count - offset == sealed { break }
        // More follows a chunk that opens only as the last: released, as the reference does, then refused.
        _ = try open(chunk, last: true, orNil: false)
        throw AgeError("data follows the file's last chunk: the file was changed", stage: .payload)
      }
      offset += sealed
    }
    if offset > 0 { pending.removeFirst(offset) }
  }

  /// The end of the file: what is left must be exactly the last chunk.
  public func finish() throws {
    guard !fileKey.isEmpty else { throw AgeError("the file ends inside its header", stage: .header) }
    guard !nonceNeeded else { throw AgeError("the file ends before its payload's nonce", stage: .header) }
    guard pending.count >= AgePayload.tagSize else { throw AgeError("the file is truncated", stage: .payload) }
    guard pending.count > AgePayload.tagSize || counter == 0 else {
      throw AgeError("the file ends with an empty chunk after data", stage: .payload)
    }
    _ = try open(pending[...], last: true, orNil: false)
    pending.removeAll()
  }

  /// Opens one chunk and hands its plaintext on; nil instead of an error when `orNil` and it does not open.
  func open(_ chunk: ArraySlice<UInt8>, last: Bool, orNil: Bool) throws -> Void? {
    guard let key else { throw AgeError("the file is truncated", stage: .payload) }
    guard
      let box = try? ChaChaPoly.SealedBox(
        nonce: AgePayload.nonce(counter, last: last), ciphertext: chunk.dropLast(AgePayload.tagSize),
        tag: chunk.suffix(AgePayload.tagSize)),
      let plain = try? ChaChaPoly.open(box, using: key)
    else {
      if orNil { return nil }
      throw AgeError(
        last ? "the last chunk does not open: the file was truncated or changed" : "chunk \(counter) was changed",
        stage: .payload)
    }
    counter += 1
    try sink(Array(plain))
    return ()
  }
}

/// An age file read on demand: each call decrypts as much as it needs from `source` (ciphertext, 0 at
/// its end) and fills the buffer with plaintext; 0 at the end of a file whose last chunk opened.
/// What `GzipReader(source:)` and `InputBuffer(source:)` pull from, for an encrypted export.
public final class AgeReader {
  let source: (UnsafeMutableRawBufferPointer) throws -> Int
  var decryptor: AgeDecryptor!
  var plain: [UInt8] = []
  var offset = 0
  var finished = false

  public init(identities: [AgeIdentity], source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
    self.source = source
    decryptor = AgeDecryptor(identities: identities) { [unowned self] in self.plain.append(contentsOf: $0) }
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while offset == plain.count && !finished {
      plain.removeAll(keepingCapacity: true)
      offset = 0
      let count = try chunk.withUnsafeMutableBytes { try source($0) }
      if count == 0 {
        try decryptor.finish()
        finished = true
      } else {
        try decryptor.write(chunk.prefix(count))
      }
    }
    let take = min(buffer.count, plain.count - offset)
    guard take > 0 else { return 0 }
    plain.withUnsafeBytes { bytes in
      buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: take)
    }
    offset += take
    return take
  }
}
