import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym history delete ID…`: all the given workouts or, if one is unknown, none.
struct HistoryDelete: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete", abstract: "Delete workouts by id (all or none).")

  @OptionGroup var global: GlobalOptions
  @Argument(help: "The ids of the workouts to delete.") var ids: [String]

  func validate() throws {
    if ids.isEmpty { throw ValidationError("give at least one workout id") }
  }

  func run(context: CommandContext) throws {
    let keys = Array(Set(ids.map { $0.lowercased() })).sorted()
    let store = try context.openStore()
    let deleted = try store.write { db -> Int in
      let statement = try db.cachedStatement(sql: "DELETE FROM workout WHERE id = ?")
      var missing: [String] = []
      for key in keys {
        try statement.execute(arguments: [key])
        if db.changesCount == 0 { missing.append(key) }
      }
      if !missing.isEmpty {
        // Throwing rolls the transaction back: nothing is deleted.
        throw GymError.noInput(
          "no workout with id \(missing.joined(separator: ", ")); nothing was deleted")
      }
      return keys.count
    }
    printNote("deleted \(deleted) workout\(deleted == 1 ? "" : "s")")
  }
}
