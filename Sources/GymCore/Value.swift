import GRDB

/// A typed value as the query layer sees it; always bound as an SQL argument, never spliced.
public enum Value: Sendable, Equatable {
  case null
  case text(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  case timestamp(Timestamp)

  /// The value as SQLite stores it for a field of the given type.
  public var databaseValue: DatabaseValue {
    switch self {
    case .null: .null
    case .text(let s): s.databaseValue
    case .integer(let i): i.databaseValue
    case .real(let d): d.databaseValue
    case .bool(let b): (b ? 1 : 0).databaseValue
    case .timestamp(let t): t.canonical.databaseValue
    }
  }
}
