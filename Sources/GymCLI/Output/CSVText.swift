/// The one CSV quoter (RFC 4180): every list, record and export writes fields through it.
public enum CSVText {
  /// Appends one field, quoted when it holds a comma, quote, CR or LF, and, with `quoteEmpty`, when
  /// it is empty, so that `""` (empty text) differs from an empty field (NULL).
  @inlinable
  public static func append<Bytes: Collection<UInt8>>(_ bytes: Bytes, to out: inout [UInt8], quoteEmpty: Bool = false) {
    var needsQuotes = quoteEmpty && bytes.isEmpty
    for byte in bytes where byte == 44 || byte == 34 || byte == 10 || byte == 13 {
      needsQuotes = true
      break
    }
    guard needsQuotes else {
      out.append(contentsOf: bytes)
      return
    }
    out.append(34)
    for byte in bytes {
      if byte == 34 { out.append(34) }
      out.append(byte)
    }
    out.append(34)
  }
}
