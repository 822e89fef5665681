import Foundation
import GRDB

/// An opaque position after which the next page starts: the sort keys and rowid of the last row.
///
/// Its text form is base64url of `sortspec|value|value…`, so it survives shells and URLs; it is
/// checked against the query's order before use, since a cursor from another order means nothing.
public struct PageCursor: Sendable, Equatable {
  public let sortSpec: String
  public let values: [DatabaseValue]

  /// The position after a row whose sort keys and rowid are `values`.
  public init(sort: [SortKey], values: [DatabaseValue]) {
    self.sortSpec = Self.spec(sort)
    self.values = values
  }

  static func spec(_ sort: [SortKey]) -> String {
    sort.map { $0.field + ($0.descending ? "-" : "+") }.joined(separator: ",")
  }

  public var encoded: String {
    let parts = [sortSpec] + values.map(Self.encode)
    let data = Data(Array(parts.joined(separator: "\u{1F}").utf8))
    // base64url without padding.
    return data.base64EncodedString().replacingASCII("+", with: "-").replacingASCII("/", with: "_")
      .replacingASCII("=", with: "")
  }

  public init(decoding text: String) throws(StoreError) {
    var base64 = text.replacingASCII("-", with: "+").replacingASCII("_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64), let plain = String(data: data, encoding: .utf8) else {
      throw StoreError.invalidCursor("'\(text)' is not a cursor")
    }
    let parts = plain.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
    var values: [DatabaseValue] = []
    for part in parts.dropFirst() {
      guard let value = Self.decode(part) else {
        throw StoreError.invalidCursor("'\(text)' is damaged")
      }
      values.append(value)
    }
    self.sortSpec = parts[0]
    self.values = values
  }

  private static func encode(_ value: DatabaseValue) -> String {
    switch value.storage {
    case .null: "n"
    case .int64(let i): "i\(i)"
    case .double(let d): "r\(d)"
    case .string(let s): "t" + s
    case .blob: "n"
    }
  }

  private static func decode(_ text: String) -> DatabaseValue? {
    guard let tag = text.first else { return nil }
    let body = String(text.dropFirst())
    switch tag {
    case "n": return .null
    case "i": return Int64(body).map(\.databaseValue)
    case "r": return Double(body).map(\.databaseValue)
    case "t": return body.databaseValue
    default: return nil
    }
  }

  /// The condition "after this row" in the given order, ending with rowid.
  func condition(for sort: [SortKey], table: TableSchema) throws(StoreError) -> (String, [DatabaseValue]) {
    guard sortSpec == Self.spec(sort), values.count == sort.count + 1 else {
      throw StoreError.invalidCursor("it was made for another order (\(sortSpec))")
    }
    // The row key, last, is what makes the position one row: a cursor gym made always has it.
    guard case .int64 = values[sort.count].storage else {
      throw StoreError.invalidCursor("it names no row (edited?)")
    }
    let columns = sort.map { table.columnSQL($0.field) } + [table.rowKeySQL]
    let descending = sort.map(\.descending) + [sort.last?.descending ?? false]
    // Whether a key can be NULL (the row key never is). SQLite orders NULL first ascending and last
    // descending; a comparison with NULL is never true, so such keys need their own terms.
    let nullable = sort.map { table.field(named: $0.field)?.isNullable ?? true } + [false]
    let anyNull = values.contains { $0.isNull }
    if Set(descending).count == 1 && !anyNull && !(descending[0] && nullable.contains(true)) {
      // One direction and no NULL to pass: a row value, which SQLite matches against the index in one
      // range. (Ascending, the NULLs a nullable key holds come before any value, so none is skipped.)
      let op = descending[0] ? "<" : ">"
      let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
      return ("(\(columns.joined(separator: ", "))) \(op) (\(marks))", values)
    }
    // Row i comes after the cursor when the keys before i equal the cursor's and key i is past it.
    var terms: [String] = []
    var arguments: [DatabaseValue] = []
    for i in columns.indices {
      var parts: [String] = []
      var termArguments: [DatabaseValue] = []
      for j in 0..<i {
        if values[j].isNull {
          parts.append("\(columns[j]) IS NULL")
        } else {
          parts.append("\(columns[j]) = ?")
          termArguments.append(values[j])
        }
      }
      switch (values[i].isNull, descending[i]) {
      case (true, false): parts.append("\(columns[i]) IS NOT NULL")  // every value follows NULL
      case (true, true): continue  // nothing follows NULL descending
      case (false, false): parts.append("\(columns[i]) > ?")
      case (false, true):
        parts.append(nullable[i] ? "(\(columns[i]) < ? OR \(columns[i]) IS NULL)" : "\(columns[i]) < ?")
      }
      if !values[i].isNull { termArguments.append(values[i]) }
      terms.append("(" + parts.joined(separator: " AND ") + ")")
      arguments += termArguments
    }
    return ("(" + terms.joined(separator: " OR ") + ")", arguments)
  }
}
