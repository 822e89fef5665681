import GRDB
import GymCore

/// One value on its way out, typed by its field so each format can write it properly.
public enum Cell: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  case text(String)
  /// Canonical ISO 8601 UTC text, as the store keeps it.
  case timestamp(String)

  public init(_ value: DatabaseValue, type: FieldType) {
    switch value.storage {
    case .null: self = .null
    case .int64(let i): self = type == .bool ? .bool(i != 0) : .integer(i)
    case .double(let d): self = .real(d)
    case .string(let s): self = type == .timestamp ? .timestamp(s) : .text(s)
    case .blob(let data): self = .text("<\(data.count) bytes>")
    }
  }

  /// Column `index` of a row read from a cursor, its text whole even with a NUL inside.
  public init(_ row: Row, at index: Int, type: FieldType) {
    let value = row[index] as DatabaseValue
    if case .string(let shown) = value.storage, let whole = ExactValues.longerText(row, at: index, than: shown) {
      self = type == .timestamp ? .timestamp(whole) : .text(whole)
    } else {
      self.init(value, type: type)
    }
  }

  /// The value as the store keeps it (generators insert cells directly).
  public var databaseValue: DatabaseValue {
    switch self {
    case .null: .null
    case .integer(let i): i.databaseValue
    case .real(let d): d.databaseValue
    case .bool(let b): (b ? 1 : 0).databaseValue
    case .text(let s), .timestamp(let s): s.databaseValue
    }
  }

  /// Text for CSV and the table (`localTime` for people).
  public func plainText(localTime: Bool) -> String {
    switch self {
    case .null: ""
    case .integer(let i): String(i)
    case .real(let d): Self.format(d)
    case .bool(let b): b ? "true" : "false"
    case .text(let s): s
    case .timestamp(let s): localTime ? (Timestamp(parsing: s)?.localDescription ?? s) : s
    }
  }

  public var isNumeric: Bool {
    switch self {
    case .integer, .real: true
    default: false
    }
  }

  static func format(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return String(d)
  }

  /// The value as JSON, appended to `out`.
  public func appendJSON(to out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .integer(let i): out.append(contentsOf: String(i).utf8)
    case .real(let d): out.append(contentsOf: (d.isFinite ? Self.format(d) : "null").utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .text(let s), .timestamp(let s): JSONText.appendString(s, to: &out)
    }
  }
}
