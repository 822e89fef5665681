import GymCore
import Testing

@Suite struct ASCIIReplacingTests {
  @Test func replacesEveryOccurrenceAndLeavesOtherTextAlone() {
    #expect("a\"b\"\"c".replacingASCII("\"", with: "\"\"") == "a\"\"b\"\"\"\"c")
    #expect("no quote here".replacingASCII("\"", with: "\"\"") == "no quote here")
    #expect("Zoë\nÅsa 🏋️\n".replacingASCII("\n", with: " ") == "Zoë Åsa 🏋️ ")
    #expect("ab==".replacingASCII("=", with: "") == "ab")
    #expect("".replacingASCII("x", with: "y") == "")
  }

  @Test func identifierQuotingAndLikeEscapingUseIt() {
    #expect(SQL.quote(#"we"ird"#) == #""we""ird""#)
    #expect(SQL.likeEscaped(#"50%_off\"#) == #"50\%\_off\\"#)
  }
}
