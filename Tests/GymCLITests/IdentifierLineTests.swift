import Testing

@testable import GymCLI

/// `--ids` writes each identifier as `show`, `set` and `remove` take it back.
@Suite struct IdentifierLineTests {
  func line(_ identifier: String, toTerminal: Bool) -> String {
    var bytes: [UInt8] = []
    IdentifierLine(toTerminal: toTerminal).append(identifier, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func aBackslashIsWrittenAsStored() {
    // `a\x:y` read back by `show` must be `a\x:y`, not TSV's `a\\x:y`.
    #expect(line("a\\x:y", toTerminal: false) == "a\\x:y\n")
    #expect(line("a\\x:y", toTerminal: true) == "a\\x:y\n")
  }

  @Test func controlsAreShownEscapedOnlyToATerminal() {
    // ESC [31m and U+202E: raw into a pipe (the name as stored), shown escaped on a terminal.
    #expect(line("x\u{1B}[31m\u{202E}", toTerminal: false) == "x\u{1B}[31m\u{202E}\n")
    let shown = line("x\u{1B}[31m\u{202E}", toTerminal: true)
    #expect(!shown.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(shown)")
    #expect(shown.hasPrefix("x\\x1B[31m"), "\(shown)")
  }

  @Test func aLineBreakWouldSplitTheLine() {
    #expect(line("a\nb", toTerminal: false) == "a\\nb\n")
    #expect(line("a\r\\b", toTerminal: false) == "a\\r\\\\b\n")
  }
}
