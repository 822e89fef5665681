import Testing

@testable import GymCLI

/// What reaches stderr from a file or the database is data: controls are shown, never obeyed.
@Suite struct TerminalTextTests {
  @Test func controlsAreShownAndLineBreaksKept() {
    #expect("plain: Bench Press\tline\nnext".inertOnTerminal == "plain: Bench Press\tline\nnext")
    // ESC (0x1B) starts a colour or a title change; CSI (U+009B) does the same in one C1 character;
    // DEL (0x7F) and a carriage return (0x0D, which overwrites the line) are shown too.
    #expect("shelf: \u{1B}]0;owned\u{07}".inertOnTerminal == "shelf: \\x1B]0;owned\\x07")
    #expect("\u{9B}31m red\u{7F}\r".inertOnTerminal == "\\u{9B}31m red\\x7F\\x0D")
    #expect("Déadlift – ÉZ".inertOnTerminal == "Déadlift – ÉZ")
  }

  /// A table's cell or a summary line: line breaks and tabs are spaces, C0 controls and DEL shown as
  /// `\x..`, and C1 controls (U+0080–U+009F; UTF-8 C2 80 to C2 9F) as `\u{..}`; Latin-1 letters
  /// (`é` is C3 A9, `£` C2 A3, `©` C2 A9) stay as they are.
  @Test func aLineForTheTerminalShowsEveryControl() {
    #expect(Cell.lineForTerminal("x\u{9B}2J y\u{85}z") == "x\\u{9B}2J y\\u{85}z")
    #expect(Cell.lineForTerminal("T\u{1B}]0;HIJACKED\u{07}\u{1B}[2J\r") == "T\\x1B]0;HIJACKED\\x07\\x1B[2J ")
    #expect(Cell.lineForTerminal("£3 © Déjà\tvu\n") == "£3 © Déjà vu ")
    #expect(Cell.text("a\u{9F}").displayText == "a\\u{9F}")
  }

  /// A right-to-left override (U+202E, UTF-8 E2 80 AE) in one cell would show everything after it
  /// on the line reversed, the next columns' numbers included, until the line ends; an isolate
  /// (U+2066–U+2069, E2 81 A6 to E2 81 A9) reorders what it holds. Each is shown as `\u{…}`. Other
  /// scalars that share the lead byte E2 stay: the en dash (U+2013, E2 80 93), the ellipsis
  /// (U+2026, E2 80 A6: the isolate's last byte after another middle one), the line separator
  /// (U+2028, E2 80 A8), and so do the right-to-left mark (U+200F) and Hebrew letters.
  @Test func aBidirectionalOverrideIsShownNotObeyed() {
    #expect(Cell.lineForTerminal("report\u{202E}fdp.exe") == "report\\u{202E}fdp.exe")
    #expect(Cell.lineForTerminal("\u{2066}a\u{2067}b\u{2068}c\u{2069}") == "\\u{2066}a\\u{2067}b\\u{2068}c\\u{2069}")
    #expect(Cell.lineForTerminal("\u{202A}\u{202B}\u{202C}\u{202D}") == "\\u{202A}\\u{202B}\\u{202C}\\u{202D}")
    #expect(Cell.lineForTerminal("Bench – 5×5… \u{2028}") == "Bench – 5×5… \u{2028}")
    #expect(Cell.lineForTerminal("שלום\u{200F} 3") == "שלום\u{200F} 3")
    #expect(Cell.text("x\u{202E}\t1").displayText == "x\\u{202E} 1")
    #expect("owner: \u{202E}nimda".inertOnTerminal == "owner: \\u{202E}nimda")
    #expect("tab\tkept \u{2069}".inertOnTerminal == "tab\tkept \\u{2069}")
  }

  /// An error line has no control left at all: C0, DEL, C1 and the overrides become `?`.
  /// The table's check reads UTF-8: a scalar it escapes is found by its bytes, and the scalars that
  /// share a first byte with one (the en dash E2 80 93, U+2065 E2 81 A5, U+202F E2 80 AF, U+00A0
  /// C2 A0) are not, nor is a lead byte at the end of the text.
  @Test func theCheckFindsAControlByItsBytes() {
    for value: UInt32 in [0, 0x1B, 0x7F, 0x80, 0x9B, 0x9F, 0x202A, 0x202E, 0x2066, 0x2069] {
      let text = "a" + String(Unicode.Scalar(value)!) + "b"
      #expect(String.holdsTerminalControl(text.utf8), "U+\(String(value, radix: 16))")
      #expect(String.holdsTerminalControl(text.utf8) == text.unicodeScalars.contains(where: String.isTerminalControl))
    }
    for text in ["Day – 5", "\u{2065}", "\u{2029}x", "\u{202F}", "\u{A0}", "\u{2026}", "é", "\u{2029}"] {
      #expect(!String.holdsTerminalControl(text.utf8), "\(text.unicodeScalars.map(\.value))")
      #expect(!text.unicodeScalars.contains(where: String.isTerminalControl))
    }
  }

  @Test func anErrorLineHasNoControl() {
    #expect(ErrorReporting.oneLine("bad 'a\u{202E}b' at\n2\u{9B}\u{7F}") == "bad 'a?b' at?2??")
    #expect(ErrorReporting.oneLine("Déjà – שלום\u{200F}") == "Déjà – שלום\u{200F}")
  }
}

/// Text as one shell word, and as zsh's completion reads it: every quote or colon is escaped as the
/// shell sees it, scalar by scalar, even when a combining mark (U+0301) joins it into one character.
@Suite struct ShellWordTests {
  @Test func aQuoteJoinedByACombiningMarkIsStillEscaped() {
    #expect(ShellWord.quoted("it's") == "'it'\\''s'")
    #expect(ShellWord.quoted("gg'\u{301}$(touch x)") == "'gg'\\''\u{301}$(touch x)'")
    #expect(DynamicCompletion.candidates(["a:\u{301}b\\"], shell: .zsh) == ["a\\:\u{301}b\\\\"])
    // C1 controls are left out, as line breaks are.
    #expect(DynamicCompletion.candidates(["ok", "bad\u{9B}2J"], shell: .bash) == ["'ok'"])
    // So is a bidirectional override, which would reorder the command line as it is shown.
    #expect(DynamicCompletion.candidates(["ok", "x\u{202E}y"], shell: .fish) == ["ok"])
  }
}
