import Testing

@testable import GymCLI

/// What a comma in another app's number is: read only where it can mean one thing (`withoutCommas`
/// gives the text `DecimalNumber` then reads; a text left with its comma is refused).
@Suite struct ImportRowNumberTests {
  @Test(arguments: [
    // Thousands: a decimal point after the groups, or more than one group.
    ("1,000.5", "1000.5"), ("-12,345,678.5", "-12345678.5"), ("+1,000.25", "+1000.25"), ("1,000,000", "1000000"),
    // One comma that is no thousands separator: a decimal comma.
    ("72,5", "72.5"), ("62,50", "62.50"), ("1234,567", "1234.567"), ("1,0000", "1.0000"), ("-0,5", "-0.5"),
    // A thousand or one: left, and so refused.
    ("1,000", "1,000"), ("2,500", "2,500"), ("-1,000", "-1,000"),
    // Neither: left, and so refused.
    ("1,00,000", "1,00,000"), ("1,000,", "1,000,"), ("1,2,3", "1,2,3"), ("1.000,5", "1.000,5"),
    ("1,000.5,5", "1,000.5,5"), ("1,000.000,5", "1,000.000,5"), ("1,000.", "1,000."),
    // No comma: as written.
    ("72.5", "72.5"), ("8", "8"),
  ])
  func commasAreReadOnlyWhereTheyMeanOneThing(text: String, expected: String) {
    #expect(ImportRow.withoutCommas(text) == expected)
  }
}
