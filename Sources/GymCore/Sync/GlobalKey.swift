import Crypto
import GRDB

/// Primary keys that mean the same row on every device, so a changeset made on one applies to the
/// same rows on another: a record with a natural key (an item's name) gets a key derived from it,
/// one without (a stock lot) a random one. Both are positive and below 2^53, exact as a JSON number.
///
/// The derivation is part of the schema (migration `staples/004-global-keys` calls it through
/// `gym_key`) and never changes: the first 8 bytes of SHA-256 over the parts, each followed by a
/// zero byte, big-endian, masked to 53 bits.
public enum GlobalKey {
  public static let mask: Int64 = (1 << 53) - 1

  /// The key of a record named by `parts` (its table first): the same on every device.
  public static func derived(_ parts: [String]) -> Int64 {
    var bytes: [UInt8] = []
    for part in parts {
      bytes.append(contentsOf: part.utf8)
      bytes.append(0)
    }
    let digest = SHA256.hash(data: bytes)
    let value = digest.prefix(8).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
    return Int64(bitPattern: value) & mask
  }

  public static func derived(_ parts: String...) -> Int64 { derived(parts) }

  /// The key of `parts`, or of `parts` and the ordinal as a last part unless it is 0: two records
  /// whose parts are the same told apart (`firstFree`).
  public static func numbered(_ parts: [String], _ ordinal: Int) -> Int64 {
    derived(ordinal == 0 ? parts : parts + [String(ordinal)])
  }

  /// ASCII letters lowered, every other byte as it is: what SQLite's `lower()` does without ICU, so
  /// a name keys the same in Swift and in a migration's SQL.
  public static func lowered(_ text: String) -> String {
    String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
  }

  /// The first of `candidate(start)`, `candidate(start + 1)`, … that no row of `table` has as
  /// `column`: a key derived from what two different records may share (two undated readings of one
  /// book) is told apart by its ordinal, the same on every device that holds the same rows. `start`
  /// is how many such records there are already, so the thousandth is found at once.
  public static func firstFree(
    _ db: Database, table: String, column: String = "id", start: Int = 0, candidate: (Int) throws -> Int64
  ) throws -> Int64 {
    let taken = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(column) = ?)")
    for ordinal in start..<(start + 10_000) {
      let key = try candidate(ordinal)
      if try !(Bool.fetchOne(taken, arguments: [key]) ?? false) { return key }
    }
    throw DatabaseError(message: "no free key in \(table) after 10,000 tries")
  }

  /// A key for a record with no natural one. With 2^53 values, two devices' keys meet with
  /// probability n²/2^54 (1 in 1.8 million at 100,000 records).
  public static func random() -> Int64 {
    var generator = SystemRandomNumberGenerator()
    return Int64.random(in: 1...mask, using: &generator)
  }

  /// `gym_key(part, …)`: `derived` for SQL (a migration re-keying rows). Integers take their
  /// decimal form, as `String(_:)` writes them; NULL is refused.
  public static let sqlFunction = DatabaseFunction("gym_key", argumentCount: nil, pure: true) { values in
    let parts = try values.map { value -> String in
      switch value.storage {
      case .string(let text): return text
      case .int64(let number): return String(number)
      default: throw DatabaseError(message: "gym_key takes text and integers")
      }
    }
    return derived(parts)
  }
}
