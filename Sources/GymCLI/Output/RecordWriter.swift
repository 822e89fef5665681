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

  public init(format: OutputFormat, columns: [String], out: BufferedOutput = .standardOutput()) {
    self.format = format
    self.columns = columns
    self.out = out
    bytes.reserveCapacity(512)
    switch format {
    case .csv: out.write(columns.map(CSVText.field).joined(separator: ",") + "\r\n")
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
      out.write(cells.map { CSVText.field($0.plainText(localTime: false)) }.joined(separator: ",") + "\r\n")
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
      printError("next page: --after \(next)")
    }
  }
}

public enum CSVText {
  /// One RFC 4180 field: quoted when it holds a comma, quote, CR or LF.
  public static func field(_ s: String) -> String {
    guard s.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return s }
    return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
