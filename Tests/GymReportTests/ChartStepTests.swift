import GymCLI
import Testing

@testable import GymReport

/// The report's value axis: four gridlines a round step apart, the step the smallest 1, 2 or 5 × 10ⁿ
/// at or above a quarter of the largest value.
@Suite struct ChartStepTests {
  @Test func roundSteps() {
    #expect(SVGChart.roundMaximum(0.75) == 1)
    #expect(SVGChart.roundMaximum(1.25) == 2)
    #expect(SVGChart.roundMaximum(18) == 20)
    #expect(SVGChart.roundMaximum(4750) == 5000)
    #expect(SVGChart.roundMaximum(5000) == 5000)
    #expect(SVGChart.roundMaximum(0.03) == 0.05)
    #expect(SVGChart.roundMaximum(0) == 1)
  }
}

/// Charts as SVG: one element per point, placed by the definition; text from the data escaped.
@Suite struct SVGChartTests {
  @Test func barsArePlacedOnTheAxis() throws {
    let chart = try #require(
      ReportChart(title: "t", kind: .bars, xLabel: "x", yLabel: "y", points: [.init("a", 3), .init("b<c", 1)]))
    let svg = SVGChart(chart: chart, id: "c1").svg
    // Counts 3 and 1: step max(roundMaximum(3/4) = 1, 1) → axis 0–4. Plot: x 64–704 (640 wide), y 16–204
    // (188 high). Two slots of 320; bars 256 wide, centred at 224 and 544: x = 96 and 416. 3 of 4 → top
    // at 16 + 188 × (1 − 3/4) = 63, height 141; 1 of 4 → top 157, height 47.
    #expect(svg.contains(#"<rect class="point bar" x="96" y="63" width="256" height="141">"#))
    #expect(svg.contains(#"<rect class="point bar" x="416" y="157" width="256" height="47">"#))
    #expect(svg.components(separatedBy: "class=\"point").count - 1 == 2)
    #expect(svg.contains("b&lt;c: 1") && !svg.contains("b<c"))
    #expect(svg.contains("<desc id=\"c1-desc\">y by x: a 3; b&lt;c 1</desc>"))
  }

  @Test func nothingToDrawIsNoChart() {
    #expect(ReportChart(title: "t", kind: .line, xLabel: "x", yLabel: "y", points: [.init("a", 0)]) == nil)
    #expect(ReportChart(title: "t", kind: .line, xLabel: "x", yLabel: "y", points: []) == nil)
  }

  @Test func longSeriesAreCappedToTheLatestPoints() throws {
    let points = (0..<1000).map { ReportChart.Point("\($0)", Double($0)) }
    let chart = try #require(ReportChart(title: "t", kind: .line, xLabel: "x", yLabel: "y", points: points))
    #expect(chart.points.count == ReportChart.maximumPoints)
    #expect(chart.points.first?.label == "600")
  }
}

extension SVGChartTests {
  /// A sum of outside values that overflowed is no point at all, never a trap.
  @Test func nonFiniteValuesAreLeftOut() throws {
    let chart = try #require(
      ReportChart(
        title: "t", kind: .bars, xLabel: "x", yLabel: "y",
        points: [.init("a", .infinity), .init("b", 2), .init("c", .nan), .init("d", -.infinity)]))
    #expect(chart.points == [.init("b", 2)])
    #expect(ReportChart(title: "t", kind: .bars, xLabel: "x", yLabel: "y", points: [.init("a", .infinity)]) == nil)
  }
}
