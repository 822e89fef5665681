/// A plain-text table fitted to the terminal: widths come from the first rows (up to 1,000, so
/// a long listing still streams), the widest columns shrink with `…` when the line is too long.
final class TableLayout {
  private let columns: [String]
  private let width: Int?
  private var pending: [[Cell]] = []
  private var widths: [Int]?
  private var numeric: [Bool]
  private static let sampleSize = 1000

  init(columns: [String], width: Int?) {
    self.columns = columns
    self.width = width
    self.numeric = Array(repeating: true, count: columns.count)
  }

  func add(_ cells: [Cell], to out: BufferedOutput) {
    if widths != nil {
      emit(cells, to: out)
      return
    }
    pending.append(cells)
    if pending.count >= Self.sampleSize { layOut(to: out) }
  }

  func finish(to out: BufferedOutput) {
    if widths == nil { layOut(to: out) }
  }

  private func layOut(to out: BufferedOutput) {
    var widths = columns.map(\.count)
    for row in pending {
      for (i, cell) in row.enumerated() {
        widths[i] = max(widths[i], cell.displayText.count)
        if !cell.isNumeric && cell != .null { numeric[i] = false }
      }
    }
    if let width { widths = Self.fit(widths, into: width) }
    self.widths = widths
    out.write(line(columns, alignRight: Array(repeating: false, count: columns.count)))
    for row in pending { emit(row, to: out) }
    pending = []
  }

  private func emit(_ cells: [Cell], to out: BufferedOutput) {
    out.write(line(cells.map(\.displayText), alignRight: numeric))
  }

  private func line(_ texts: [String], alignRight: [Bool]) -> String {
    guard let widths else { return "" }
    var parts: [String] = []
    for (i, text) in texts.enumerated() {
      let clipped = text.count > widths[i] ? String(text.prefix(max(widths[i] - 1, 0))) + "…" : text
      let pad = String(repeating: " ", count: max(widths[i] - clipped.count, 0))
      parts.append(alignRight[i] ? pad + clipped : (i == texts.count - 1 ? clipped : clipped + pad))
    }
    return parts.joined(separator: "  ") + "\n"
  }

  /// Shrinks the widest columns, one character at a time, until the row fits (at least 4 each).
  static func fit(_ widths: [Int], into total: Int) -> [Int] {
    var widths = widths
    let separators = max(widths.count - 1, 0) * 2
    while widths.reduce(0, +) + separators > total {
      guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 4 else {
        break
      }
      widths[widest] -= 1
    }
    return widths
  }
}
