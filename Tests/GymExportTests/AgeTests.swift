import Crypto
import Foundation
import GymCore
import Testing

@testable import GymExport

/// age-encryption.org/v1 as gym writes and reads it, checked against the `age` tool (the Debian
/// package `age`, which scripts/setup.sh installs) both ways, and against damage of every kind.
@Suite struct AgeTests {
  /// The identity of age's test vectors, the scalar 0x42 × 32, and its recipient as `age-keygen -y`
  /// prints it.
  static let identity = "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX"
  static let recipient = "age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj"

  func encrypt(_ plain: [UInt8], to recipients: [AgeRecipient]) throws -> [UInt8] {
    var out: [UInt8] = []
    let encryptor = try AgeEncryptor(recipients: recipients) { out += $0 }
    // In uneven pieces, as a writer hands them over.
    var offset = 0
    var piece = 1
    while offset < plain.count {
      let end = min(offset + piece, plain.count)
      try encryptor.write(plain[offset..<end])
      offset = end
      piece = piece * 7 % 100_003 + 1
    }
    try encryptor.finish()
    return out
  }

  func decrypt(_ file: [UInt8], with identities: [AgeIdentity], pieces: Int = 9_000) throws -> [UInt8] {
    var out: [UInt8] = []
    let decryptor = AgeDecryptor(identities: identities) { out += $0 }
    var offset = 0
    while offset < file.count {
      let end = min(offset + pieces, file.count)
      try decryptor.write(file[offset..<end])
      offset = end
    }
    try decryptor.finish()
    return out
  }

  static func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

