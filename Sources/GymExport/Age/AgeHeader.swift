import Crypto
import Foundation

/// An age header (age-encryption.org/v1): the version line, one stanza per recipient (the file key
/// wrapped for it), and an HMAC of all of it under a key derived from the file key.
struct AgeHeader {
  struct Stanza: Equatable {
    var type: String
    var arguments: [String]
    var body: [UInt8]
  }

  static let version = "age-encryption.org/v1"
  var stanzas: [Stanza]

  /// Standard base64 without padding, as age writes it.
  static func base64(_ bytes: [UInt8]) -> String {
    var text = Data(bytes).base64EncodedString()
    while text.hasSuffix("=") { text.removeLast() }
    return text
  }

  /// Unpadded base64, refused unless canonical (age rejects any other spelling of the same bytes).
  static func unbase64(_ text: String) -> [UInt8]? {
    guard !text.contains("="), text.utf8.allSatisfy({ $0 != 10 && $0 != 13 }) else { return nil }
    let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
    guard let data = Data(base64Encoded: padded), base64(Array(data)) == text else { return nil }
    return Array(data)
  }

  /// The header's bytes up to and including `---`: what the MAC covers.
  var macInput: [UInt8] {
    var text = Self.version + "\n"
    for stanza in stanzas {
      text += (["->", stanza.type] + stanza.arguments).joined(separator: " ") + "\n"
      let encoded = Array(Self.base64(stanza.body).utf8)
      // Lines of 64 columns; the last one shorter (empty when the body fills whole lines).
      var offset = 0
      repeat {
        let end = min(offset + 64, encoded.count)
        text += String(decoding: encoded[offset..<end], as: UTF8.self) + "\n"
        offset += 64
      } while offset <= encoded.count
    }
    return Array((text + "---").utf8)
  }

  static func macKey(_ fileKey: [UInt8]) -> SymmetricKey {
    HKDF<SHA256>.deriveKey(
      inputKeyMaterial: SymmetricKey(data: fileKey), salt: [UInt8](), info: Array("header".utf8), outputByteCount: 32)
  }

  func encoded(fileKey: [UInt8]) -> [UInt8] {
    let input = macInput
    let mac = HMAC<SHA256>.authenticationCode(for: input, using: Self.macKey(fileKey))
    return input + Array((" " + Self.base64(Array(mac)) + "\n").utf8)
  }

  /// Parses a header from the start of `bytes`: the header, the bytes its MAC covers (as they came),
  /// the MAC, and where the payload begins; nil while more bytes are needed. Throws on anything malformed.
  static func parse(_ bytes: ArraySlice<UInt8>, limit: Int = 1 << 20) throws
    -> (header: AgeHeader, macInput: ArraySlice<UInt8>, mac: [UInt8], end: Int)?
  {
    var index = bytes.startIndex
    var stanzas: [Stanza] = []
    // age's ASCII armor (`age -a`), perhaps after blank lines: named, not read.
    let armor = Array("-----BEGIN AGE ENCRYPTED FILE-----".utf8)
    let text = bytes.drop { [9, 10, 13, 32].contains($0) }
    if text.starts(with: armor.prefix(text.count)) && bytes.count <= limit {
      guard text.count >= armor.count else { return nil }
      throw AgeError("an armored age file (age -a); gym reads binary age files: decode it with 'age -d' first")
    }
    func line() -> String? {
      guard let newline = bytes[index...].firstIndex(of: 10) else { return nil }
      defer { index = newline + 1 }
      return String(decoding: bytes[index..<newline], as: UTF8.self)
    }
    guard let first = line() else {
      if bytes.count > limit { throw AgeError("no age header in the first MiB") }
      return nil
    }
    guard first == version else { throw AgeError("not an age file (it starts '\(first.prefix(40))')") }
    while true {
      let lineStart = index
      guard let text = line() else {
        if bytes.count > limit { throw AgeError("an age header over 1 MiB") }
        return nil
      }
      if text.hasPrefix("--- ") {
        guard let mac = unbase64(String(text.dropFirst(4))), mac.count == 32 else {
          throw AgeError("a malformed header MAC")
        }
        return (AgeHeader(stanzas: stanzas), bytes[bytes.startIndex..<(lineStart + 3)], mac, index - bytes.startIndex)
      }
      guard text.hasPrefix("-> ") else { throw AgeError("a malformed age header line") }
      let parts = text.dropFirst(3).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      // The type and each argument: one or more printable ASCII characters (VCHAR in age's grammar).
      guard let type = parts.first,
        parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (33...126).contains($0) } })
      else { throw AgeError("a malformed stanza") }
      var body = ""
      while true {
        guard let bodyLine = line() else {
          if bytes.count > limit { throw AgeError("an age header over 1 MiB") }
          return nil
        }
        guard bodyLine.count <= 64 else { throw AgeError("a stanza line over 64 columns") }
        body += bodyLine
        if bodyLine.count < 64 { break }
      }
      guard let decoded = body.isEmpty ? [] : unbase64(body) else { throw AgeError("a stanza body not in base64") }
      stanzas.append(Stanza(type: type, arguments: Array(parts.dropFirst()), body: decoded))
    }
  }
}
