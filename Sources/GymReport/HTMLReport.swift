import GymCLI

/// The report as one self-contained HTML file: inline CSS, inline SVG, no script and no request of
/// any kind (a Content-Security-Policy forbids them), a light and a dark scheme, and a print layout
/// that fits A4 and Letter. Each chart carries its numbers twice for those who cannot see it: in its
/// SVG description and in a table under it.
struct HTMLReport {
  let title: String
  /// `From … to …, written …`.
  let subtitle: String
  let sections: [ReportSection]
  /// Under the title: the kinds of record outside the period, when others are in it.
  var outside: String?
  /// What the page says when there are no sections.
  var empty = "No data yet: import workouts, health samples, books or a pantry, then run gym report again."

  static let policy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

  static let style = """
    :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #ffffff; --muted: #6e6e73; --grid: #e3e3e8;
      --bar: #2f6fde; --line: #c2410c; }
    @media (prefers-color-scheme: dark) {
      :root { --fg: #f2f2f7; --bg: #15151a; --muted: #a1a1aa; --grid: #34343c; --bar: #6ea8ff; --line: #fb923c; }
    }
    * { box-sizing: border-box; }
    body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg);
      margin: 0 auto; max-width: 64rem; padding: 1.5rem; }
    h1 { font-size: 1.6rem; margin: 0; } h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--grid); }
    h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
    header p, .empty, figcaption, summary { color: var(--muted); }
    figure { margin: 1rem 0 1.5rem; break-inside: avoid; }
    svg { display: block; width: 100%; height: auto; max-height: 22rem; }
    svg text { fill: var(--fg); font-size: 11px; } svg .axis-label { fill: var(--muted); font-size: 12px; }
    .grid { stroke: var(--grid); } .axis { stroke: var(--muted); }
    .bars { list-style: none; margin: .25rem 0; padding: 0; display: grid; gap: .3rem .6rem; align-items: center;
      grid-template-columns: minmax(5rem, max-content) minmax(3rem, 1fr) max-content; }
    .bars li { display: contents; } .bars .label { overflow-wrap: anywhere; }
    .bars .track { height: .9rem; } .bars .fill { display: block; height: 100%; min-width: 2px; background: var(--bar); }
    .bars .value { text-align: right; font-variant-numeric: tabular-nums; }
    .bars.unknown { margin-top: .6rem; padding-top: .4rem; border-top: 1px dashed var(--grid); }
    .bars.unknown .label { font-style: italic; color: var(--muted); } .bars.unknown .fill { background: var(--muted); }
    .bar { fill: var(--bar); } .series { fill: none; stroke: var(--line); stroke-width: 2; } .dot { fill: var(--line); }
    .table { max-width: 100%; overflow-x: auto; }
    table { border-collapse: collapse; font-size: .9rem; margin: .25rem 0; }
    th, td { text-align: left; padding: .15rem .75rem .15rem 0; border-bottom: 1px solid var(--grid); }
    td.number { text-align: right; } td:first-child { white-space: nowrap; }
    summary { padding: .6rem 0; cursor: pointer; }
    /* A 720-unit drawing narrower than 720 px scales its text down: each step keeps it at 11 px or more
       at the step's narrowest width (SVGChart.phoneFont). */
    @media (max-width: 767px) {
      svg text, svg .axis-label { font-size: 14px; } svg .wide { display: none; }
    }
    @media (max-width: 640px) {
      body { padding: 1rem; }
      svg text, svg .axis-label { font-size: 18px; }
      table { font-size: .85rem; } th, td { padding-right: .5rem; }
    }
    @media (max-width: 480px) { svg text, svg .axis-label { font-size: 25px; } }
    @page { margin: 14mm; }
    @media print {
      body { max-width: none; padding: 0; font-size: 11pt; }
      section { break-before: auto; } h2 { break-after: avoid; } figure, table { break-inside: avoid; }
      details > summary { display: none; } details > .table { display: block; }
    }
    """

  var html: String {
    let outsideLine = outside.map { "<p id=\"outside\">\(HTML.escape($0))</p>" } ?? ""
    var out = """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="\(Self.policy)">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <meta name="generator" content="gym report">
      <title>\(HTML.escape(title))</title>
      <style>
      \(Self.style)
      </style>
      </head>
      <body>
      <header><h1>\(HTML.escape(title))</h1><p>\(HTML.escape(subtitle))</p>\(outsideLine)</header>

      """
    if sections.isEmpty {
      out += "<p class=\"empty\" id=\"no-data\">\(HTML.escape(empty))</p>\n"
    }
    var chartNumber = 0
    for section in sections {
      out += "<section id=\"\(HTML.escape(section.id))\">\n<h2>\(HTML.escape(section.title))</h2>\n"
      for chart in section.charts {
        chartNumber += 1
        let id = "chart\(chartNumber)"
        out += "<figure class=\"chart\" data-points=\"\(chart.points.count)\">\n<h3>\(HTML.escape(chart.title))</h3>\n"
        out += chart.kind == .categories ? CategoryBars(chart: chart).html : SVGChart(chart: chart, id: id).svg + "\n"
        out += "<details><summary>The numbers</summary>\n"
        out += table(
          columns: [chart.xLabel.isEmpty ? "item" : chart.xLabel, chart.yLabel],
          rows: chart.points.map { [$0.label, ChartLabel.text($0.value)] }, numeric: [1])
        out += "</details>\n</figure>\n"
      }
      for table in section.tables {
        out +=
          "<h3>\(HTML.escape(table.title))</h3>\n" + self.table(columns: table.columns, rows: table.rows, numeric: [])
      }
      out += "</section>\n"
    }
    return out + "</body>\n</html>\n"
  }

  func table(columns: [String], rows: [[String]], numeric: Set<Int>) -> String {
    var out =
      "<div class=\"table\"><table><thead><tr>" + columns.map { "<th scope=\"col\">\(HTML.escape($0))</th>" }.joined()
      + "</tr></thead><tbody>\n"
    for row in rows {
      out +=
        "<tr>"
        + row.enumerated().map { index, cell in
          "<td\(numeric.contains(index) ? " class=\"number\"" : "")>\(HTML.escape(cell))</td>"
        }.joined() + "</tr>\n"
    }
    return out + "</tbody></table></div>\n"
  }
}
