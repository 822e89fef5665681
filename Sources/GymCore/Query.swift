import GRDB

/// One key of an ORDER BY, over a declared field.
public struct SortKey: Sendable, Equatable {
  public let field: String
  public let descending: Bool

  public init(_ field: String, descending: Bool = false) {
    self.field = field
    self.descending = descending
  }
}

/// A list query: filter, order, paging and projection over one table, built into bound SQL.
///
/// The order always ends with `rowid`, so every row has one place and a keyset cursor (`after`)
/// can say exactly where the next page starts: `WHERE ("completedAt", rowid) < (?, ?)` costs the
/// same on page 50,000 as on page 1, where `OFFSET` walks every row before it.
public struct Query: Sendable {
  public var table: TableSchema
  public var filter: RecordFilter?
  public var sort: [SortKey]
  /// nil: no limit.
  public var limit: Int?
  public var offset: Int
  public var after: PageCursor?
  /// The fields to read, in output order; empty means every field.
  public var projection: [String]

  public init(
    table: TableSchema, filter: RecordFilter? = nil, sort: [SortKey]? = nil, limit: Int? = nil,
    offset: Int = 0, after: PageCursor? = nil, projection: [String] = []
  ) {
    self.table = table
    self.filter = filter
    self.sort = sort ?? table.defaultSort
    self.limit = limit
    self.offset = offset
    self.after = after
    self.projection = projection
  }

  /// The projected fields, in output order.
  public func projectedFields() throws(StoreError) -> [Field] {
    projection.isEmpty ? table.fields : try table.fields(named: projection)
  }

  /// `SELECT COUNT(*)` with the same filter (paging ignored).
  public func countSQL() throws(StoreError) -> (String, StatementArguments) {
    var sql = "SELECT COUNT(*) FROM \(SQL.quote(table.name))"
    var arguments: [DatabaseValue] = []
    if let filter {
      let (condition, args) = try filter.sql(for: table)
      sql += " WHERE \(condition)"
      arguments = args
    }
    return (sql, StatementArguments(arguments))
  }

  /// The SELECT: projected columns first, then the sort keys and rowid the cursor needs.
  /// Fetches one row past the limit, so the caller knows whether another page exists.
  public func selectSQL() throws(StoreError) -> (String, StatementArguments) {
    let fields = try projectedFields()
    _ = try table.fields(named: sort.map(\.field))
    let columns = fields.map { table.columnSQL($0.name) } + sort.map { table.columnSQL($0.field) } + [table.rowKeySQL]
    var sql = "SELECT \(columns.joined(separator: ", ")) FROM \(SQL.quote(table.name))"
    var conditions: [String] = []
    var arguments: [DatabaseValue] = []
    if let filter {
      let (condition, args) = try filter.sql(for: table)
      conditions.append(condition)
      arguments += args
    }
    if let after {
      let (condition, args) = try after.condition(for: sort, table: table)
      conditions.append(condition)
      arguments += args
    }
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    let rowidDescending = sort.last?.descending ?? false
    let order =
      sort.map { table.columnSQL($0.field) + ($0.descending ? " DESC" : "") }
      + [table.rowKeySQL + (rowidDescending ? " DESC" : "")]
    sql += " ORDER BY " + order.joined(separator: ", ")
    if let limit {
      sql += " LIMIT ?"
      // One row past the page says whether another follows; a limit of Int.max is every row already.
      arguments.append((limit == Int.max ? limit : limit + 1).databaseValue)
    }
    if offset > 0 {
      if limit == nil { sql += " LIMIT -1" }
      sql += " OFFSET ?"
      arguments.append(offset.databaseValue)
    }
    return (sql, StatementArguments(arguments))
  }

  /// The query built into SQL once: checked now, run as is.
  public func compiled() throws(StoreError) -> CompiledQuery {
    let (sql, arguments) = try selectSQL()
    return CompiledQuery(query: self, fields: try projectedFields(), sql: sql, arguments: arguments)
  }

  /// Streams the page's rows to `body`; see `CompiledQuery.forEachRow`.
  @discardableResult
  public func forEachRow(_ db: Database, _ body: (Row) throws -> Void) throws -> PageCursor? {
    try compiled().forEachRow(db, body)
  }

  public func count(_ db: Database) throws -> Int {
    let (sql, arguments) = try countSQL()
    return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
  }
}

/// A `Query` with its SQL built: a list command builds it before any I/O (a bad field or cursor
/// fails first) and runs that same SQL.
public struct CompiledQuery {
  public let query: Query
  /// The projected fields, in output order: a row's first columns.
  public let fields: [Field]
  let sql: String
  let arguments: StatementArguments

  /// Streams the page's rows to `body` (a row's first columns are the projection) and returns
  /// the cursor of the next page, or nil on the last one. Memory stays that of one row.
  @discardableResult
  public func forEachRow(_ db: Database, _ body: (Row) throws -> Void) throws -> PageCursor? {
    let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
    var count = 0
    var last: [DatabaseValue] = []
    while let row = try rows.next() {
      if let limit = query.limit, count == limit {
        return PageCursor(sort: query.sort, values: last)
      }
      try body(row)
      count += 1
      if query.limit != nil {
        last = (fields.count..<row.count).map { row[$0] as DatabaseValue }
      }
    }
    return nil
  }
}
