#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The references an XML attribute value may hold: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`
/// and `&#…;` / `&#x…;`; any other entity is refused, never expanded. Checked when a tag is read
/// (so a bad one is an error with its line), decoded when a value is asked for. Read through
/// pointers: most records of an Apple Health export hold some (`&lt;&lt;HKDevice: …&gt;`,
/// `Jane&apos;s iPhone`).
enum XMLReferences {
  enum Reference {
    case success(Unicode.Scalar, next: Int)
    case failure(String)
  }

  static func has(in raw: UnsafeBufferPointer<UInt8>) -> Bool { firstAmpersand(in: raw, from: 0) != nil }

  private static func firstAmpersand(in raw: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard start < raw.count, let base = raw.baseAddress,
      let found = memchr(base + start, Int32(UInt8(ascii: "&")), raw.count - start)
    else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }

  /// Why the references in `raw` cannot be decoded; nil when they can. Makes nothing.
  static func problem(in raw: UnsafeBufferPointer<UInt8>) -> String? {
    var i = 0
    while let ampersand = firstAmpersand(in: raw, from: i) {
      switch reference(in: raw, at: ampersand) {
      case .failure(let message): return message
      case .success(_, let next): i = next
      }
    }
    return nil
  }

  /// Decodes `raw` into `out`, which holds at least `raw.count` bytes (no reference is shorter than
  /// the UTF-8 of the character it stands for); the count written, or nil when a reference cannot be
  /// decoded.
  static func decode(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
    precondition(out.count >= raw.count)
    var written = 0
    var i = 0
    while i < raw.count {
      let ampersand = firstAmpersand(in: raw, from: i) ?? raw.count
      for byte in raw[i..<ampersand] {
        out[written] = byte
        written += 1
      }
      guard ampersand < raw.count else { break }
      switch reference(in: raw, at: ampersand) {
      case .failure: return nil
      case .success(let scalar, let next):
        UTF8.encode(scalar) { byte in
          out[written] = byte
          written += 1
        }
        i = next
      }
    }
    return written
  }

  /// The character the reference at `start` (an `&`) stands for, and where the text after it starts.
  static func reference(in raw: UnsafeBufferPointer<UInt8>, at start: Int) -> Reference {
    // Its `;` within 13 bytes of the `&`: `&#x10FFFF;`, the longest without padding zeros, takes 10.
    guard let semicolon = raw[start..<min(raw.count, start + 13)].firstIndex(of: UInt8(ascii: ";")) else {
      return .failure("'&' without a reference (write &amp;)")
    }
    let name = UnsafeBufferPointer(rebasing: raw[(start + 1)..<semicolon])
    func named(_ text: StaticString) -> Bool { ByteRuns.equal(name, text) }
    let scalar: Unicode.Scalar?
    if name.isEmpty {
      scalar = nil
    } else if named("lt") {
      scalar = "<"
    } else if named("gt") {
      scalar = ">"
    } else if named("amp") {
      scalar = "&"
    } else if named("apos") {
      scalar = "'"
    } else if named("quot") {
      scalar = "\""
    } else if name[0] == UInt8(ascii: "#") {
      let isHex = name.count > 1 && name[1] == UInt8(ascii: "x")
      let digits = name.dropFirst(isHex ? 2 : 1)
      var code: UInt32 = 0
      var valid = !digits.isEmpty
      for byte in digits where valid {
        let digit: UInt32? =
          switch byte {
          case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
          case UInt8(ascii: "a")...UInt8(ascii: "f") where isHex: UInt32(byte - UInt8(ascii: "a") + 10)
          case UInt8(ascii: "A")...UInt8(ascii: "F") where isHex: UInt32(byte - UInt8(ascii: "A") + 10)
          default: nil
          }
        // Past the last code point the value stops growing: nothing that long is a character.
        if let digit, code <= 0x10FFFF { code = code * (isHex ? 16 : 10) + digit } else { valid = false }
      }
      // XML 1.0's Char: a reference to any other code point (`&#0;`, `&#xFFFE;`) is not a character.
      guard valid,
        code == 0x9 || code == 0xA || code == 0xD || (0x20...0xD7FF).contains(code)
          || (0xE000...0xFFFD).contains(code) || (0x10000...0x10FFFF).contains(code),
        let character = Unicode.Scalar(code)
      else {
        return .failure("'&\(String(decoding: name, as: UTF8.self));' is not a character XML allows")
      }
      scalar = character
    } else {
      scalar = nil
    }
    guard let scalar else {
      let entity = String(decoding: name, as: UTF8.self)
      return .failure("the entity '&\(entity);' is not expanded (only the predefined XML entities are)")
    }
    return .success(scalar, next: semicolon + 1)
  }
}
