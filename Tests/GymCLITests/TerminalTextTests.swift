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
  /// The table's check reads UTF-8 bytes, and says yes exactly for the text the scalar rule escapes
  /// (`isTerminalControl`) or makes a space (tab, line feed): every scalar up to U+2FFF (each one-
  /// and two-byte form, and the three-byte ones led by E0 to E2) between two letters, and the first of
  /// each later block of 4,096, against that rule. Among them the
  /// neighbours that share a first byte with a control (the en dash E2 80 93, U+2065, U+00A0 C2 A0).
  /// A lead byte at the end of the text is no control.
  @Test func theCheckFindsAControlByItsBytes() {
    let scalars = (0...0x2FFF).compactMap(Unicode.Scalar.init) + (3...0x10F).compactMap { Unicode.Scalar($0 << 12) }
    let wrong = scalars.filter { scalar in
      let text = "a" + String(scalar) + "b"
      return String.holdsTerminalControl(text.utf8)
        != (String.isTerminalControl(scalar) || scalar == "\t" || scalar == "\n")
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5).map { String($0.value, radix: 16) })")
    #expect(!String.holdsTerminalControl("Day – 5".utf8))
    #expect(!String.holdsTerminalControl(String(decoding: [0x61, 0xE2, 0x80], as: UTF8.self).utf8))
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

  /// A word typed so far, as the shell will read it: each case is the POSIX quoting rule applied by
  /// hand (a backslash outside quotes keeps the next character; in single quotes nothing is special;
  /// in double quotes a backslash escapes only `$`, a backtick, `"`, `\` and a line break).
  @Test func aTypedWordIsReadAsTheShellReadsIt() {
    let cases: [(typed: String, read: String)] = [
      ("Olive\\ o", "Olive o"), ("'Olive o", "Olive o"), ("\"Olive o", "Olive o"), ("'Olive oil'", "Olive oil"),
      ("Olive\\'s", "Olive's"), ("\"Olive's", "Olive's"), ("'it'\\''s", "it's"), ("\"a\\\"b\\$c\\d", "a\"b$c\\d"),
      ("a\\\\b", "a\\b"), ("trailing\\", "trailing"), ("\"open\\", "open\\"), ("$HOME", "$HOME"), ("", ""),
      ("Caf\u{E9}\\ au", "Caf\u{E9} au"),
    ]
    for (typed, read) in cases { #expect(ShellWord.unquoted(typed) == read, "\(typed)") }
  }
}
