import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym staples seed`: sample data, only ever on request, and never over a pantry that has items
/// unless `--force` (seed 004: sample data only in development builds).
struct StaplesSeed: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "seed", abstract: "Fill an empty pantry with sample items and recipes.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples seed --force"
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Flag(help: "Seed even though the pantry has items (existing ones are updated, none removed).") var force = false

  func run(context: CommandContext) throws {
    try context.openStoreForWriting().write { db in
      let items = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grocery_item") ?? 0
      if items > 0 && !force {
        throw GymError.data(
          "the pantry already has \(items) items; seeding would mix sample data in. Pass --force to do it anyway")
      }
      try StaplesSeedData.seed(db, now: .now())
    }
    let items = StaplesSeedData.pantry.reduce(0) { $0 + $1.1.count }
    printNote(
      "seeded \(items) items in \(StaplesSeedData.pantry.count) categories and \(StaplesSeedData.recipes.count) recipes"
    )
  }
}
