/// The type of a declared field: what the store accepts, stores and compares it as.
public enum FieldType: Sendable, Equatable {
  /// Free text, stored as TEXT.
  case text
  /// A whole number, stored as INTEGER.
  case integer
  /// A floating-point number, stored as REAL.
  case real
  /// `true`/`false`, stored as INTEGER 0/1.
  case bool
  /// An instant, stored as canonical ISO 8601 UTC text (`2026-11-21T10:00:00.000Z`), which sorts as time.
  case timestamp
  /// A UUID, stored as lowercase TEXT.
  case uuid
  /// One of a closed list of values, stored as TEXT.
  case enumeration([String])

  /// A short name for error messages.
  public var displayName: String {
    switch self {
    case .text: "text"
    case .integer: "integer"
    case .real: "number"
    case .bool: "boolean"
    case .timestamp: "date"
    case .uuid: "UUID"
    case .enumeration(let values): "one of " + values.joined(separator: ", ")
    }
  }
}

/// What an import stores for a required field that a record leaves out: what `add` would.
public enum FieldDefault: Sendable, Equatable {
  /// This value, read as if the record had said it (`completed`, `false`).
  case value(String)
  /// A new random UUID: the record is a new one.
  case newUUID
  /// The time of the import.
  case now
}

/// A column of a module's table, as the CLI and the query layer know it.
public struct Field: Sendable, Equatable {
  public let name: String
  public let type: FieldType
  public let isNullable: Bool
  /// What a record that leaves the field out gets; nil: a required field must be given.
  public let missingDefault: FieldDefault?
  /// The value stored for "unknown" in a column that cannot hold NULL (a unique key treats every
  /// NULL as distinct, so a sample's missing stage is stored as `none`). Lists, filters and imports
  /// see null; only the stored column holds the word.
  public let storedNull: String?
  /// The values a person could mean, for a number (a week of minutes, not 9.3e18): an import refuses
  /// one outside them, naming the line and the bound. nil: any finite number.
  public let bounds: ClosedRange<Double>?

  public init(
    _ name: String, _ type: FieldType, nullable: Bool = false, default missingDefault: FieldDefault? = nil,
    storedNull: String? = nil, bounds: ClosedRange<Double>? = nil
  ) {
    self.name = name
    self.type = type
    self.isNullable = nullable || storedNull != nil
    self.missingDefault = missingDefault
    self.storedNull = storedNull
    self.bounds = bounds
  }

  /// A record must give it: not nullable and no default.
  public var isRequired: Bool { !isNullable && missingDefault == nil }
}

/// An index the schema declares; migrations create it, tests and `migrate verify` check it exists.
public struct IndexSchema: Sendable, Equatable {
  public let name: String
  public let columns: [String]
  public let isUnique: Bool

  public init(_ name: String, on columns: [String], unique: Bool = false) {
    self.name = name
    self.columns = columns
    self.isUnique = unique
  }
}

/// A table of a module: its fields in display order, its indexes and its natural order.
public struct TableSchema: Sendable {
  public let name: String
  public let fields: [Field]
  public let indexes: [IndexSchema]
  /// The order lists use when the user gives none.
  public let defaultSort: [SortKey]
  /// The unique integer column that ends every order: `rowid` for a table, the key a view
  /// exposes for a view (views have no rowid).
  public let rowKey: String
  /// Every CHECK of the table is one its fields' validation enforces (a value the CHECK refuses,
  /// the loader refuses first, naming its line): a bulk append may skip SQLite's re-check and
  /// scan once after it (`CheckConstraints`). Proven per table by `CheckConstraintTests`.
  public let checksFollowFromFields: Bool

  public init(
    name: String, fields: [Field], indexes: [IndexSchema], defaultSort: [SortKey], rowKey: String = "rowid",
    checksFollowFromFields: Bool = false
  ) {
    self.checksFollowFromFields = checksFollowFromFields
    self.name = name
    self.fields = fields
    self.indexes = indexes
    self.defaultSort = defaultSort
    self.rowKey = rowKey
  }

  /// `rowKey` as SQL: `rowid` as is, any other name quoted.
  public var rowKeySQL: String { rowKey == "rowid" ? "rowid" : SQL.quote(rowKey) }

  public func field(named name: String) -> Field? {
    fields.first { $0.name == name }
  }

  /// A field as SQL reads it: the quoted column, or, for a field with a stored null, the column with
  /// that word read as NULL (a schema constant, never input).
  public func columnSQL(_ name: String) -> String {
    guard let sentinel = field(named: name)?.storedNull else { return SQL.quote(name) }
    return "NULLIF(\(SQL.quote(name)), '\(sentinel.replacingASCII("'", with: "''"))')"
  }

  public var fieldNames: [String] { fields.map(\.name) }

  /// The field that names a record to `show`, `set` and `remove`: `id` where the table has one,
  /// else its first field (an item's name).
  public var identifier: String { fields.contains { $0.name == "id" } ? "id" : fields[0].name }

  /// The named fields, in the given order, or an error listing the valid names.
  public func fields(named names: [String]) throws(StoreError) -> [Field] {
    try names.map { name throws(StoreError) in
      guard let field = field(named: name) else {
        throw StoreError.unknownField(name, table: self.name, valid: fieldNames)
      }
      return field
    }
  }
}

/// Quoting for identifiers: values never reach SQL this way, they are always bound.
public enum SQL {
  public static func quote(_ identifier: String) -> String {
    "\"" + identifier.replacingASCII("\"", with: "\"\"") + "\""
  }

  /// Text for a `LIKE … ESCAPE '\'` pattern, its `%`, `_` and `\` taken literally.
  public static func likeEscaped(_ text: String) -> String {
    text.replacingASCII("\\", with: "\\\\").replacingASCII("%", with: "\\%").replacingASCII("_", with: "\\_")
  }
}
