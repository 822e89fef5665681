import GymCLI
import Testing

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
}
