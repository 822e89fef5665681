import Testing

@testable import GymCLI

/// What a comma in another app's number is: the file's delimiter tells (a comma-separated file
/// cannot have a decimal comma in a locale that writes one; a semicolon-separated one does), and
/// what it cannot tell is refused, never guessed.
@Suite struct ImportRowNumberTests {
  static let comma = UInt8(ascii: ",")
  static let semicolon = UInt8(ascii: ";")

  @Test(
    arguments: [
      // A thousands separator between groups of three, in a comma-separated file.
      ("1,000", comma, "1000"), ("-12,345,678.5", comma, "-12345678.5"), ("+1,000.25", comma, "+1000.25"),
      // Any other comma there is left, and so refused as not a number.
      ("1,5", comma, "1,5"), ("1,00,000", comma, "1,00,000"), (",000", comma, ",000"), ("1,000,", comma, "1,000,"),
      ("1,0000", comma, "1,0000"), ("1234,567", comma, "1234,567"),
      // A decimal comma in a semicolon-separated file; with a point beside it, neither.
      ("72,5", semicolon, "72.5"), ("1,000", semicolon, "1.000"), ("1.000,5", semicolon, "1.000,5"),
      ("1,2,3", semicolon, "1,2,3"),
      // No delimiter (JSON): a comma that could be either is refused.
      ("12,5", nil, "12.5"), ("1,000", nil, "1,000"),
      // No comma: as written.
      ("72.5", comma, "72.5"), ("8", semicolon, "8"),
    ] as [(String, UInt8?, String)])
  func commasAreReadAsTheFileWritesThem(text: String, delimiter: UInt8?, expected: String) {
    #expect(ImportRow.withoutCommas(text, delimiter: delimiter) == expected)
  }
}
