#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A series as one line above a table, oldest to newest: `e1RM (kg)  114 █▇▅▁ 80  (min 80, max 122.5)`,
/// the first and the last value drawn on either side, so the line reads the way the series went, and
/// the lowest and highest after it. Each value is one of eight levels between the lowest and the
/// highest; a series that never changes is a flat line of the lowest level; a missing value is a
/// space. Fits the width given (the latest values when there are more), and uses plain characters
/// (`_.-=+*#@`) where the terminal cannot show block elements.
public struct Sparkline: Sendable {
  public static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
  public static let plain: [Character] = ["_", ".", "-", "=", "+", "*", "#", "@"]

  public let label: String
  public let ascii: Bool

  public init(label: String, ascii: Bool) {
    self.label = label
    self.ascii = ascii
  }

  /// Level 0 … 7 of `value` between `low` and `high` (the lowest when they are equal: a flat line).
  public static func level(_ value: Double, low: Double, high: Double) -> Int {
    guard high > low else { return 0 }
    return min(7, max(0, Int(((value - low) / (high - low) * 7).rounded())))
  }

  /// The line, at most `width` columns; nil when there is nothing to draw or no room for 4 values.
  public func render(_ values: [Double?], width: Int) -> String? {
    // A value that is not a finite number is drawn as missing.
    let values = values.map { $0.flatMap { $0.isFinite ? $0 : nil } }
    let glyphs = ascii ? Self.plain : Self.blocks
    // The most of the latest values that fit with their labels (which depend on what is shown); cut
    // to fewer than four, a line says too little.
    for count in stride(from: min(values.count, width), through: min(4, values.count), by: -1) {
      let shown = values.suffix(count)
      let known = shown.compactMap { $0 }
      guard let first = known.first, let last = known.last, let low = known.min(), let high = known.max() else {
        return nil
      }
      let range = high > low ? "  (min \(ChartLabel.text(low)), max \(ChartLabel.text(high)))" : ""
      let firstText = ChartLabel.text(first)
      let lastText = ChartLabel.text(last)
      guard label.count + 4 + firstText.count + count + lastText.count + range.count <= width else { continue }
      let line = String(shown.map { $0.map { glyphs[Self.level($0, low: low, high: high)] } ?? " " })
      return "\(label)  \(firstText) \(line) \(lastText)\(range)"
    }
    return nil
  }

  /// Block elements need a UTF-8 locale: `LC_ALL`, else `LC_CTYPE`, else `LANG` says so.
  public static var terminalIsUTF8: Bool {
    for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
      guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { continue }
      let lower = value.lowercased()
      return lower.contains("utf-8") || lower.contains("utf8")
    }
    return false
  }
}
