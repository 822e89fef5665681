/// A number from outside input, written in decimal: `72`, `-0.5`, `.5`, `1e3`, `2.5E-2`. Swift's
/// `Double(String)` also reads hexadecimal (`0x10` is 16), `inf`, `nan` and `infinity`, which no
/// export or person means as a weight or a duration; those, and a result too large for a 64-bit
/// float, are nil here, so every reader refuses them as it refuses other text.
public enum DecimalNumber {
  public static func parse(_ text: some StringProtocol) -> Double? {
    var text = String(text)
    return text.withUTF8 { parse($0) }
  }

  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard isDecimal(bytes), let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else {
      return nil
    }
    return value
  }

  /// `[+-]? digits? (. digits?)? ([eE] [+-]? digits)?`, with at least one digit before the exponent.
  static func isDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
      return index - start
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
    var mantissa = digits()
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      mantissa += digits()
    }
    guard mantissa > 0 else { return false }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { return false }
    }
    return index == bytes.count
  }
}
