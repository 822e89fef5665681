extension StringProtocol {
  /// The text without leading and trailing white space (names, CSV cells, option values).
  public var trimmed: String {
    var s = Substring(self)
    while let c = s.first, c.isWhitespace { s = s.dropFirst() }
    while let c = s.last, c.isWhitespace { s = s.dropLast() }
    return String(s)
  }
}
