extension Cell {
  /// The value as a table shows it: one line, local time, and no control character reaching the
  /// terminal. Line breaks and tabs become spaces; NUL, escape and the other controls are shown as
  /// `\x00`, `\x1B`…, so imported text can neither hide itself nor drive the terminal.
  public var displayText: String {
    let text = plainText(localTime: true)
    guard text.utf8.contains(where: { $0 < 32 || $0 == 127 }) else { return text }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 8)
    let hex: (UInt8) -> UInt8 = { $0 < 10 ? 48 + $0 : 55 + $0 }
    for byte in text.utf8 {
      switch byte {
      case 9, 10, 13: bytes.append(32)
      case 0..<32, 127: bytes.append(contentsOf: [92, 120, hex(byte >> 4), hex(byte & 15)])
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
