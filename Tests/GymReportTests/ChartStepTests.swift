import GymCLI
import GymCore
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
    // Counts 3 and 1: step max(roundMaximum(3/4) = 1, 1) → axis 0–4, its longest label one character.
    // Left: 1 × 25 × 0.62 (a character at the phone's size) + 25 (the axis name) + 24 = 64.5. Right: half
    // of "b<c" at that size, 3 × 25 × 0.62 / 2 + 4 = 27.25. Plot: x 64.5–692.75 (628.25 wide), y 16–172
    // (260 − 16 − 88 = 156 high). Two slots of 314.125; bars 0.8 of it, 251.3 wide, centred at 221.5625
    // and 535.6875: x = 95.9125 and 410.0375. 3 of 4 → top at 16 + 156 × (1 − 3/4) = 55, height 117;
    // 1 of 4 → top 16 + 156 × 3/4 = 133, height 39.
    #expect(svg.contains(#"<rect class="point bar" x="95.9" y="55" width="251.3" height="117">"#), "\(svg)")
    #expect(svg.contains(#"<rect class="point bar" x="410" y="133" width="251.3" height="39">"#))
    #expect(svg.components(separatedBy: "class=\"point").count - 1 == 2)
    // Each label isolated (U+2068 … U+2069) from the value after it.
    #expect(svg.contains("\u{2068}b&lt;c\u{2069}: 1") && !svg.contains("b<c"))
    #expect(svg.contains("<desc id=\"c1-desc\">y by x: \u{2068}a\u{2069} 3; \u{2068}b&lt;c\u{2069} 1</desc>"))
  }

  @Test func nothingToDrawIsNoChart() {
    #expect(ReportChart(title: "t", kind: .line, xLabel: "x", yLabel: "y", points: [.init("a", 0)]) == nil)
    #expect(ReportChart(title: "t", kind: .line, xLabel: "x", yLabel: "y", points: []) == nil)
  }

  /// 1,000 points are more than 400: runs of ⌈1000 / 400⌉ = 3 join, 333 of three and the last one
  /// alone (999), 334 points. Bars add up: the first is 0 + 1 + 2 = 3 and the total stays
  /// 0 + 1 + … + 999 = 999 × 1000 / 2 = 499,500; a line averages: (0 + 1 + 2) / 3 = 1.
  @Test func longSeriesJoinPointsAndDropNone() throws {
    let points = (0..<1000).map { ReportChart.Point("\($0)", Double($0)) }
    let bars = try #require(ReportChart(title: "t", kind: .bars, xLabel: "x", yLabel: "y", points: points))
    #expect(bars.points.count == 334)
    #expect(bars.points.first == .init("0 – 2", 3))
    #expect(bars.points.last == .init("999", 999))
    #expect(bars.points.reduce(0) { $0 + $1.value } == 499_500)
    #expect(bars.xLabel == "x, 3 to a point")
    let line = try #require(ReportChart(title: "t", kind: .line, xLabel: "x", yLabel: "y", points: points))
    #expect(line.points.first == .init("0 – 2", 1))
    // 400 points are drawn as they are.
    let whole = try #require(
      ReportChart(title: "t", kind: .bars, xLabel: "x", yLabel: "y", points: Array(points.prefix(400))))
    #expect(whole.points.count == 400 && whole.xLabel == "x")
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

/// Categories: one named bar each, largest first, `unknown` last and in a list of its own; and the
/// grains' periods.
@Suite struct CategoryAndGrainTests {
  @Test func categoriesAreSortedAndNamed() throws {
    let chart = try #require(
      ReportChart(
        title: "t", kind: .categories, xLabel: "focus", yLabel: "minutes",
        points: [.init("unknown", 500), .init("legs", 60), .init("push", 120), .init("core", 60)]))
    // By value, then by name among equals; `unknown` last whatever its value.
    #expect(chart.points.map(\.label) == ["push", "core", "legs", "unknown"])
    let html = CategoryBars(chart: chart).html
    // Widths against the largest value, 500 (unknown's): 120 → 24 %, 60 → 12 %.
    #expect(
      html.contains(#"<span class="label">push</span><span class="track"><span class="fill" style="width: 24%">"#))
    #expect(
      html.contains(#"<span class="label">core</span><span class="track"><span class="fill" style="width: 12%">"#))
    #expect(html.components(separatedBy: "<ol class=\"bars unknown\"").count == 2)
    #expect(html.components(separatedBy: "<li class=\"point\">").count - 1 == 4)
    let kept = try #require(
      ReportChart(
        title: "t", kind: .categories, xLabel: "", yLabel: "books",
        points: [.init("read", 3), .init("goal", 10)], sorted: false))
    #expect(kept.points.map(\.label) == ["read", "goal"])
  }

  @Test func grainsNameEveryPeriod() throws {
    let since = try #require(Timestamp(parsing: "2024-11-20T10:00:00Z"))
    let end = try #require(Timestamp(parsing: "2025-02-03T10:00:00Z"))
    // 2024-11-20 is a Wednesday: its week starts Monday 2024-11-18; 2025-02-03 is a Monday. From the
    // 18th of November to the 3rd of February: 77 days, 11 weeks apart, so 12 Mondays.
    let weeks = ReportGrain.week.labels(since: since, end: end)
    #expect(weeks.count == 12 && weeks.first == "2024-11-18" && weeks.last == "2025-02-03")
    #expect(ReportGrain.month.labels(since: since, end: end) == ["2024-11", "2024-12", "2025-01", "2025-02"])
    #expect(ReportGrain.quarter.labels(since: since, end: end) == ["2024 Q4", "2025 Q1"])
    #expect(ReportGrain.day.labels(since: since, end: end).count == 76)  // 11 days of November, 31, 31, 3
    // Half a year by week, five years by month, beyond by quarter.
    let day: Int64 = 86_400_000
    #expect(ReportGrain.forSessions(since: end.adding(milliseconds: -183 * day), end: end) == .week)
    #expect(ReportGrain.forSessions(since: end.adding(milliseconds: -184 * day), end: end) == .month)
    #expect(ReportGrain.forSessions(since: end.adding(milliseconds: -1831 * day), end: end) == .quarter)
  }
}
