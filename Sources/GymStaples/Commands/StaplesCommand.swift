import ArgumentParser
import GymCLI

/// `gym staples`: grocery staples and recipes. Bare `gym staples` lists the staples.
public struct StaplesCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "staples",
    abstract: "Grocery staples by category, recipes and their use, the shopping list.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples --category dairy",
      "gym staples stock",
      "gym staples shopping-list",
    ]),
    subcommands: [
      StaplesList.self, StaplesCount.self, StaplesShow.self, StaplesAdd.self, StaplesSet.self, StaplesRemove.self,
      StaplesImport.self, StaplesCategories.self, StaplesBuy.self, StaplesUse.self, StaplesOpen.self, StaplesStock.self,
      StaplesExpiring.self, StaplesRecipes.self, RecipeCommand.self, StaplesCook.self, StaplesCookable.self,
      StaplesShoppingList.self, StaplesStats.self, StaplesSeed.self,
    ],
    defaultSubcommand: StaplesList.self)

  public init() {}
}

/// The fields of an item that `add` and `set` take.
struct ItemOptions: ParsableArguments {
  @Option(help: "The category (Dairy, Bakery …).", completion: .custom(StaplesCompletion.categories))
  var category: String?
  @Flag(inversion: .prefixedNo, help: "Whether the item is a staple, always kept in stock.") var staple: Bool?
  @Option(help: "Set the stock to this (a count of what is there; 0: none), in the item's unit.")
  var quantity: Double?
  @Option(help: "The item's unit (l, kg, g, ml, pieces …); stock is kept in it.") var unit: String?
  @Option(help: "The least stock to keep; below it the item is on the shopping list.") var minStock: Double?
  @Option(
    help: ArgumentHelp(
      "How this item converts across units, such as 'Egg: 1 piece = 60 g'; repeat for several.", valueName: "spec"))
  var unitWeight: [String] = []
  @Option(help: "Free text.") var notes: String?

  func changes(for name: String) throws -> ItemChanges {
    var changes = ItemChanges(
      category: category?.trimmed, isStaple: staple, quantity: quantity, unit: unit?.trimmed, notes: notes)
    changes.minStock = minStock
    for spec in unitWeight {
      let (item, conversion) = try UnitConversion.parse(spec)
      if let item, item.lowercased() != name.lowercased() {
        throw GymError.usage("--unit-weight '\(spec)' is for '\(item)', not '\(name)'")
      }
      changes.conversions.append(conversion)
    }
    return changes
  }

  func validate() throws {
    if let category, category.trimmed.isEmpty { throw ValidationError("--category must not be empty") }
    if let quantity, !quantity.isFinite || quantity < 0 || quantity >= 1e12 {
      throw ValidationError("--quantity must be a number from 0 to below 1e12")
    }
    if let minStock, !minStock.isFinite || minStock < 0 || minStock >= 1e12 {
      throw ValidationError("--min-stock must be a number from 0 to below 1e12")
    }
    if let unit, PantryUnit.lookup(unit) == nil, unit.trimmed.isEmpty {
      throw ValidationError("--unit must not be empty")
    }
  }
}

/// A name argument: not empty, not only spaces.
func checkName(_ name: String, _ what: String) throws {
  if name.trimmed.isEmpty { throw ValidationError("the \(what) name is empty; give a name such as 'Milk'") }
}
