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
        + "--unit converts the sets table; json keeps weightKg as stored, so what it prints imports back.",
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
    // One read: the workout and its sets agree even while another process writes.
    let (cells, sets) = try context.openStore().read { db -> ([Cell]?, [[Cell]]) in
      var cells: [Cell]?
      try query.forEachRow(db) { cells = RecordListing.cells($0, fields) }
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT \(setColumns) FROM workout_set
          WHERE workoutSeq = (SELECT seq FROM workout WHERE id = ?) ORDER BY position
          """, arguments: [key])
      var sets: [[Cell]] = []
      while let row = try rows.next() { sets.append(RecordListing.cells(row, Self.setFields)) }
      return (cells, sets)
    }
    guard let cells else { throw StoreError.notFound(table: "workout", key: id) }
    let format = context.format(output)
    switch format {
    case .json, .ndjson:
      let setNames = Self.setFields.map(\.name)
      JSONValue.record(cells, names: fields.map(\.name))
        .adding([("sets", .array(sets.map { .record($0, names: setNames) }))])
        .writeLine(to: BufferedOutput.standardOutput())
    case .table, .csv, .tsv:
      RecordListing.writeOne(cells, fields: fields, format: format)
      guard format == .table, !sets.isEmpty else { return }
      let out = BufferedOutput.standardOutput()
      out.write("\nsets\n")
      let names = Self.setFields.map(\.name)
      let display = weight.display(context, columns: ["weightKg"])
      let writer = RecordWriter(format: .table, columns: names.map(display.name), out: out)
      for set in sets { writer.write(display.cells(set, names: names)) }
      writer.finish(next: nil)
    }
  }
}

extension HistoryShow: ListsTable {
  static var listedTable: TableSchema { WorkoutSchema.table }
}
