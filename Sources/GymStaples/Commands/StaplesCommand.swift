import ArgumentParser
import GymCLI

/// `gym staples`: grocery staples and recipes. Bare `gym staples` lists the staples.
public struct StaplesCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "staples",
    abstract: "Grocery staples by category, recipes and their use, the shopping list.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples --category dairy",
      "gym staples shopping-list",
    ]),
    subcommands: [
      StaplesList.self, StaplesCount.self, StaplesShow.self, StaplesAdd.self, StaplesSet.self, StaplesRemove.self,
      StaplesImport.self, StaplesCategories.self,
      StaplesRecipes.self, RecipeCommand.self, StaplesCook.self, StaplesShoppingList.self, StaplesSeed.self,
    ],
    defaultSubcommand: StaplesList.self)

  public init() {}
}

/// The fields of an item that `add` and `set` take.
struct ItemOptions: ParsableArguments {
  @Option(help: "The category (Dairy, Bakery …).", completion: .custom(StaplesCompletion.categories))
  var category: String?
  @Flag(inversion: .prefixedNo, help: "Whether the item is a staple, always kept in stock.") var staple: Bool?
  @Option(help: "How much is in stock (a number; 0 means none).") var quantity: Double?
  @Option(help: "The unit of the quantity (l, kg, pcs …).") var unit: String?
  @Option(help: "Free text.") var notes: String?

  var changes: ItemChanges {
    ItemChanges(category: category?.trimmed, isStaple: staple, quantity: quantity, unit: unit, notes: notes)
  }

  func validate() throws {
    if let category, category.trimmed.isEmpty { throw ValidationError("--category must not be empty") }
    if let quantity, !quantity.isFinite || quantity < 0 { throw ValidationError("--quantity must be 0 or more") }
  }
}

/// A name argument: not empty, not only spaces.
func checkName(_ name: String, _ what: String) throws {
  if name.trimmed.isEmpty { throw ValidationError("the \(what) name is empty; give a name such as 'Milk'") }
}
