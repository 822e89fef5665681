import GymCLI

/// One chart as inline SVG: bars or a line over labelled points, a value axis with gridlines from
/// zero to a round maximum, the axes named, and a title and description (every value) that screen
/// readers read. Each point is one element of class `point`, with its own `<title>` (label: value).
struct SVGChart {
  static let width = 720.0
  static let height = 260.0
  static let right = 16.0
  static let top = 16.0
  static let bottom = 88.0
  /// Text is 11 units at 768 px and wider, where the drawing is at least 720 px wide; narrower, the
  /// stylesheet makes it up to `phoneFont` units (HTMLReport's steps), which a 390 px phone (a 720-unit
  /// drawing in 358 px) shows at 12.4 CSS px and a 360 px one at 11.4.
  static let font = 11.0
  static let phoneFont = 25.0
  /// The width of a character, as a share of the font size (digits and dates in a system font).
  static let characterWidth = 0.62

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
    // Four gridlines a round step apart (1, 2 or 5 × 10ⁿ); counts (books, sessions) step by whole numbers.
    let counts = points.allSatisfy { $0.value == $0.value.rounded() }
    let step = max(Self.roundMaximum((points.map(\.value).max() ?? 0) / 4), counts ? 1 : 0)
    let high = step * 4
    let low = min(0, points.map(\.value).min() ?? 0)
    // Room on the left for the longest value label at the phone's size, and the axis name.
    let ticks = (0...4).map { ChartLabel.text(low + (high - low) * Double($0) / 4) }
    let left = Double(ticks.map(\.count).max() ?? 1) * Self.phoneFont * Self.characterWidth + Self.phoneFont + 24
    // Room on the right for half the longest category label, centred on the last point.
    let longest = Double(points.map(\.label.count).max() ?? 1)
    let right = max(Self.right, longest * Self.phoneFont * Self.characterWidth / 2 + 4)
    let plotWidth = Self.width - left - right
    let plotHeight = Self.height - Self.top - Self.bottom
    func y(_ value: Double) -> Double { Self.top + plotHeight * (1 - (value - low) / (high - low)) }
    let slot = plotWidth / Double(max(points.count, 1))
    func x(_ index: Int) -> Double { left + slot * (Double(index) + 0.5) }
    var out = """
      <svg role="img" aria-labelledby="\(id)-title \(id)-desc" viewBox="0 0 \(Self.width.svg) \(Self.height.svg)" \
      xmlns="http://www.w3.org/2000/svg">
      <title id="\(id)-title">\(HTML.escape(chart.title))</title>
      <desc id="\(id)-desc">\(descriptionHTML)</desc>

      """
    // Gridlines and value labels at quarters of the axis.
    for step in 0...4 {
      let value = low + (high - low) * Double(step) / 4
      out +=
        "<line class=\"grid\" x1=\"\(left.svg)\" x2=\"\((Self.width - right).svg)\" "
        + "y1=\"\(y(value).svg)\" y2=\"\(y(value).svg)\"/>"
      out +=
        "<text class=\"tick value-tick\" x=\"\((left - 6).svg)\" y=\"\(y(value).svg)\" text-anchor=\"end\" "
        + "dominant-baseline=\"middle\">\(HTML.escape(ChartLabel.text(value)))</text>\n"
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
          + "<title>\(HTML.isolated(point.label)): \(ChartLabel.text(point.value))</title></rect>\n"
      }
    case .categories: break  // drawn as a list (CategoryBars), never here
    case .line:
      let path = points.enumerated().map { "\(x($0.offset).svg),\(y($0.element.value).svg)" }.joined(separator: " ")
      out += "<polyline class=\"series\" points=\"\(path)\"/>\n"
      for (index, point) in points.enumerated() {
        out +=
          "<circle class=\"point dot\" cx=\"\(x(index).svg)\" cy=\"\(y(point.value).svg)\" r=\"3\">"
          + "<title>\(HTML.isolated(point.label)): \(ChartLabel.text(point.value))</title></circle>\n"
      }
    }
    // The category axis: a few labels, evenly spaced, so that they never overlap: at 1280 px every
    // `wide`-th, on a phone (larger text) every `narrow`-th; the others are hidden there (class `wide`).
    let axisY = Self.height - Self.bottom
    out +=
      "<line class=\"axis\" x1=\"\(left.svg)\" x2=\"\((Self.width - right).svg)\" "
      + "y1=\"\(axisY.svg)\" y2=\"\(axisY.svg)\"/>\n"
    func every(_ font: Double) -> Int {
      let fit = max(1, Int(plotWidth / max(longest * font * Self.characterWidth + font, 1)))
      return max(1, Int((Double(points.count) / Double(fit)).rounded(.up)))
    }
    let wide = every(Self.font)
    // A multiple of the wide step, so that a label shown on a phone is one shown at 1280 px too.
    let narrow = Int((Double(every(Self.phoneFont)) / Double(wide)).rounded(.up)) * wide
    for (index, point) in points.enumerated() where index % wide == 0 {
      out +=
        "<text class=\"tick category-tick\(index % narrow == 0 ? "" : " wide")\" x=\"\(x(index).svg)\" "
        + "y=\"\((axisY + 20).svg)\" text-anchor=\"middle\" dominant-baseline=\"hanging\">"
        + "\(HTML.escape(point.label))</text>\n"
    }
    out +=
      "<text class=\"axis-label\" x=\"\((left + plotWidth / 2).svg)\" y=\"\((Self.height - 7).svg)\" "
      + "text-anchor=\"middle\">\(HTML.escape(chart.xLabel))</text>\n"
    // The value axis's name, along it; on a phone, when it is longer than the axis, only the title names it.
    let fits = Double(chart.yLabel.count) * Self.phoneFont * Self.characterWidth <= plotHeight
    out +=
      "<text class=\"axis-label\(fits ? "" : " wide")\" "
      + "transform=\"translate(\((Self.phoneFont - 2).svg) \((Self.top + plotHeight / 2).svg)) "
      + "rotate(-90)\" text-anchor=\"middle\">\(HTML.escape(chart.yLabel))</text>\n"
    return out + "</svg>"
  }

  /// The chart in words, every value included, escaped for HTML: what a screen reader says for it.
  var descriptionHTML: String {
    HTML.escape("\(chart.yLabel) by \(chart.xLabel.isEmpty ? "item" : chart.xLabel): ")
      + chart.points.map { "\(HTML.isolated($0.label)) \(HTML.escape(ChartLabel.text($0.value)))" }
      .joined(separator: "; ")
  }
}

extension Double {
  /// A coordinate to 0.1, without a trailing `.0`.
  var svg: String {
    let tenths = (self * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
  }
}
