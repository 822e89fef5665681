extension Cell {
  /// The value as a table shows it: one line, local time, and no control character reaching the
  /// terminal. Line breaks and tabs become spaces; NUL, escape and the other controls are shown as
  /// `\x00`, `\x1B`…, and the C1 range (U+0080–U+009F, whose CSI U+009B starts escape sequences
  /// too) as `\u{9B}`, so imported text can neither hide itself nor drive the terminal.
  public var displayText: String { Self.lineForTerminal(plainText(localTime: true)) }

  /// `text` as one line of a table or a summary: see `displayText`.
  public static func lineForTerminal(_ text: String) -> String {
    // 0xC2 leads every C1 control in UTF-8 (C2 80 to C2 9F), and other Latin-1 letters, checked below.
    guard text.utf8.contains(where: { $0 < 32 || $0 == 127 || $0 == 0xC2 }) else { return text }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 8)
    let hex: (UInt8) -> UInt8 = { $0 < 10 ? 48 + $0 : 55 + $0 }
    let utf8 = Array(text.utf8)
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      index += 1
      switch byte {
      case 9, 10, 13: bytes.append(32)
      case 0..<32, 127: bytes.append(contentsOf: [92, 120, hex(byte >> 4), hex(byte & 15)])
      case 0xC2 where index < utf8.count && (0x80...0x9F).contains(utf8[index]):
        let code = utf8[index]  // U+0080 + (code − 0x80): the second byte is the scalar's value
        bytes.append(contentsOf: Array("\\u{".utf8) + [hex(code >> 4), hex(code & 15), UInt8(ascii: "}")])
        index += 1
      default: bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension String {
  /// No line gym prints ends in spaces (an empty last value would leave its padding).
  public var withoutTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}

extension String {
  /// A line for stderr as data: line breaks and tabs kept, every other control (C0, DEL and the C1
  /// range, whose CSI starts escape sequences too) shown as `\x1B` or `\u{9B}`, so a name read from a
  /// file or the database can neither hide itself nor drive the terminal.
  public var inertOnTerminal: String {
    guard unicodeScalars.contains(where: Self.isTerminalControl) else { return self }
    var text = ""
    for scalar in unicodeScalars {
      guard Self.isTerminalControl(scalar) else {
        text.unicodeScalars.append(scalar)
        continue
      }
      let hex = String(scalar.value, radix: 16, uppercase: true)
      text += scalar.value < 128 ? "\\x" + (hex.count == 1 ? "0" + hex : hex) : "\\u{" + hex + "}"
    }
    return text
  }

  static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 32 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
  }
}
