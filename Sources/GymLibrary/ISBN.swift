import GymCLI

/// ISBN-10 and ISBN-13: cleaning what exports write and checking the check digit.
public enum ISBN {
  /// What a cell holds once the spreadsheet wrapping is gone: `="0140449132"` → `0140449132`,
  /// hyphens and spaces removed, `x` upper-cased. nil when nothing is left (`=""`).
  public static func cleaned(_ text: String) -> String? {
    var s = Substring(text.trimmed)
    if s.hasPrefix("=") { s = s.dropFirst() }
    let kept = s.filter { $0 != "-" && $0 != " " && $0 != "\"" }.uppercased()
    return kept.isEmpty ? nil : kept
  }

  /// A cleaned ISBN with a valid check digit, as (isbn10, isbn13): one of them set. nil when
  /// the text is not an ISBN.
  public static func parse(_ text: String) -> (isbn10: String?, isbn13: String?)? {
    guard let isbn = cleaned(text) else { return nil }
    if isValid10(isbn) { return (isbn, nil) }
    if isValid13(isbn) { return (nil, isbn) }
    return nil
  }

  /// Nine digits and a check digit (0–9 or X): the weighted sum 10…1 is a multiple of 11.
  public static func isValid10(_ isbn: String) -> Bool {
    let characters = Array(isbn.utf8)
    guard characters.count == 10 else { return false }
    var sum = 0
    for (i, c) in characters.enumerated() {
      let digit: Int
      if c >= 48 && c <= 57 {
        digit = Int(c - 48)
      } else if c == UInt8(ascii: "X") && i == 9 {
        digit = 10
      } else {
        return false
      }
      sum += digit * (10 - i)
    }
    return sum % 11 == 0
  }

  /// Thirteen digits: weights 1 and 3 alternating, the sum a multiple of 10.
  public static func isValid13(_ isbn: String) -> Bool {
    let characters = Array(isbn.utf8)
    guard characters.count == 13, characters.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return false }
    return checkDigit13(isbn) == Int(characters[12] - 48)
  }

  /// The same book's other form: ISBN-10 ↔ the 978-prefixed ISBN-13 (979 ones have no ISBN-10).
  public static func otherForm(_ isbn: String) -> String? {
    if isValid10(isbn) {
      let body = "978" + isbn.prefix(9)
      return body + String(checkDigit13(body))
    }
    guard isValid13(isbn), isbn.hasPrefix("978") else { return nil }
    let body = String(isbn.dropFirst(3).prefix(9))
    let sum = body.utf8.enumerated().reduce(0) { $0 + Int($1.element - 48) * (10 - $1.offset) }
    let check = (11 - sum % 11) % 11
    return body + (check == 10 ? "X" : String(check))
  }

  /// The check digit of the first twelve digits of an ISBN-13.
  public static func checkDigit13(_ body: String) -> Int {
    let sum = body.utf8.prefix(12).enumerated().reduce(0) { $0 + Int($1.element - 48) * ($1.offset % 2 == 0 ? 1 : 3) }
    return (10 - sum % 10) % 10
  }
}
