import GRDB
import GymCore

/// Runs a list query and streams its rows to stdout in the chosen format: the one way every
/// module's `list` command writes records.
public enum RecordListing {
  /// Builds the query from the shared options, into SQL once; fails on a bad field or cursor
  /// before any I/O. `projection` is the fields shown when `--fields` does not say.
  public static func query(
    table: TableSchema, filters: [RecordFilter], output: OutputOptions, paging: PagingOptions,
    context: CommandContext, sort: [SortKey]? = nil, projection: [String] = []
  ) throws -> CompiledQuery {
    try Query(
      table: table, filter: RecordFilter.all(filters), sort: sort,
      limit: context.limit(paging, format: output.ids ? .tsv : context.format(output)),
      offset: paging.offset, after: try paging.after.map { try PageCursor(decoding: $0) },
      projection: output.ids ? [table.identifier] : output.fieldList.isEmpty ? projection : output.fieldList
    ).compiled()
  }

  /// `ids`: the identifiers alone, one per line, every one unless `--limit` says.
  /// `weights`: the weight columns' unit (kilograms when nil).
  public static func write(
    _ query: CompiledQuery, store: Store, format: OutputFormat, ids: Bool = false, weights: WeightDisplay? = nil
  ) throws {
    let names = query.fields.map(\.name)
    let writer = RecordWriter(
      format: ids ? .tsv : format, columns: names.map { weights?.name($0) ?? $0 }, header: !ids)
    let next = try store.read { db in
      try query.forEachRow(db) { row in
        let shown = cells(row, query.fields)
        writer.write(weights?.cells(shown, names: names) ?? shown)
      }
    }
    // Identifiers into a pipe (`$(gym history list --ids -n 1)`) are for a script, which pages with
    // `--limit 0`: the cursor goes to a terminal only, so nothing is said on stderr there.
    writer.finish(next: ids && !BufferedOutput.standardOutput().isTerminal ? nil : next?.encoded)
  }

  /// Prints the number of records the query matches (paging ignored), for every `count` command:
  /// the bare number by default, whatever `output.format` says (scripts read `$(gym … count)`), else
  /// a `count` record in the format `--format` names.
  public static func writeCount(_ query: Query, store: Store, formatting: FormatOptions) throws {
    let count = try store.read { try query.count($0) }
    guard let format = formatting.format, format != .table else {
      let out = BufferedOutput.standardOutput()
      out.write("\(count)\n")
      out.flush()
      return
    }
    writeOne([.integer(Int64(count))], fields: [Field("count", .integer)], format: format)
  }

  /// The first `fields.count` columns of `row` (read from a cursor, not copied) as typed cells.
  public static func cells(_ row: Row, _ fields: [Field], from first: Int = 0) -> [Cell] {
    fields.indices.map { Cell(row, at: first + $0, type: fields[$0].type) }
  }

  /// One record: as `field  value` lines in a table, as an object in JSON.
  public static func writeOne(_ cells: [Cell], fields: [Field], format: OutputFormat) {
    let out = BufferedOutput.standardOutput()
    switch format {
    case .table:
      let width = fields.map(\.name.count).max() ?? 0
      for (field, cell) in zip(fields, cells) {
        let pad = String(repeating: " ", count: width - field.name.count)
        out.write("\(field.name)\(pad)  \(cell.displayText)".withoutTrailingSpaces + "\n")
      }
      out.flush()
    case .json, .ndjson:
      var bytes: [UInt8] = []
      JSONText.appendObject(cells, names: fields.map(\.name), to: &bytes)
      bytes.append(10)
      out.write(bytes: bytes)
      out.flush()
    case .csv, .tsv:
      let writer = RecordWriter(format: format, columns: fields.map(\.name), out: out)
      writer.write(cells)
      writer.finish(next: nil)
    }
  }
}
