import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym history remove ID…` (also `rm`, `delete`): the given workouts and their sets, all or none.
struct HistoryRemove: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove", abstract: "Remove workouts, with their sets, by id (all or none).",
    discussion: HelpExamples.discussion(examples: [
      "gym history remove \"$(gym history list --ids -n 1)\" --dry-run",
      "gym history list --ids --status skipped | xargs -r gym history rm",
    ]),
    aliases: ["rm", "delete"])

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The ids of the workouts to remove.", completion: .custom(HistoryCompletion.workoutIDs))
  var ids: [String]
  @OptionGroup var removal: RemoveOptions

  func validate() throws {
    if ids.isEmpty { throw ValidationError("give at least one workout id") }
  }

  func run(context: CommandContext) throws {
    let keys = ids.map { $0.lowercased() }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    try RecordRemoval.run(store: try context.openStore(), keys: keys, noun: "workout", options: removal) { db, key in
      try db.execute(sql: "DELETE FROM workout WHERE id = ?", arguments: [key])
      return db.changesCount == 0 ? nil : "workout \(key)"
    }
  }
}
