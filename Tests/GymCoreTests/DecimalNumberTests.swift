import Testing

@testable import GymCore

/// Numbers from outside input are read in decimal only: Swift's own reader also takes `0x10` (16),
/// `nan`, `inf` and `infinity`, none of which an export or a person means as a weight.
@Suite struct DecimalNumberTests {
  @Test func readsDecimalNumbers() {
    let cases: [(String, Double)] = [
      ("72", 72), ("-0.5", -0.5), (".5", 0.5), ("5.", 5), ("+3", 3), ("1e3", 1000), ("2.5E-2", 0.025),
      ("0", 0), ("-0", 0), ("1.7976931348623157e308", 1.7976931348623157e308),
    ]
    for (text, value) in cases {
      #expect(DecimalNumber.parse(text) == value, "\(text)")
    }
  }

  @Test func refusesWhatIsNotADecimalNumber() {
    for text in [
      "0x10", "0X1p3", "inf", "-inf", "nan", "NaN", "infinity", "", ".", "-", "e5", "1e", "1e+", " 1", "1 ",
      "1_000", "1,5", "--1", "1.2.3", "１２",
      // Past the largest 64-bit float (about 1.8e308): it would read as infinity.
      "1e400", "-2e308",
    ] {
      #expect(DecimalNumber.parse(text) == nil, "\(text)")
    }
  }
}
