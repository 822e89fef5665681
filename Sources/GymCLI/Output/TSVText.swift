/// Tab-separated values for `cut`, `awk` and spreadsheets: one record per line, fields split by a
/// tab. A tab, line break or backslash inside a value is written `\t`, `\n`, `\r`, `\\`, so every
/// record stays one line; NULL is an empty field.
public enum TSVText {
  public static func append<Bytes: Collection<UInt8>>(_ bytes: Bytes, to out: inout [UInt8]) {
    for byte in bytes {
      switch byte {
      case 9: out.append(contentsOf: [92, 116])
      case 10: out.append(contentsOf: [92, 110])
      case 13: out.append(contentsOf: [92, 114])
      case 92: out.append(contentsOf: [92, 92])
      default: out.append(byte)
      }
    }
  }

  /// One line: the values, tab-separated, ending in a line feed.
  public static func appendLine(_ values: [String?], to out: inout [UInt8]) {
    for (i, value) in values.enumerated() {
      if i > 0 { out.append(9) }
      if let value { append(value.utf8, to: &out) }
    }
    out.append(10)
  }
}
