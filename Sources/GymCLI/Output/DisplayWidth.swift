import CGymWidth

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many terminal columns text takes: the C library's `wcwidth` (Unicode's East Asian Width, so a
/// CJK character or an emoji takes two, a combining mark none), taken per grapheme cluster, so an
/// emoji built of several code points (a flag, a family, a skin tone) takes the two it shows as.
enum DisplayWidth {
  /// `wcwidth` answers for Unicode only under a UTF-8 character type, given to each call (the
  /// process's locale is left as it is). Made once, never changed: safe to share across threads.
  nonisolated(unsafe) private static let utf8: locale_t? = gym_utf8_ctype()

  static func of(_ text: String) -> Int {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
    return text.reduce(0) { $0 + of($1) }
  }

  static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.isASCII { return 1 }
    // U+FE0F asks for the emoji presentation: two columns, whatever the base character.
    if scalars.contains("\u{FE0F}") || first.properties.isEmojiPresentation { return 2 }
    guard let utf8 = Self.utf8 else { return 1 }
    return scalars.reduce(0) { widest, scalar in max(widest, Int(gym_wcwidth(scalar.value, utf8))) }
  }

  /// The longest start of `text` that fits in `width` columns.
  static func prefix(_ text: String, fitting width: Int) -> String {
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let next = used + of(text[index])
      guard next <= width else { break }
      used = next
      end = text.index(after: index)
    }
    return String(text[..<end])
  }
}