  /// Every X25519 point of small order, as libsodium lists them (little-endian u): 0, 1, the two
  /// points of order 8, and p − 1, p, p + 1 (p = 2^255 − 19, reduced mod p by X25519). Encrypting to
  /// one would give an all-zero shared secret, so a file key anyone can unwrap: all are refused, and
  /// the same with the unused top bit set.
  @Test func lowOrderRecipientsAreRefused() throws {
    let p = "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"
    let points = [
      String(repeating: "0", count: 64), "01" + String(repeating: "0", count: 62),
      "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
      "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
      "ec" + p.dropFirst(2), p, "ee" + p.dropFirst(2),
    ]
    for hex in points {
      var bytes = stride(from: 0, to: 64, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
      for topBit in [false, true] {
        if topBit { bytes[31] |= 0x80 }
        let text = Bech32.encode(hrp: "age", data: bytes)
        #expect(throws: AgeError.self, "\(hex) top bit \(topBit)") { try AgeRecipient(parsing: text) }
      }
    }
    // A recipients file naming one is refused by its line; one of only comments holds no key.
    let zero = Bech32.encode(hrp: "age", data: [UInt8](repeating: 0, count: 32))
    #expect { try AgeRecipient.file("\(Self.recipient)\n# next\n\(zero)\n") } throws: {
      ($0 as? AgeError)?.description.hasPrefix("line 3: a low-order X25519 key") == true
    }
    #expect(throws: AgeError.self) { try AgeRecipient.file("# nothing\n\n") }
    #expect(throws: AgeError.self) { try AgeRecipient.file("") }
    #expect { try AgeRecipient.file(Self.identity) } throws: {
      !($0 as? AgeError)!.description.contains("AGE-SECRET-KEY")
    }
  }

  @Test func keysDecodeAsAgeKeygenWritesThem() throws {
    guard case .x25519(let key) = try AgeIdentity(parsing: Self.identity) else {
      Issue.record("not X25519")
      return
    }
    #expect(key == [UInt8](repeating: 0x42, count: 32))
    #expect(try AgeRecipient(parsing: Self.recipient).string == Self.recipient)
    let publicKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: key).publicKey
    #expect(Bech32.encode(hrp: "age", data: Array(publicKey.rawRepresentation)) == Self.recipient)
    // One changed character breaks the checksum.
    #expect(throws: AgeError.self) { try AgeRecipient(parsing: String(Self.recipient.dropLast()) + "k") }
    let (identity, recipient) = AgeIdentity.generate()
    #expect(identity.hasPrefix("AGE-SECRET-KEY-1") && recipient.hasPrefix("age1"))
    #expect(try AgeRecipient.file("# created: now\n\(recipient)\n\n").count == 1)
  }

  /// Sizes around the 64 KiB chunk: empty, one byte, a chunk less one, one chunk, one more, several.
  @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 200_000])
  func roundTrip(size: Int) throws {
    let plain = Self.random(size)
    let file = try encrypt(plain, to: [try AgeRecipient(parsing: Self.recipient)])
    // Header, nonce, then ⌈size / 64 KiB⌉ chunks (at least one) of 16 more bytes each.
    let chunks = max(1, (size + 65_535) / 65_536)
    let headerEnd = try #require(try AgeHeader.parse(file[...])).end
    #expect(file.count == headerEnd + 16 + size + 16 * chunks)
    #expect(try decrypt(file, with: [try AgeIdentity(parsing: Self.identity)]) == plain)
  }

  @Test func aPassphraseWorksAlone() throws {
    let plain = Self.random(70_000)
    let passphrase = Array("correct horse battery staple".utf8)
    let file = try encrypt(plain, to: [.scrypt(passphrase: passphrase, logN: 10)])
    #expect(String(decoding: file.prefix(40), as: UTF8.self).contains("\n-> scrypt "))
    #expect(try decrypt(file, with: [.scrypt(passphrase: passphrase, maxLogN: 22)]) == plain)
    #expect(throws: AgeError.self) { try decrypt(file, with: [.scrypt(passphrase: Array("wrong".utf8), maxLogN: 22)]) }
    // A file asking for more work than allowed is refused before any is done.
    #expect {
      try decrypt(file, with: [.scrypt(passphrase: passphrase, maxLogN: 9)])
    } throws: { ($0 as? AgeError)?.description == "the scrypt work factor 2^10 is over 2^9" }
    #expect(throws: AgeError.self) {
      try encrypt(plain, to: [.scrypt(passphrase: passphrase, logN: 10), try AgeRecipient(parsing: Self.recipient)])
    }
  }

  @Test func damageIsRefused() throws {
    let plain = Self.random(150_000)
    let file = try encrypt(plain, to: [try AgeRecipient(parsing: Self.recipient)])
    let identity = try AgeIdentity(parsing: Self.identity)
    let headerEnd = try #require(try AgeHeader.parse(file[...])).end
    func refused(_ damaged: [UInt8], _ identities: [AgeIdentity]? = nil) -> Bool {
      (try? decrypt(damaged, with: identities ?? [identity])) == nil
    }
    #expect(refused(file, [.x25519(Array(Curve25519.KeyAgreement.PrivateKey().rawRepresentation))]))  // another key
    var flipped = file
    flipped[headerEnd + 16 + 70_000] ^= 1  // a byte of the second chunk
    #expect(refused(flipped))
    var header = file
    header[30] ^= 1  // inside the stanza
    #expect(refused(header))
    #expect(refused(Array(file.dropLast(1))))  // truncated in the last chunk
    #expect(refused(Array(file.prefix(headerEnd + 16 + 65_552))))  // cut at a chunk's end: no last chunk
    #expect(refused(file + [0]))  // a byte too many
    #expect(refused(Array(file.prefix(headerEnd - 5))))  // inside the header
  }

  /// The `age` binary decrypts what gym encrypts, and gym decrypts what it encrypts.
  @Test func interoperatesWithTheAgeTool() throws {
    let age = try #require(
      ["/usr/bin/age", "/usr/local/bin/age"].first { FileManager.default.isExecutableFile(atPath: $0) },
      "the age tool is needed: run scripts/setup.sh as root, or apt-get install age")
    let directory = NSTemporaryDirectory() + "gym-age-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try (Self.identity + "\n").write(toFile: directory + "/key.txt", atomically: true, encoding: .utf8)
    func run(_ arguments: [String]) throws -> Int32 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: age)
      process.arguments = arguments
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus
    }
    let plain = Self.random(140_000)
    // gym → age -d
    let ours = try encrypt(plain, to: [try AgeRecipient(parsing: Self.recipient)])
    try Data(ours).write(to: URL(fileURLWithPath: directory + "/ours.age"))
    #expect(try run(["-d", "-i", directory + "/key.txt", "-o", directory + "/ours.out", directory + "/ours.age"]) == 0)
    #expect(try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/ours.out"))) == plain)
    // age -e → gym
    try Data(plain).write(to: URL(fileURLWithPath: directory + "/plain"))
    #expect(try run(["-e", "-r", Self.recipient, "-o", directory + "/theirs.age", directory + "/plain"]) == 0)
    let theirs = try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/theirs.age")))
    #expect(try decrypt(theirs, with: try AgeIdentity.file("# a comment\n" + Self.identity + "\n")) == plain)
    // Several recipients, the one we hold among them.
    let (_, other) = AgeIdentity.generate()
    #expect(
      try run(["-e", "-r", other, "-r", Self.recipient, "-o", directory + "/two.age", directory + "/plain"]) == 0)
    let two = try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/two.age")))
    #expect(try decrypt(two, with: [try AgeIdentity(parsing: Self.identity)]) == plain)
  }
}

extension AgeTests {
  /// gzip inside age, read on demand as an encrypted export will be: the text comes back whole; a
  /// file cut short is an error, never a shorter text.
  @Test func gzipInsideAgeReadsOnDemand() throws {
    let text = Array((0..<20_000).map { "line \($0): \($0 * 7919 % 1000)\n" }.joined().utf8)
    var compressed: [UInt8] = []
    let gzip = try GzipWriter(level: 6) { bytes throws(CompressionError) in compressed += bytes }
    try gzip.write(text)
    try gzip.finish()
    let file = try encrypt(compressed, to: [try AgeRecipient(parsing: Self.recipient)])
    func read(_ ciphertext: [UInt8]) throws -> [UInt8] {
      var position = 0
      let age = AgeReader(identities: [try AgeIdentity(parsing: Self.identity)]) { buffer in
        let count = min(buffer.count, ciphertext.count - position, 5_000)
        ciphertext.withUnsafeBytes {
          buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: count)
        }
        position += count
        return count
      }
      let reader = try GzipReader { buffer throws(CompressionError) in
        do { return try age.read(into: buffer) } catch { throw CompressionError("\(error)") }
      }
      var out: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 3_000)
      while true {
        let count = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
        if count == 0 { break }
        out += chunk.prefix(count)
      }
      return out
    }
    #expect(try read(file) == text)
    #expect(throws: CompressionError.self) { try read(Array(file.dropLast(100))) }
  }
}
