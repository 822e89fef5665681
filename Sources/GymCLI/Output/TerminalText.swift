extension Cell {
  /// The value as a table shows it: one line, local time, and no control character reaching the
  /// terminal. Line breaks and tabs become spaces; NUL, escape and the other controls are shown as
  /// `\x00`, `\x1B`…, the C1 range (U+0080–U+009F, whose CSI U+009B starts escape sequences too)
  /// as `\u{9B}`, and the bidirectional overrides as `\u{202E}`, so imported text can neither hide
  /// itself, nor drive the terminal, nor reorder the cells after it.
  public var displayText: String { Self.lineForTerminal(plainText(localTime: true)) }

  /// `text` as one line of a table or a summary: see `displayText`.
  public static func lineForTerminal(_ text: String) -> String {
    guard String.holdsTerminalControl(text.utf8) else { return text }
    return text.escapingTerminalControls(lineBreaksAsSpaces: true)
  }
}

extension String {
  /// Whether a table line must go through `escapingTerminalControls`: a scalar `isTerminalControl`
  /// escapes, or a tab or line feed it makes a space, found in the UTF-8 without making the scalars:
  /// C0 and DEL, C1 (C2 80 to C2 9F), the embeddings and overrides (E2 80 AA to E2 80 AE) and the
  /// isolates (E2 81 A6 to E2 81 A9). Only those, so a cell with an en dash (E2 80 93) or an
  /// ellipsis keeps the fast path: in `history list` of 100,000 rows with one in each, the check and
  /// the escaping took 8.2% of the samples when every E2 went through the scalar loop, the check 1.1%
  /// now (Docs/PerformanceNotes.md).
  static func holdsTerminalControl(_ utf8: String.UTF8View) -> Bool {
    func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      var i = 0
      while i < bytes.count {
        let byte = bytes[i]
        if byte < 32 || byte == 127 { return true }
        if byte == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) { return true }
        if byte == 0xE2, i + 2 < bytes.count {
          let (second, third) = (bytes[i + 1], bytes[i + 2])
          if second == 0x80 && (0xAA...0xAE).contains(third) { return true }
          if second == 0x81 && (0xA6...0xA9).contains(third) { return true }
        }
        i += 1
      }
      return false
    }
    return utf8.withContiguousStorageIfAvailable(scan) ?? Array(utf8).withUnsafeBufferPointer(scan)
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
  /// range, whose CSI starts escape sequences too) and every bidirectional override shown as `\x1B`,
  /// `\u{9B}` or `\u{202E}`, so a name read from a file or the database can neither hide itself,
  /// nor drive the terminal, nor reorder the rest of the line.
  public var inertOnTerminal: String {
    guard unicodeScalars.contains(where: Self.isTerminalControl) else { return self }
    return escapingTerminalControls(lineBreaksAsSpaces: false)
  }

  /// Every control shown as `shown` writes it; tabs and line breaks (and carriage returns) made
  /// spaces when `lineBreaksAsSpaces`, else kept.
  func escapingTerminalControls(lineBreaksAsSpaces: Bool) -> String {
    var text = ""
    text.unicodeScalars.reserveCapacity(unicodeScalars.count + 8)
    for scalar in unicodeScalars {
      if lineBreaksAsSpaces && (scalar == "\t" || scalar == "\n" || scalar == "\r") {
        text.unicodeScalars.append(" ")
      } else if Self.isTerminalControl(scalar) {
        text += Self.shown(scalar)
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    return text
  }

  /// A note as one line that says what it quotes: a tab, a line break or a line or paragraph
  /// separator in a name is shown as `\x09`, `\x0A`, `\u{2028}` (a space would name another file),
  /// and every other control as `inertOnTerminal` shows it.
  static func noteLine(_ line: String) -> String {
    let breaks: (Unicode.Scalar) -> Bool = {
      $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}"
    }
    guard line.unicodeScalars.contains(where: breaks) else { return line.inertOnTerminal }
    var text = ""
    for scalar in line.unicodeScalars {
      if breaks(scalar) { text += shown(scalar) } else { text.unicodeScalars.append(scalar) }
    }
    return text.inertOnTerminal
  }

  /// A scalar no terminal should be handed from data: a control other than a line break or a tab,
  /// or a bidirectional formatting character.
  package static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 32 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
      || isBidirectionalFormatting(scalar)
  }

  /// The embeddings and overrides (U+202A–U+202E) and the isolates (U+2066–U+2069) of Unicode's
  /// bidirectional algorithm: one in a value reorders what follows it on the line, the next
  /// columns included, so `exe.txt` can read as `txt.exe`. The marks (U+200E, U+200F, U+061C)
  /// reach no further than their neighbours and stay: right-to-left text uses them.
  package static func isBidirectionalFormatting(_ scalar: Unicode.Scalar) -> Bool {
    (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }

  /// A scalar as the terminal is shown it: `\x1B` below 128, `\u{9B}` above.
  package static func shown(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return scalar.value < 128 ? "\\x" + (hex.count == 1 ? "0" + hex : hex) : "\\u{" + hex + "}"
  }
}
