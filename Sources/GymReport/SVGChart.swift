import GymCLI

/// One chart as inline SVG: bars or a line over labelled points, a value axis with gridlines from
/// zero to a round maximum, the axes named, and a title and description (every value) that screen
/// readers read. Each point is one element of class `point`, with its own `<title>` (label: value).
struct SVGChart {
  static let width = 720.0
  static let height = 260.0
  static let left = 64.0
  static let right = 16.0
  static let top = 16.0
  static let bottom = 56.0

  let chart: ReportChart
  let id: String

  /// The smallest 1, 2 or 5 × 10ⁿ at or above `value`: a gridline step.
  static func roundMaximum(_ value: Double) -> Double {
    guard value > 0, value.isFinite else { return 1 }
    var step = 1.0
    while step * 10 <= value { step *= 10 }
    while step > value { step /= 10 }
    for factor in [1.0, 2.0, 5.0, 10.0] where step * factor >= value { return step * factor }
    return step * 10
  }

  var svg: String {
    let points = chart.points
    let plotWidth = Self.width - Self.left - Self.right
    let plotHeight = Self.height - Self.top - Self.bottom
    // Four gridlines a round step apart (1, 2 or 5 × 10ⁿ); counts (books, sessions) step by whole numbers.
    let counts = points.allSatisfy { $0.value == $0.value.rounded() }
    let step = max(Self.roundMaximum((points.map(\.value).max() ?? 0) / 4), counts ? 1 : 0)
    let high = step * 4
    let low = min(0, points.map(\.value).min() ?? 0)
    func y(_ value: Double) -> Double { Self.top + plotHeight * (1 - (value - low) / (high - low)) }
    let slot = plotWidth / Double(max(points.count, 1))
    func x(_ index: Int) -> Double { Self.left + slot * (Double(index) + 0.5) }
    var out = """
      <svg role="img" aria-labelledby="\(id)-title \(id)-desc" viewBox="0 0 \(Self.width.svg) \(Self.height.svg)" \
      xmlns="http://www.w3.org/2000/svg">
      <title id="\(id)-title">\(HTML.escape(chart.title))</title>
      <desc id="\(id)-desc">\(HTML.escape(description))</desc>

      """
    // Gridlines and value labels at quarters of the axis.
    for step in 0...4 {
      let value = low + (high - low) * Double(step) / 4
      out +=
        "<line class=\"grid\" x1=\"\(Self.left.svg)\" x2=\"\((Self.width - Self.right).svg)\" "
        + "y1=\"\(y(value).svg)\" y2=\"\(y(value).svg)\"/>"
      out +=
        "<text class=\"tick\" x=\"\((Self.left - 6).svg)\" y=\"\((y(value) + 4).svg)\" text-anchor=\"end\">"
        + "\(HTML.escape(ChartLabel.text(value)))</text>\n"
    }
    switch chart.kind {
    case .bars:
      let barWidth = max(slot * 0.8, 1)
      for (index, point) in points.enumerated() {
        let top = y(max(point.value, 0))
        let bottom = y(min(point.value, 0))
        out +=
          "<rect class=\"point bar\" x=\"\((x(index) - barWidth / 2).svg)\" y=\"\(top.svg)\" "
          + "width=\"\(barWidth.svg)\" height=\"\(max(bottom - top, 0).svg)\">"
          + "<title>\(HTML.escape(point.label)): \(ChartLabel.text(point.value))</title></rect>\n"
      }
    case .line:
      let path = points.enumerated().map { "\(x($0.offset).svg),\(y($0.element.value).svg)" }.joined(separator: " ")
      out += "<polyline class=\"series\" points=\"\(path)\"/>\n"
      for (index, point) in points.enumerated() {
        out +=
          "<circle class=\"point dot\" cx=\"\(x(index).svg)\" cy=\"\(y(point.value).svg)\" r=\"3\">"
          + "<title>\(HTML.escape(point.label)): \(ChartLabel.text(point.value))</title></circle>\n"
      }
    }
    // The category axis: a few labels, evenly spaced, so that they never overlap.
    let axisY = Self.height - Self.bottom
    out +=
      "<line class=\"axis\" x1=\"\(Self.left.svg)\" x2=\"\((Self.width - Self.right).svg)\" "
      + "y1=\"\(axisY.svg)\" y2=\"\(axisY.svg)\"/>\n"
    let longest = Double(points.map(\.label.count).max() ?? 1)
    let fit = max(1, Int(plotWidth / max(longest * 7 + 8, 1)))
    let every = max(1, Int((Double(points.count) / Double(fit)).rounded(.up)))
    for (index, point) in points.enumerated() where index % every == 0 {
      out +=
        "<text class=\"tick\" x=\"\(x(index).svg)\" y=\"\((axisY + 16).svg)\" text-anchor=\"middle\">"
        + "\(HTML.escape(point.label))</text>\n"
    }
    out +=
      "<text class=\"axis-label\" x=\"\((Self.left + plotWidth / 2).svg)\" y=\"\((Self.height - 10).svg)\" "
      + "text-anchor=\"middle\">\(HTML.escape(chart.xLabel))</text>\n"
    out +=
      "<text class=\"axis-label\" transform=\"translate(14 \((Self.top + plotHeight / 2).svg)) rotate(-90)\" "
      + "text-anchor=\"middle\">\(HTML.escape(chart.yLabel))</text>\n"
    return out + "</svg>"
  }

  /// The chart in words, every value included: what a screen reader says for it.
  var description: String {
    "\(chart.yLabel) by \(chart.xLabel.isEmpty ? "item" : chart.xLabel): "
      + chart.points.map { "\($0.label) \(ChartLabel.text($0.value))" }.joined(separator: "; ")
  }
}

extension Double {
  /// A coordinate to 0.1, without a trailing `.0`.
  var svg: String {
    let tenths = (self * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
  }
}
