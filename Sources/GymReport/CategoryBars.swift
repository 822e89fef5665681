import GymCLI

/// A category chart as HTML: one row per category, its name, a bar as long as its share of the
/// largest, and its value. Text stays text (page-sized on a phone, never scaled down with a
/// drawing), every bar is named, and `unknown` is a list of its own under the named ones.
struct CategoryBars {
  let chart: ReportChart

  var html: String {
    let largest = chart.points.map { abs($0.value) }.max() ?? 1
    func rows(_ points: [ReportChart.Point]) -> String {
      points.map { point in
        let percent = largest > 0 ? abs(point.value) / largest * 100 : 0
        return "<li class=\"point\"><span class=\"label\">\(HTML.escape(point.label))</span>"
          + "<span class=\"track\"><span class=\"fill\" style=\"width: \(percent.svg)%\"></span></span>"
          + "<span class=\"value\">\(HTML.escape(ChartLabel.text(point.value)))</span></li>\n"
      }.joined()
    }
    let named = chart.points.filter { $0.label != ReportChart.unknown }
    let unknown = chart.points.filter { $0.label == ReportChart.unknown }
    let label = chart.xLabel.isEmpty ? chart.yLabel : "\(chart.yLabel) by \(chart.xLabel)"
    var out = "<ol class=\"bars\" aria-label=\"\(HTML.escape(label))\">\n" + rows(named) + "</ol>\n"
    if !unknown.isEmpty { out += "<ol class=\"bars unknown\" aria-label=\"not named\">\n" + rows(unknown) + "</ol>\n" }
    return out
  }
}
