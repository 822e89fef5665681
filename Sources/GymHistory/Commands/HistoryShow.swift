import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym history show ID`: one workout, every field.
struct HistoryShow: GymCommand {
  static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one workout by id.")

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions
  @Argument(help: "The workout's id (UUID).") var id: String

  func run(context: CommandContext) throws {
    let query = Query(
      table: WorkoutSchema.table, filter: .compare("id", .equal, .text(id.lowercased())), limit: 1,
      projection: output.fieldList)
    let fields = try query.projectedFields()
    let store = try context.openStore()
    var cells: [Cell]?
    _ = try store.read { db in try query.forEachRow(db) { cells = RecordListing.cells($0, fields) } }
    guard let cells else { throw StoreError.notFound(table: "workout", key: id) }
    RecordListing.writeOne(cells, fields: fields, format: context.format(output))
  }
}
