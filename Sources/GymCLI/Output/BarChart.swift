/// A series as horizontal bars, one line per value, the largest filling the room the width leaves (up
/// to 40 columns):
/// `2026-03  ███████▌      9`. Each line carries its label and its value, so the scale is read off
/// the bars themselves; a bar is drawn to an eighth of a character (`▏▎▍▌▋▊▉█`), or with `#` where
/// the terminal cannot show block elements. Zero is an empty bar, a missing value a blank one.
public struct BarChart: Sendable {
  public static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]
  public static let maximumBar = 40

  public let title: String
  public let ascii: Bool

  public init(title: String, ascii: Bool) {
    self.title = title
    self.ascii = ascii
  }

  /// The bar of `value` out of `high` in `room` columns, padded to `room`.
  func bar(_ value: Double, high: Double, room: Int) -> String {
    guard high > 0, value > 0 else { return String(repeating: " ", count: room) }
    let eighthsLong = Int((value / high * Double(room * 8)).rounded())
    let full = eighthsLong / 8
    let rest = eighthsLong % 8
    var text: String
    if ascii {
      text = String(repeating: "#", count: max(full + (rest >= 4 ? 1 : 0), 1))
    } else {
      text = String(repeating: "█", count: full)
      if rest > 0 { text.append(Self.eighths[rest - 1]) }
      if text.isEmpty { text = "▏" }  // a small value still shows
    }
    return text + String(repeating: " ", count: max(0, room - text.count))
  }

  /// The chart's lines, its title first, at most `width` columns each; nil when there is nothing to
  /// draw (no value above zero, or no room).
  public func render(_ rows: [(label: String, value: Double?)], width: Int) -> [String]? {
    // A value that is not a finite number is drawn as missing.
    let rows = rows.map { (label: $0.label, value: $0.value.flatMap { $0.isFinite ? $0 : nil }) }
    let known = rows.compactMap(\.value)
    guard let high = known.max(), high > 0 else { return nil }
    let labelWidth = rows.map(\.label.count).max() ?? 0
    let values = rows.map { $0.value.map(ChartLabel.text) ?? "" }
    let valueWidth = values.map(\.count).max() ?? 0
    // At most `maximumBar` columns: a wide terminal gets a chart, not a wall of blocks.
    let room = min(width - labelWidth - valueWidth - 4, Self.maximumBar)
    guard room >= 4 else { return nil }
    return [title]
      + zip(rows, values).map { row, value in
        let label = row.label + String(repeating: " ", count: labelWidth - row.label.count)
        let drawn = row.value.map { bar($0, high: high, room: room) } ?? String(repeating: " ", count: room)
        return "\(label)  \(drawn)  \(String(repeating: " ", count: valueWidth - value.count))\(value)"
      }
  }
}
