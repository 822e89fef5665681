import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym history show ID`: one workout, every field, and its sets when it has any.
struct HistoryShow: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Show one workout by id, with its sets (from Strong or Hevy imports).",
    discussion: HelpExamples.discussion(
      FieldHelp.line(WorkoutSchema.table) + "\n\n"
        + "Every format adds the workout's totals (working sets: warm-ups never count; volume is weight × reps) "
        + "and the records its sets set when they were done (as 'history prs --timeline' lists them): the table "
        + "beside each set and under them, json as 'totals' and each set's 'records', csv as the last columns. "
        + "--unit converts the tables; json and csv keep the workout as stored, and what they print imports back "
        + "(the worked-out figures are skipped).",
      examples: [
        "gym history show \"$(gym history list --ids -n 1)\"",
        "gym history show \"$(gym history list --ids -n 1)\" --unit lb",
        "gym history show \"$(gym history list --ids -n 1)\" -f json",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var weight: WeightUnitOptions
  @Argument(help: "The workout's id (UUID).", completion: .custom(HistoryCompletion.workoutIDs)) var id: String

  static let setFields = Array(WorkoutSetSchema.table.fields.dropFirst())

  func run(context: CommandContext) throws {
    let key = id.lowercased()
    let query = Query(
      table: WorkoutSchema.table, filter: .compare("id", .equal, .text(key)), limit: 1, projection: output.fieldList)
    let fields = try query.projectedFields()
    let setColumns = Self.setFields.map { SQL.quote($0.name) }.joined(separator: ", ")
    let format = context.format(output)
    // One read: the workout, its sets and their records agree even while another process writes.
    let (cells, sets, totals) = try context.openStore().read { db -> ([Cell]?, [[Cell]], WorkoutTotals?) in
      var cells: [Cell]?
      try query.forEachRow(db) { cells = RecordListing.cells($0, fields) }
      guard let seq = try Int64.fetchOne(db, sql: "SELECT seq FROM workout WHERE id = ?", arguments: [key]) else {
        return (cells, [], nil)
      }
      let rows = try Row.fetchCursor(
        db, sql: "SELECT \(setColumns) FROM workout_set WHERE workoutSeq = ? ORDER BY position", arguments: [seq])
      var sets: [[Cell]] = []
      while let row = try rows.next() { sets.append(RecordListing.cells(row, Self.setFields)) }
      guard !sets.isEmpty else { return (cells, sets, nil) }
      return (cells, sets, try WorkoutTotals.compute(db, workout: seq, sets: sets))
    }
    guard let cells else { throw StoreError.notFound(table: "workout", key: id) }
    let names = fields.map(\.name)
    switch format {
    case .json, .ndjson:
      // `totals` and each set's `records` are worked out; an import skips them (WorkoutTotals.derived).
      let setNames = Self.setFields.map(\.name)
      let setValues = sets.map { set in
        JSONValue.record(set, names: setNames).adding([
          ("records", .array((totals?.records(ofSet: set) ?? []).map { .text($0) }))
        ])
      }
      JSONValue.record(cells, names: names)
        .adding([("sets", .array(setValues))] + (totals.map { [("totals", $0.json)] } ?? []))
        .writeLine(to: BufferedOutput.standardOutput())
    case .csv, .tsv:
      let totalsCells = totals?.cells ?? Array(repeating: .null, count: WorkoutTotals.flatColumns.count)
      let writer = RecordWriter(format: format, columns: names + WorkoutTotals.flatColumns)
      writer.write(cells + totalsCells)
      writer.finish(next: nil)
    case .table:
      RecordListing.writeOne(cells, fields: fields, format: format)
      guard let totals else { return }
      let out = BufferedOutput.standardOutput()
      out.write("\nsets\n")
      let setNames = Self.setFields.map(\.name)
      let display = weight.display(context, columns: ["weightKg", "volumeKg"])
      let writer = RecordWriter(format: .table, columns: setNames.map(display.name) + ["records"], out: out)
      for set in sets {
        let records = totals.records(ofSet: set)
        writer.write(
          display.cells(set, names: setNames) + [records.isEmpty ? .null : .text(records.joined(separator: ", "))])
      }
      writer.finish(next: nil)
      out.write("\ntotals\n")
      let totalsWriter = RecordWriter(
        format: .table, columns: WorkoutTotals.columns.map(display.name) + ["sessionRecords"], out: out)
      totalsWriter.write(
        display.cells(Array(totals.cells.prefix(WorkoutTotals.columns.count)), names: WorkoutTotals.columns)
          + [totals.sessionRecords.isEmpty ? .null : .text(totals.sessionRecords.joined(separator: ", "))])
      totalsWriter.finish(next: nil)
    }
  }
}

extension HistoryShow: ListsTable {
  static var listedTable: TableSchema { WorkoutSchema.table }
}
