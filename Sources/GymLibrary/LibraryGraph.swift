import GRDB
import GymCLI
import GymCore

/// The full graph of works — the work, its authors in order, its editions, its entry, its readings —
/// for `gym library show`: five statements whatever the number of works (never one per work), each
/// ordered by work id and merged as they stream, so memory is that of one work at a time.
struct LibraryGraph {
  struct Part {
    let name: String
    let fields: [Field]
    let sql: String
  }

  static let workFields = LibrarySchema.works.fields
  static let parts = [
    Part(
      name: "authors", fields: fields(LibrarySchema.authors, ["id", "name", "sortName"]),
      sql: """
        SELECT wa.workId, a.id, a.name, a.sortName FROM work_author wa JOIN author a ON a.id = wa.authorId
        WHERE wa.workId BETWEEN ?1 AND ?2 ORDER BY wa.workId, wa.position
        """),
    Part(
      name: "editions", fields: Array(LibrarySchema.editions.fields.filter { $0.name != "workId" }),
      sql: """
        SELECT workId, id, isbn10, isbn13, publisher, binding, pageCount, year, source FROM edition
        WHERE workId BETWEEN ?1 AND ?2 ORDER BY workId, id
        """),
    Part(
      name: "entries", fields: Array(LibrarySchema.entries.fields.filter { $0.name != "workId" }),
      sql: """
        SELECT workId, id, readingStatus, rating, dateAdded, review, ownedCopies, shelves
        FROM library_entry WHERE workId BETWEEN ?1 AND ?2 ORDER BY workId
        """),
    Part(
      name: "readings", fields: Array(ReadingSchema.readings.fields.filter { $0.name != "workId" }),
      sql: """
        SELECT workId, id, started, finished, status, pages, percent FROM reading
        WHERE workId BETWEEN ?1 AND ?2 ORDER BY workId, id
        """),
  ]

  static func fields(_ table: TableSchema, _ names: [String]) -> [Field] {
    names.map { table.field(named: $0)! }
  }

  /// Streams the graphs of the works with ids in `range` (one id for `show ID`) to `body`.
  static func forEachWork(
    _ db: Database, ids range: ClosedRange<Int64>, _ body: ([Cell], [[[Cell]]]) throws -> Void
  ) throws {
    let columns = workFields.map { SQL.quote($0.name) }.joined(separator: ", ")
    let works = try Row.fetchCursor(
      db, sql: "SELECT \(columns) FROM work WHERE id BETWEEN ? AND ? ORDER BY id",
      arguments: [range.lowerBound, range.upperBound])
    let children = try parts.map {
      try Row.fetchCursor(db, sql: $0.sql, arguments: [range.lowerBound, range.upperBound])
    }
    // Each part's next row, as cells while its cursor is on it (a copied row would lose text after a NUL).
    func next(_ i: Int) throws -> (workId: Int64, cells: [Cell])? {
      try children[i].next().map { ($0[0] as Int64, RecordListing.cells($0, parts[i].fields, from: 1)) }
    }
    var pending = try parts.indices.map(next)
    while let work = try works.next() {
      let id: Int64 = work[0]
      var related: [[[Cell]]] = []
      for i in parts.indices {
        var rows: [[Cell]] = []
        while let row = pending[i], row.workId <= id {
          if row.workId == id { rows.append(row.cells) }
          pending[i] = try next(i)
        }
        related.append(rows)
      }
      try body(RecordListing.cells(work, workFields), related)
    }
  }

  /// One work's graph: an object with its parts as arrays in JSON, sections in a table.
  static func write(_ work: [Cell], _ related: [[[Cell]]], format: OutputFormat, out: BufferedOutput) {
    switch format {
    case .json, .ndjson, .csv, .tsv:
      let partMembers = zip(parts, related).map { part, rows -> (String, JSONValue) in
        (part.name, .array(rows.map { .record($0, names: part.fields.map(\.name)) }))
      }
      JSONValue.record(work, names: workFields.map(\.name)).adding(partMembers).writeLine(to: out)
    case .table:
      let width = workFields.map(\.name.count).max() ?? 0
      for (field, cell) in zip(workFields, work) where cell != .null {
        let pad = String(repeating: " ", count: width - field.name.count)
        out.write("\(field.name)\(pad)  \(cell.displayText)".withoutTrailingSpaces + "\n")
      }
      for (part, rows) in zip(parts, related) where !rows.isEmpty {
        out.write("\n\(part.name)\n")
        let writer = RecordWriter(format: .table, columns: part.fields.map(\.name), out: out)
        for row in rows { writer.write(row) }
        writer.finish(next: nil)
      }
    }
  }
}
