/// Writes a stream of records with the same columns to stdout in one format.
///
/// Stdout carries only records; the next-page cursor goes to stderr, except in `json`, whose one
/// document is `{"items": [...], "next": "<cursor>" | null}`.
public final class RecordWriter {
  public let format: OutputFormat
  public let columns: [String]
  private let out: BufferedOutput
  private var count = 0
  private var bytes: [UInt8] = []
  private var table: TableLayout?
  /// `--ids`: each identifier as `show`, `set` and `remove` take it, one per line (`IdentifierLine`).
  private let identifiers: IdentifierLine?

  /// `header: false` for `--ids`: the values alone, one line each.
  public init(format: OutputFormat, columns: [String], out: BufferedOutput = .standardOutput(), header: Bool = true) {
    self.format = format
    self.columns = columns
    self.out = out
    identifiers = !header && format == .tsv ? IdentifierLine(toTerminal: out.isTerminal) : nil
    bytes.reserveCapacity(512)
    switch format {
    case .csv:
      for (i, name) in columns.enumerated() {
        if i > 0 { bytes.append(44) }
        CSVText.append(name.utf8, to: &bytes)
      }
      bytes.append(contentsOf: [13, 10])
      out.write(bytes: bytes)
    case .tsv:
      guard header else { break }
      TSVText.appendLine(columns, to: &bytes)
      out.write(bytes: bytes)
    case .json: out.write("{\"items\":[")
    case .table: table = TableLayout(columns: columns, width: out.terminalWidth)
    case .ndjson: break
    }
  }

  public func write(_ cells: [Cell]) {
    switch format {
    case .ndjson, .json:
      bytes.removeAll(keepingCapacity: true)
      if format == .json && count > 0 { bytes.append(UInt8(ascii: ",")) }
      JSONText.appendObject(cells, names: columns, to: &bytes)
      if format == .ndjson { bytes.append(10) }
      out.write(bytes: bytes)
    case .csv:
      bytes.removeAll(keepingCapacity: true)
      for (i, cell) in cells.enumerated() {
        if i > 0 { bytes.append(44) }
        // NULL is an empty field, empty text a quoted one: the importers read them back apart.
        if cell != .null { CSVText.append(cell.plainText(localTime: false).utf8, to: &bytes, quoteEmpty: true) }
      }
      bytes.append(contentsOf: [13, 10])
      out.write(bytes: bytes)
    case .tsv:
      bytes.removeAll(keepingCapacity: true)
      if let identifiers, cells.count == 1 {
        identifiers.append(cells[0] == .null ? "" : cells[0].plainText(localTime: false), to: &bytes)
      } else {
        TSVText.appendLine(cells.map { $0 == .null ? nil : $0.plainText(localTime: false) }, to: &bytes)
      }
      out.write(bytes: bytes)
    case .table:
      table?.add(cells, to: out)
    }
    count += 1
  }

  /// Ends the output; `next` is the cursor of the following page, if there is one.
  public func finish(next: String?) {
    switch format {
    case .json:
      out.write("],\"next\":" + (next.map(JSONText.string) ?? "null") + "}\n")
    case .table:
      table?.finish(to: out)
    default: break
    }
    out.flush()
    if let next, format != .json {
      printNote("next page: --after \(next)", isResult: true)
    }
  }
}
