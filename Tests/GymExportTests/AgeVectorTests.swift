import CGymZlib
import Crypto
import Foundation
import Testing

@testable import GymExport

/// age's conformance suite: the C2SP CCTV test vectors (`Tests/Vectors/cctv-age`, whose README
/// names the source, commit and licence). Each file is a header of `key: value` lines, an empty line,
/// and an age file (zlib-compressed when `compressed: zlib`). gym reads binary files to X25519 and
/// scrypt recipients: every such vector must give its expected outcome, and the plaintext released
/// before any failure must hash to its `payload`. Armored vectors must be refused as armored.
@Suite struct AgeVectorTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Vectors/cctv-age")

  struct Vector {
    var name: String
    var fields: [(String, String)] = []
    var body: [UInt8] = []

    func values(_ key: String) -> [String] { fields.filter { $0.0 == key }.map(\.1) }
    var expect: String { values("expect").first ?? "" }
    var armored: Bool { values("armored").first == "yes" }
    /// ML-KEM hybrid keys or stanzas: a recipient type gym does not implement.
    var postQuantum: Bool {
      values("identity").contains { $0.hasPrefix("AGE-SECRET-KEY-PQ-") }
        || String(decoding: body, as: UTF8.self).lowercased().contains("mlkem768x25519")
    }
  }

  static let names: [String] = {
    let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return all.filter { $0 != "README.md" }.sorted()
  }()

  static func load(_ name: String) throws -> Vector {
    let data = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
    var vector = Vector(name: name)
    var index = 0
    while let newline = data[index...].firstIndex(of: 10), newline > index {
      let line = String(decoding: data[index..<newline], as: UTF8.self)
      if let colon = line.range(of: ": ") {
        vector.fields.append((String(line[..<colon.lowerBound]), String(line[colon.upperBound...])))
      }
      index = newline + 1
    }
    let body = Array(data[(index + 1)...])
    vector.body = vector.values("compressed").first == "zlib" ? try inflate(body) : body
    return vector
  }

  /// zlib (RFC 1950), as the generator compresses bodies over 2 KiB.
  static func inflate(_ bytes: [UInt8]) throws -> [UInt8] {
    var capacity = max(bytes.count * 16, 1 << 16)
    while capacity <= 1 << 28 {
      var out = [UInt8](repeating: 0, count: capacity)
      var length = uLongf(capacity)
      let status = uncompress(&out, &length, bytes, uLong(bytes.count))
      if status == Z_OK { return Array(out.prefix(Int(length))) }
      guard status == Z_BUF_ERROR else { throw AgeError("zlib status \(status)") }
      capacity *= 4
    }
    throw AgeError("a body over 256 MiB")
  }

  static func hex(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
  }

  /// Decrypts in uneven pieces; the plaintext released and the error, if any.
  static func decrypt(_ vector: Vector) -> (plain: [UInt8], error: AgeError?) {
    var plain: [UInt8] = []
    do {
      // An armored file is refused before any key is used: those gym cannot parse (ML-KEM) are left out.
      let identities =
        try vector.values("identity").compactMap {
          vector.armored ? try? AgeIdentity(parsing: $0) : try AgeIdentity(parsing: $0)
        }
        + vector.values("passphrase").map { AgeIdentity.scrypt(passphrase: Array($0.utf8), maxLogN: 22) }
      let decryptor = AgeDecryptor(identities: identities) { plain += $0 }
      var offset = 0
      var piece = 1
      while offset < vector.body.count {
        let end = min(offset + piece, vector.body.count)
        try decryptor.write(vector.body[offset..<end])
        offset = end
        piece = piece * 5 % 70_001 + 1
      }
      try decryptor.finish()
      return (plain, nil)
    } catch let error as AgeError {
      return (plain, error)
    } catch {
      return (plain, AgeError("\(error)"))
    }
  }

  /// The suite as fetched: 143 vectors, of which 33 armored and 19 post-quantum (one both), which
  /// leaves 92 for a reader of binary files to X25519 and scrypt recipients.
  @Test func theSuiteIsWhole() throws {
    let vectors = try Self.names.map(Self.load)
    #expect(vectors.count == 143)
    #expect(vectors.filter(\.armored).count == 33)
    #expect(vectors.filter(\.postQuantum).count == 19)
    #expect(vectors.filter { !$0.armored && !$0.postQuantum }.count == 143 - 33 - 19 + 1)
  }

  @Test(arguments: names) func vector(_ name: String) throws {
    let vector = try Self.load(name)
    if vector.postQuantum && !vector.armored { return }  // no ML-KEM in gym: counted in theSuiteIsWhole
    let (plain, error) = Self.decrypt(vector)
    if vector.armored {
      // Refused, releasing nothing; a well-formed armored file is named as one.
      #expect(error != nil && plain.isEmpty, "\(name): \(plain.count) bytes released")
      if vector.expect == "success" {
        #expect(error?.description.contains("armored age file") == true, "\(name): \(error?.description ?? "read")")
      }
      return
    }
    let stage: AgeError.Stage? =
      switch vector.expect {
      case "success": nil
      case "header failure": .header
      case "no match": .noMatch
      case "HMAC failure": .mac
      case "payload failure": .payload
      default: .other
      }
    #expect(error?.stage == stage, "\(name): expected \(vector.expect), got \(error?.description ?? "success")")
    if let payload = vector.values("payload").first {
      #expect(Self.hex(plain) == payload, "\(name): \(plain.count) bytes released")
    } else {
      #expect(plain.isEmpty, "\(name): \(plain.count) bytes released before a header failure")
    }
  }
}
