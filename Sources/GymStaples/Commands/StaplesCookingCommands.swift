import ArgumentParser
import GymCLI
import GymCore

/// `gym staples cook RECIPE [--servings N] [--force]`: takes the ingredients from stock and counts
/// the use, in one transaction.
struct StaplesCook: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "cook",
    abstract: "Cook a recipe: take its ingredients from stock (scaled by --servings) and count it.",
    discussion: HelpExamples.discussion(
      """
      Short of any ingredient, nothing is taken and the command fails (exit 1) naming everything that \
      is short; --force takes what there is and records the shortfall. A lot past its best-before is not \
      stock (the refusal names it); --force uses it, after the good lots. Ingredients without an amount \
      (to taste) are neither taken nor missed.
      """,
      examples: [
        "gym staples cook Omelette",
        "gym staples cook Pancakes --servings 8 --force",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The recipe's name.", completion: .custom(StaplesCompletion.recipeNames)) var recipe: String
  @Option(help: "How many it is for (scales the recipe's own servings).") var servings: Double?
  @Flag(help: "Cook with what there is when something is short.") var force = false

  func validate() throws {
    try checkName(recipe, "recipe")
    if let servings, !servings.isFinite || servings <= 0 || servings > 10_000 {
      throw ValidationError("--servings must be above 0 and at most 10000")
    }
  }

  func run(context: CommandContext) throws {
    let (count, short) = try context.openStore().write { db in
      try Cooking.cook(db, recipe: recipe.trimmed, servings: servings, force: force, now: .now())
    }
    printNote(
      "cooked '\(recipe.trimmed)' (\(count) time\(count == 1 ? "" : "s"))"
        + (short.isEmpty ? "" : "; short of \(short.map(\.description).joined(separator: ", ")), recorded"))
  }
}

/// `gym staples cookable [--only-complete]`: recipes ranked by what is in stock.
struct StaplesCookable: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "cookable",
    abstract: "Recipes ranked by the share of their ingredients in stock, then by the expiring lots they use.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples cookable",
      "gym staples cookable --only-complete --days 5 -f json",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Flag(help: "Only recipes nothing is missing for.") var onlyComplete = false
  @Option(help: "A lot within this many days of its best-before counts as expiring.") var days = 3
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func validate() throws {
    if !(0...36_500).contains(days) { throw ValidationError("--days must be 0 to 36500") }
  }

  func run(context: CommandContext) throws {
    let today = CalendarDay.today()
    let by = today.adding(days: Int64(days)).text
    let ranked = try context.openStore().read { db in try Cookable.rank(db, expiringBy: by, today: today.text) }
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat,
      columns: ["recipe", "share", "have", "ingredients", "expiring", "missing"])
    for recipe in ranked where !onlyComplete || recipe.missing.isEmpty {
      writer.write([
        .text(recipe.recipe), .real((recipe.share * 1000).rounded() / 1000), .integer(Int64(recipe.have)),
        .integer(Int64(recipe.ingredients)), .integer(Int64(recipe.expiring)),
        recipe.missing.isEmpty ? .null : .text(recipe.missing.joined(separator: ", ")),
      ])
    }
    writer.finish(next: nil)
  }
}

/// `gym staples shopping-list [RECIPE…]`: what to buy, by category.
struct StaplesShoppingList: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "shopping-list",
    abstract: "What to buy: items below their --min-stock, and what the recipes named need beyond stock.",
    discussion: HelpExamples.discussion(
      """
      For each item: its minimum plus what the recipes need, less its stock, when that is above zero, \
      in the item's unit, grouped by category. An item with no lots counts as none.
      """,
      examples: [
        "gym staples shopping-list",
        "gym staples shopping-list 'Chicken Curry' -f csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "Recipes to cook.", completion: .custom(StaplesCompletion.recipeNames)) var recipes: [String] = []
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func run(context: CommandContext) throws {
    let lines = try context.openStore().read { db in
      try ShoppingList.lines(db, recipes: recipes.map(\.trimmed), today: CalendarDay.today().text)
    }
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat, columns: ["category", "item", "amount", "unit", "for"])
    for line in lines {
      writer.write([
        .text(line.category), .text(line.item), line.amount.map { .real(($0 * 1000).rounded() / 1000) } ?? .null,
        line.unit.map(Cell.text) ?? (line.amount == nil ? .null : .text("pieces")), .text(line.reason),
      ])
    }
    writer.finish(next: nil)
  }
}
