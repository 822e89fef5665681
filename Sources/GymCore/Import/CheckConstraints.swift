import GRDB

/// A table's CHECK constraints as its `CREATE TABLE` states them, and the rows that break them.
/// A bulk append into a table whose every CHECK its fields' validation already enforces skips
/// SQLite's row-by-row re-check (which rebuilds each `IN (…)` list for every row: 9 s of a
/// 1,000,000-row load in the shell) and runs this one scan after it instead.
public enum CheckConstraints {
  /// Each CHECK's expression, in the order written: the text inside its parentheses.
  public static func expressions(inCreateTable sql: String) -> [String] {
    let bytes = Array(sql.utf8)
    var found: [String] = []
    var i = 0
    func isWordByte(_ b: UInt8) -> Bool { b == 95 || (b >= 48 && b <= 57) || ((b | 0x20) >= 97 && (b | 0x20) <= 122) }
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "`") {
        i = closing(bytes, from: i) + 1
        continue
      }
      let word = Array("check".utf8)
      if i + word.count <= bytes.count, i == 0 || !isWordByte(bytes[i - 1]),
        zip(bytes[i..<i + word.count], word).allSatisfy({ $0 | 0x20 == $1 }),
        i + word.count == bytes.count || !isWordByte(bytes[i + word.count])
      {
        var j = i + word.count
        while j < bytes.count, bytes[j] == 32 || bytes[j] == 10 || bytes[j] == 9 || bytes[j] == 13 { j += 1 }
        if j < bytes.count, bytes[j] == UInt8(ascii: "(") {
          var depth = 0
          var k = j
          while k < bytes.count {
            let c = bytes[k]
            if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "`") {
              k = closing(bytes, from: k)
            } else if c == UInt8(ascii: "(") {
              depth += 1
            } else if c == UInt8(ascii: ")") {
              depth -= 1
              if depth == 0 { break }
            }
            k += 1
          }
          found.append(String(decoding: bytes[(j + 1)..<min(k, bytes.count)], as: UTF8.self))
          i = k + 1
          continue
        }
      }
      i += 1
    }
    return found
  }

  /// The position of the quote that closes the one at `start` (a doubled quote is part of the text).
  private static func closing(_ bytes: [UInt8], from start: Int) -> Int {
    let quote = bytes[start]
    var k = start + 1
    while k < bytes.count {
      if bytes[k] == quote {
        if k + 1 < bytes.count, bytes[k + 1] == quote {
          k += 2
          continue
        }
        return k
      }
      k += 1
    }
    return bytes.count
  }

  /// The table's CHECK expressions, read from the schema.
  public static func expressions(_ db: Database, table: String) throws -> [String] {
    let sql = try String.fetchOne(
      db, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", arguments: [table])
    return sql.map(expressions(inCreateTable:)) ?? []
  }

  /// The first row (its rowid, and the CHECK it breaks) that breaks one of the table's CHECKs, as
  /// SQLite decides it: a CHECK fails only when its expression is false (NULL passes), which is
  /// exactly when `NOT (expression)` is true. `rowids`: only the rows in that range.
  public static func firstViolation(
    _ db: Database, table: String, rowids: ClosedRange<Int64>? = nil
  ) throws -> (rowid: Int64, check: String)? {
    let checks = try expressions(db, table: table)
    guard !checks.isEmpty else { return nil }
    let name = SQL.quote(table)
    let broken = checks.map { "NOT (\($0))" }.joined(separator: " OR ")
    // One pass over the table, every CHECK at once; then which one the row breaks.
    let found: Int64?
    if let rowids {
      found = try Int64.fetchOne(
        db, sql: "SELECT rowid FROM \(name) WHERE rowid BETWEEN ? AND ? AND (\(broken)) ORDER BY rowid LIMIT 1",
        arguments: [rowids.lowerBound, rowids.upperBound])
    } else {
      found = try Int64.fetchOne(db, sql: "SELECT rowid FROM \(name) WHERE \(broken) ORDER BY rowid LIMIT 1")
    }
    guard let rowid = found else { return nil }
    let check = try checks.first { check in
      try Bool.fetchOne(db, sql: "SELECT NOT (\(check)) FROM \(name) WHERE rowid = ?", arguments: [rowid]) == true
    }
    // The pass above found the row by one of them; should none answer alone, name them all.
    return (rowid, check ?? checks.joined(separator: ") AND ("))
  }
}
