import GRDB
import GRDBSQLite
import GymCLI

/// Encodes the current row of a stepping SQLite statement straight into bytes, as NDJSON or CSV,
/// from the C API (no intermediate values): the export's inner loop.
struct RowEncoder {
  let format: ExportFormat
  let columns: [String]
  /// `{"name":` for each column, built once.
  private let keys: [[UInt8]]

  init(format: ExportFormat, columns: [String]) {
    self.format = format
    self.columns = columns
    keys = columns.enumerated().map { i, name in
      var key: [UInt8] = i == 0 ? [UInt8(ascii: "{")] : [UInt8(ascii: ",")]
      JSONText.appendString(name.utf8, to: &key)
      key.append(UInt8(ascii: ":"))
      return key
    }
  }

  /// The CSV header line.
  func header() -> [UInt8] {
    guard format == .csv else { return [] }
    var out: [UInt8] = []
    for (i, name) in columns.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      CSVText.append(name.utf8, to: &out)
    }
    out.append(contentsOf: [13, 10])
    return out
  }

  func append(_ statement: OpaquePointer, to out: inout [UInt8]) throws {
    for i in 0..<Int32(columns.count) {
      if format == .ndjson {
        out.append(contentsOf: keys[Int(i)])
      } else if i > 0 {
        out.append(UInt8(ascii: ","))
      }
      switch sqlite3_column_type(statement, i) {
      case SQLITE_NULL:
        if format == .ndjson { out.append(contentsOf: [110, 117, 108, 108]) }  // null; CSV: empty, unquoted
      case SQLITE_INTEGER:
        Self.appendInteger(sqlite3_column_int64(statement, i), to: &out)
      case SQLITE_FLOAT:
        // Swift's description is the shortest text that reads back as the same Double.
        let value = sqlite3_column_double(statement, i)
        guard value.isFinite else { throw ExportError("a REAL value is not finite in column \(columns[Int(i)])") }
        out.append(contentsOf: "\(value)".utf8)
      case SQLITE_TEXT:
        let count = Int(sqlite3_column_bytes(statement, i))
        let text = UnsafeBufferPointer(start: sqlite3_column_text(statement, i), count: count)
        if format == .ndjson {
          JSONText.appendString(text, to: &out)
        } else {
          CSVText.append(text, to: &out, quoteEmpty: true)
        }
      default:
        throw ExportError("column \(columns[Int(i)]) holds a BLOB; gym tables hold none")
      }
    }
    if format == .ndjson {
      out.append(contentsOf: [UInt8(ascii: "}"), 10])
    } else {
      out.append(contentsOf: [13, 10])
    }
  }

  static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
    if value == 0 {
      out.append(48)
      return
    }
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0
      )
    var magnitude = value.magnitude
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      while magnitude > 0 {
        buffer[count] = UInt8(48 + magnitude % 10)
        magnitude /= 10
        count += 1
      }
      if value < 0 { out.append(UInt8(ascii: "-")) }
      for j in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[j]) }
    }
  }
}

/// An export that cannot be written as asked.
struct ExportError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
