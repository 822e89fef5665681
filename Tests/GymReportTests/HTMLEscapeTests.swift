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
}
