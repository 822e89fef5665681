#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A series as one line above a table: `e1RM (kg)  80 ▁▃▅▆█ 128`, the lowest and highest values
/// labelled on either side. Each value is one of eight levels between them; a missing value is a
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

  /// Level 0 … 7 of `value` between `low` and `high` (all the top level when they are equal).
  public static func level(_ value: Double, low: Double, high: Double) -> Int {
    guard high > low else { return 7 }
    return min(7, max(0, Int(((value - low) / (high - low) * 7).rounded())))
  }

  /// The line, at most `width` columns; nil when there is nothing to draw.
  public func render(_ values: [Double?], width: Int) -> String? {
    // A value that is not a finite number is drawn as missing.
    let values = values.map { $0.flatMap { $0.isFinite ? $0 : nil } }
    let known = values.compactMap { $0 }
    guard let low = known.min(), let high = known.max() else { return nil }
    let lowText = ChartLabel.text(low)
    let highText = ChartLabel.text(high)
    let room = width - label.count - lowText.count - highText.count - 5
    guard room >= 4 else { return nil }
    let glyphs = ascii ? Self.plain : Self.blocks
    let line = String(values.suffix(room).map { $0.map { glyphs[Self.level($0, low: low, high: high)] } ?? " " })
    return "\(label)  \(lowText) \(line) \(highText)"
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
