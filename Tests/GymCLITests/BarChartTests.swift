import Testing

@testable import GymCLI

/// Bars scaled to the largest value, to an eighth of a column: worked out from the definition.
@Suite struct BarChartTests {
  @Test func barsAreScaledToTheLargestValue() throws {
    // Width 20: labels 3, values 1 wide, so the room is 20 − 3 − 1 − 4 = 12 columns.
    let lines = try #require(
      BarChart(title: "books", ascii: false).render(
        [("Jan", 4), ("Feb", 1), ("Mar", 0), ("Apr", nil), ("May", 3)], width: 20))
    // 4 → 12 columns; 1 → 12/4 = 3; 3 → 9; 0 and missing → blank.
    #expect(
      lines == [
        "books",
        "Jan  ████████████  4",
        "Feb  ███           1",
        "Mar                0",
        "Apr                 ",
        "May  █████████     3",
      ])
    #expect(lines.dropFirst().allSatisfy { $0.count == 20 })
  }

  @Test func eighthsAndPlainCharacters() throws {
    // Room 8: 5 of 8 → 5 columns; 1 of 8 → 1 column; 3.5 of 8 → 3.5 columns = 3 full and ▌ (4/8).
    let rows: [(label: String, value: Double?)] = [("a", 8), ("b", 1), ("c", 3.5)]
    let unicode = try #require(BarChart(title: "t", ascii: false).render(rows, width: 16))
    #expect(unicode[1] == "a  ████████    8")
    #expect(unicode[2] == "b  █           1")
    #expect(unicode[3] == "c  ███▌      3.5")
    let plain = try #require(BarChart(title: "t", ascii: true).render(rows, width: 16))
    // 3.5 columns round up to 4 hashes (half a column or more counts).
    #expect(plain[3] == "c  ####      3.5")
    #expect(plain[1] == "a  ########    8")
  }

  @Test func nothingToDraw() {
    #expect(BarChart(title: "t", ascii: false).render([("a", 0), ("b", nil)], width: 40) == nil)
    #expect(BarChart(title: "t", ascii: false).render([("a", 5)], width: 8) == nil)
  }
}

extension BarChartTests {
  /// On a wide terminal the longest bar stops at 40 columns, and the others scale to it.
  @Test func aWideTerminalGetsFortyColumns() throws {
    let lines = try #require(BarChart(title: "t", ascii: true).render([("a", 10), ("b", 5)], width: 200))
    #expect(lines[1] == "a  " + String(repeating: "#", count: 40) + "  10")
    #expect(lines[2] == "b  " + String(repeating: "#", count: 20) + String(repeating: " ", count: 20) + "   5")
  }
}

extension BarChartTests {
  /// Labels: to 0.1 below 1,000, whole from there (half away from zero, as `rounded()`).
  @Test func labels() {
    #expect(ChartLabel.text(29.916667) == "29.9")
    #expect(ChartLabel.text(999.94) == "999.9")
    #expect(ChartLabel.text(10202.916667) == "10203")
    #expect(ChartLabel.text(0) == "0")
    #expect(ChartLabel.text(-1500.5) == "-1501")
  }
}

extension BarChartTests {
  /// Infinity and NaN are drawn as missing; the scale comes from the finite values.
  @Test func nonFiniteValuesAreMissing() throws {
    let lines = try #require(
      BarChart(title: "t", ascii: true).render([("a", .infinity), ("b", 4), ("c", .nan)], width: 20))
    // Room 20 − 1 − 1 − 4 = 14 (values 1 wide: "4").
    #expect(lines[1] == "a  " + String(repeating: " ", count: 14) + "   ")
    #expect(lines[2] == "b  " + String(repeating: "#", count: 14) + "  4")
    #expect(
      Sparkline(label: "t", ascii: true).render([.infinity, 1, 3, .nan], width: 40) == "t  1  _@  3  (min 1, max 3)")
  }
}
