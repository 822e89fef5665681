import Crypto

/// Record keys worked out from their definition (Docs/Sync.md, "Keys"), apart from gym's code: the
/// first 8 bytes of SHA-256 over the parts, each followed by a zero byte, big-endian, masked to 53
/// bits.
enum RecordKeys {
  static func derived(_ parts: String...) -> Int64 { derived(parts) }

  static func derived(_ parts: [String]) -> Int64 {
    var bytes: [UInt8] = []
    for part in parts { bytes += Array(part.utf8) + [0] }
    let value = SHA256.hash(data: bytes).prefix(8).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
    return Int64(value & ((1 << 53) - 1))
  }

  /// A work without a Goodreads id: its title and its authors, lowered, sorted, joined by U+001F;
  /// a second work of the same parts (`--allow-duplicate`) has the ordinal 1 as a last part.
  static func work(_ title: String, authors: [String], ordinal: Int = 0) -> Int64 {
    let names = Set(authors.map(lowered)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let parts = ["work", lowered(title), names.joined(separator: "\u{1F}")]
    return derived(ordinal == 0 ? parts : parts + [String(ordinal)])
  }
  static func work(goodreadsId: Int) -> Int64 { derived("work", "goodreads", String(goodreadsId)) }
  static func author(_ name: String) -> Int64 { derived("author", lowered(name)) }

  /// ASCII letters lowered, every other character as it is (SQLite's `lower()`, `COLLATE NOCASE`).
  static func lowered(_ text: String) -> String {
    String(text.map { $0.isASCII && $0.isUppercase ? Character($0.lowercased()) : $0 })
  }
}
