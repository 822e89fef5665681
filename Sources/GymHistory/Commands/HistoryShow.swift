import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym history show ID`: one workout, every field, and its sets when it has any.
struct HistoryShow: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Show one workout by id, with its sets (from Strong or Hevy imports).")

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions
  @Argument(help: "The workout's id (UUID).") var id: String

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
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT \(setColumns) FROM workout_set
          WHERE workoutSeq = (SELECT seq FROM workout WHERE id = ?) ORDER BY position
          """, arguments: [key])
      return (cells, rows.map { RecordListing.cells($0, Self.setFields) })
    }
    guard let cells else { throw StoreError.notFound(table: "workout", key: id) }
    let format = context.format(output)
    switch format {
    case .json, .ndjson:
      var bytes = Array(Self.object(cells, Self.names(fields)).utf8.dropLast())
      bytes += Array(",\"sets\":[".utf8)
      bytes += Array(sets.map { Self.object($0, Self.setFields.map(\.name)) }.joined(separator: ",").utf8)
      bytes += Array("]}\n".utf8)
      let out = BufferedOutput.standardOutput()
      out.write(bytes: bytes)
      out.flush()
    case .table, .csv:
      RecordListing.writeOne(cells, fields: fields, format: format)
      guard format == .table, !sets.isEmpty else { return }
      let out = BufferedOutput.standardOutput()
      out.write("\nsets\n")
      let writer = RecordWriter(format: .table, columns: Self.setFields.map(\.name), out: out)
      for set in sets { writer.write(set) }
      writer.finish(next: nil)
    }
  }

  static func names(_ fields: [Field]) -> [String] { fields.map(\.name) }

  static func object(_ cells: [Cell], _ names: [String]) -> String {
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    for (i, cell) in cells.enumerated() {
      if i > 0 { bytes.append(UInt8(ascii: ",")) }
      JSONText.appendString(names[i], to: &bytes)
      bytes.append(UInt8(ascii: ":"))
      cell.appendJSON(to: &bytes)
    }
    bytes.append(UInt8(ascii: "}"))
    return String(decoding: bytes, as: UTF8.self)
  }
}
