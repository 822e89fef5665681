/// A plain-text table fitted to the terminal. Widths come from the first rows (up to 1,000, so a
/// long listing still streams) and are measured in terminal columns (`DisplayWidth`). When a line is
/// too long, free text (titles, notes, names) shrinks with `…`, widest first; identifiers, dates and
/// numbers are never cut: if the table still does not fit, columns are left out from the right, and
/// a note says which. Lines never end in spaces.
final class TableLayout {
  private let columns: [String]
  private let width: Int?
  private var pending: [[Cell]] = []
  private var widths: [Int]?
  /// How many columns are shown: the first ones, when the rest do not fit.
  private var shown = 0
  private var numeric: [Bool]
  private static let sampleSize = 1000
  /// Free text shrinks no narrower than this (or its header, or its widest value, if less).
  static let shortestText = 10

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
    var natural = columns.map(DisplayWidth.of)
    var freeText = columns.map { $0 != "id" && !$0.hasSuffix("Id") }
    for row in pending {
      for (i, cell) in row.enumerated() {
        natural[i] = max(natural[i], DisplayWidth.of(cell.displayText))
        switch cell {
        case .null: break
        case .text: numeric[i] = false
        default:
          freeText[i] = false
          if !cell.isNumeric { numeric[i] = false }
        }
      }
    }
    let fitted = width.map { Self.fit(natural, freeText: freeText, headers: columns, into: $0) }
    widths = fitted?.widths ?? natural
    shown = fitted?.shown ?? columns.count
    if shown < columns.count {
      printNote(
        "gym: \(columns[shown...].joined(separator: ", ")) left out to fit \(width ?? 0) columns; "
          + "--fields chooses the columns, COLUMNS sets the width")
    }
    out.write(line(columns, alignRight: Array(repeating: false, count: columns.count)))
    for row in pending { emit(row, to: out) }
    pending = []
  }

  private func emit(_ cells: [Cell], to out: BufferedOutput) {
    out.write(line(cells.map(\.displayText), alignRight: numeric))
  }

  private func line(_ texts: [String], alignRight: [Bool]) -> String {
    guard let widths else { return "" }
    var text = ""
    for i in 0..<shown {
      let value = texts[i]
      let valueWidth = DisplayWidth.of(value)
      let clipped =
        valueWidth > widths[i] ? DisplayWidth.prefix(value, fitting: max(widths[i] - 1, 0)) + "…" : value
      let pad = String(repeating: " ", count: max(widths[i] - DisplayWidth.of(clipped), 0))
      if i > 0 { text += "  " }
      text += alignRight[i] ? pad + clipped : clipped + pad
    }
    return text.withoutTrailingSpaces + "\n"
  }

  /// The widths that fit `total` columns and how many columns are shown: as many columns as fit
  /// once their free text has shrunk, widest first, down to `shortestText` (the first one always).
  static func fit(_ natural: [Int], freeText: [Bool], headers: [String], into total: Int) -> (
    widths: [Int], shown: Int
  ) {
    let floors = natural.indices.map { i in
      freeText[i] ? min(natural[i], max(shortestText, DisplayWidth.of(headers[i]))) : natural[i]
    }
    var shown = natural.count
    while true {
      var widths = Array(natural.prefix(shown))
      let separators = max(shown - 1, 0) * 2
      var length = widths.reduce(0, +) + separators
      while length > total,
        let widest = widths.indices.filter({ widths[$0] > floors[$0] }).max(by: { widths[$0] < widths[$1] })
      {
        widths[widest] -= 1
        length -= 1
      }
      if length <= total || shown == 1 { return (widths + natural.dropFirst(shown), shown) }
      shown -= 1
    }
  }
}
