import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym library show ID|ISBN`: the full graph of one work; `--all`: of every work, streamed.
struct LibraryShow: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show a work by id or ISBN with its authors, editions and entry (--all: every work).",
    discussion: HelpExamples.discussion(
      "The graph is read with five statements, however many works: never one query per work.",
      examples: [
        "gym library show 9781250313195",
        "gym library show --all -f ndjson > library.ndjson",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The work's id, or an ISBN of one of its editions.", completion: .custom(LibraryCompletion.workIDs))
  var work: String?
  @Flag(help: "Every work's graph, in id order (ndjson: one object per line).") var all = false
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func validate() throws {
    if all == (work != nil) { throw ValidationError("give a work id or ISBN, or --all") }
    if format == .csv || format == .tsv {
      throw ValidationError("a work's graph is nested: use --format table, json or ndjson")
    }
  }

  func run(context: CommandContext) throws {
    var format = format ?? context.configuration.outputFormat
    if format == .csv || format == .tsv { format = .ndjson }
    let out = BufferedOutput.standardOutput()
    try context.openStore().read { db in
      let ids: ClosedRange<Int64>
      if let work {
        let id = try LibraryQueries.workId(db, work)
        ids = id...id
      } else {
        ids = 1...Int64.max
      }
      var count = 0
      if all && format == .json { out.write("[") }
      try LibraryGraph.forEachWork(db, ids: ids) { cells, related in
        if count > 0 { out.write(all && format == .json ? "," : format == .table ? "\n" : "") }
        LibraryGraph.write(cells, related, format: format, out: out)
        count += 1
      }
      if all && format == .json { out.write("]\n") }
    }
    out.flush()
  }
}

/// `gym library search TEXT`: full-text over titles, series and authors, best match first; the
/// list's own `--where`, `--sort`, `--fields` and `--ids` apply to the matches.
struct LibrarySearch: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "search",
    abstract: "Find works by words of their title, series or authors (ranked, prefix of the last word).",
    discussion: HelpExamples.discussion(
      FieldHelp.line(LibrarySchema.list),
      examples: [
        "gym library search dune",
        "gym library search 'left hand' --limit 5",
        "gym library search ninth -w 'rating >= 4' --fields id,title,rating",
        "gym library search tomb --sort title --ids",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The words to find, e.g. 'locked tomb' or 'muir'.") var text: String
  @OptionGroup var filter: FilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var limiting: LimitOptions
  /// 20 results unless told; 0 is all of them.
  var limit: Int { limiting.limit.map { $0 == 0 ? Int.max : $0 } ?? 20 }

  func validate() throws {
    if LibraryQueries.matchExpression(text) == nil {
      throw ValidationError("the search text has no words; give a word of a title, series or author")
    }
  }

  func run(context: CommandContext) throws {
    let table = LibrarySchema.list
    let fields: [Field] =
      output.ids
      ? try table.fields(named: [table.identifier])
      : output.fieldList.isEmpty ? LibraryQueries.searchFields : try table.fields(named: output.fieldList)
    let order = try (sorting.keys ?? []).map { key in
      guard table.field(named: key.field) != nil else {
        throw StoreError.unknownField(key.field, table: table.name, valid: table.fieldNames)
      }
      return "l.\(SQL.quote(key.field))\(key.descending ? " DESC" : "")"
    }
    var condition: String?
    var arguments: [DatabaseValue] = [LibraryQueries.matchExpression(text)!.databaseValue]
    if let predicate = try filter.predicate(for: table) {
      let (sql, values) = try predicate.sql(for: table)
      condition = sql
      arguments += values
    }
    arguments.append(limit.databaseValue)
    let sql = LibraryQueries.searchSQL(fields: fields, condition: condition, order: order)
    let format = output.ids ? OutputFormat.tsv : context.format(output)
    let writer = RecordWriter(format: format, columns: fields.map(\.name), header: !output.ids)
    try context.openStore().read { db in
      let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
      while let row = try rows.next() { writer.write(RecordListing.cells(row, fields)) }
    }
    writer.finish(next: nil)
  }
}

extension LibrarySearch: ListsTable {
  static var listedTable: TableSchema { LibrarySchema.list }
}
