/// The one JSON string escaper: every list, record and export writes strings through it.
public enum JSONText {
  /// `s` as a JSON string literal, escaping quotes, backslashes and control characters (NUL as `\u0000`).
  public static func appendString(_ s: String, to out: inout [UInt8]) {
    appendString(s.utf8, to: &out)
  }

  @inlinable
  public static func appendString<Bytes: Collection<UInt8>>(_ bytes: Bytes, to out: inout [UInt8]) {
    out.append(34)
    for byte in bytes {
      switch byte {
      case 34: out.append(contentsOf: [92, 34])
      case 92: out.append(contentsOf: [92, 92])
      case 10: out.append(contentsOf: [92, 110])
      case 13: out.append(contentsOf: [92, 114])
      case 9: out.append(contentsOf: [92, 116])
      case 0..<32:
        let hex: (UInt8) -> UInt8 = { $0 < 10 ? 48 + $0 : 87 + $0 }
        out.append(contentsOf: [92, 117, 48, 48, hex(byte >> 4), hex(byte & 15)])
      default: out.append(byte)
      }
    }
    out.append(34)
  }

  /// `{"name":value,…}` for one record, appended to `out`.
  public static func appendObject(_ cells: [Cell], names: [String], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "{"))
    for (i, cell) in cells.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      appendString(names[i], to: &out)
      out.append(UInt8(ascii: ":"))
      cell.appendJSON(to: &out)
    }
    out.append(UInt8(ascii: "}"))
  }

  public static func string(_ s: String) -> String {
    var out: [UInt8] = []
    appendString(s, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
