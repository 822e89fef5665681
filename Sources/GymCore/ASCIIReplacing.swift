extension String {
  /// Every `character` (ASCII) replaced by `replacement`, byte by byte. The paths every command takes
  /// (identifier quoting, the page cursor, table cells) use this instead of a generic search:
  /// Foundation's bridges through `NSString` on Linux and the standard library's instantiates its
  /// searchers at run time, each a few tenths of a millisecond on first use. An ASCII byte never
  /// occurs inside a multi-byte UTF-8 sequence, so the result is valid UTF-8.
  public func replacingASCII(_ character: Unicode.Scalar, with replacement: String) -> String {
    precondition(character.isASCII, "replacingASCII takes an ASCII character")
    let byte = UInt8(character.value)
    guard utf8.contains(byte) else { return self }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count + replacement.utf8.count)
    for b in utf8 {
      if b == byte { bytes.append(contentsOf: replacement.utf8) } else { bytes.append(b) }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
