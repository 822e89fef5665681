import GymCLI
import Testing

@testable import GymReport

/// The report's text is data: `<`, `>`, `&` and both quotes are escaped as the browser reads them,
/// scalar by scalar, even where a neighbouring scalar joins one into another Swift character
/// (U+0600 before it, U+0301 after it).
@Suite struct HTMLEscapeTests {
  @Test func everyMarkupCharacterIsEscapedWhateverJoinsIt() {
    #expect(HTML.escape("<b>&\"'") == "&lt;b&gt;&amp;&quot;&#39;")
    #expect(
      HTML.escape("Squat\u{600}<meta http-equiv=refresh>\u{301}")
        == "Squat\u{600}&lt;meta http-equiv=refresh&gt;\u{301}")
    #expect(HTML.escape("\"\u{301}onload=x") == "&quot;\u{301}onload=x")
    #expect(HTML.escape("Déjà vu – 5 × 3") == "Déjà vu – 5 × 3")
  }

  /// An override in a label would reverse the number after it on the same line: `Run` + U+202E +
  /// `: 12.5` reads `Run5.21 :`. Each embedding, override and isolate is shown as the terminal shows
  /// it; the right-to-left mark, which reaches only its neighbours, stays.
  @Test func aBidirectionalOverrideIsShownNotObeyed() {
    #expect(HTML.escape("Run\u{202E}") == "Run\\u{202E}")
    for value: UInt32 in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
      let scalar = Unicode.Scalar(value)!
      let hex = String(value, radix: 16, uppercase: true)
      #expect(HTML.escape("a\(scalar)b") == "a\\u{\(hex)}b")
    }
    // The en dash (E2 80 93) and the ellipsis (E2 80 A6) share the overrides' first bytes and stay.
    #expect(HTML.escape("שלום\u{200F} – 5…") == "שלום\u{200F} – 5…")
  }

  /// A name holding an escape sequence (OSC `ESC ] 0 ; … BEL`, CSI `ESC [ 7 m`, C1's U+009B) would act
  /// on a terminal the page is printed to (`report --out -`): each control is shown as the terminal
  /// shows it, `\x1B` below 128 and `\u{9B}` above; a line break and a tab stay (HTML folds them).
  @Test func aControlCharacterIsShownNotSent() {
    #expect(HTML.escape("Ex\u{1B}]0;pwn\u{07}") == "Ex\\x1B]0;pwn\\x07")
    #expect(HTML.escape("fr\u{1B}[7midge") == "fr\\x1B[7midge")
    #expect(HTML.escape("a\u{9B}2Jb\u{7F}") == "a\\u{9B}2Jb\\x7F")
    #expect(HTML.escape("a\nb\tc") == "a\nb\tc")
  }

  /// A point's tooltip (`label: value`) isolates the label, so a right-to-left label keeps its value
  /// after it; a label's own pop-directional isolate (U+2069) is escaped and cannot close it early.
  @Test func aPointsLabelIsIsolatedFromItsValue() throws {
    let chart = try #require(
      ReportChart(
        title: "t", kind: .bars, xLabel: "x", yLabel: "y",
        points: [.init("ריצה", 12.5), .init("a\u{2069}\u{202E}", 3)]))
    let svg = SVGChart(chart: chart, id: "c1").svg
    #expect(svg.contains("<title>\u{2068}ריצה\u{2069}: 12.5</title>"), "\(svg)")
    #expect(svg.contains("<title>\u{2068}a\\u{2069}\\u{202E}\u{2069}: 3</title>"), "\(svg)")
    // Exactly one isolate opened and one closed per point, in the tooltips and in the description.
    #expect(svg.unicodeScalars.filter { $0 == "\u{2068}" }.count == 4)
    #expect(svg.unicodeScalars.filter { $0 == "\u{2069}" }.count == 4)
  }
}
