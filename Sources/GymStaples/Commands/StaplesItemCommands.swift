import ArgumentParser
import GymCLI
import GymCore

/// `gym staples add NAME --category C [--staple] [--quantity N --unit U]`: a new item, or the
/// given fields of an existing one (the newer values win, field by field).
struct StaplesAdd: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Add an item, or update the given fields of an existing one.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples add Kefir --category Dairy --quantity 1 --unit l",
      "gym staples add Oats --category Pantry --staple",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The item's name.", completion: .custom(StaplesCompletion.itemNames)) var name: String
  @OptionGroup var item: ItemOptions

  func validate() throws { try checkName(name, "item") }

  func run(context: CommandContext) throws {
    let isNew = try context.openStoreForWriting().write { db in
      try StaplesWrites.upsertItem(db, name: name.trimmed, changes: try item.changes(for: name.trimmed), now: .now())
    }
    printIdentifier(name.trimmed)
    printNote(isNew ? "added '\(name.trimmed)'" : "updated '\(name.trimmed)'")
  }
}

/// `gym staples set NAME …`: changes the given fields of an existing item.
struct StaplesSet: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "set", abstract: "Change fields of an existing item.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples set Milk --quantity 2",
      "gym staples set Eggs --unit-weight 'Eggs: 1 piece = 60 g' --min-stock 6",
      "gym staples set Milk --no-staple --notes 'oat milk now'",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The item's name.", completion: .custom(StaplesCompletion.itemNames)) var name: String
  @OptionGroup var item: ItemOptions

  func validate() throws { try checkName(name, "item") }

  func run(context: CommandContext) throws {
    let changes = try item.changes(for: name.trimmed)
    try context.openStore().write { db in
      try StaplesWrites.setItem(db, name: name.trimmed, changes: changes, now: .now())
    }
  }
}

/// `gym staples remove NAME…` (also `rm`, `delete`): all or none; refused while a recipe uses an item.
struct StaplesRemove: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove", abstract: "Remove items by name (all or none).",
    discussion: HelpExamples.discussion(examples: [
      "gym staples remove Bagels Tortillas --dry-run",
      "gym staples rm Bagels Caviar --ignore-missing",
    ]), aliases: ["rm", "delete"])

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The items' names.", completion: .custom(StaplesCompletion.itemNames)) var names: [String]
  @OptionGroup var removal: RemoveOptions

  func validate() throws {
    if names.isEmpty { throw ValidationError("give at least one item name") }
    for name in names { try checkName(name, "item") }
  }

  func run(context: CommandContext) throws {
    try RecordRemoval.run(
      store: try context.openStore(), keys: names.map(\.trimmed), noun: "item", options: removal
    ) { db, name in
      try StaplesWrites.removeItem(db, name: name) ? "'\(name)'" : nil
    }
  }
}
