import ArgumentParser
import GymCLI
import GymCore

/// `gym staples recipes [--most-used | --recent | --favorites]`.
struct StaplesRecipes: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "recipes", abstract: "List recipes: by name, most used, most recently cooked, or favourites.",
    discussion: HelpExamples.discussion(
      FieldHelp.line(StaplesSchema.recipes),
      examples: [
        "gym staples recipes --most-used -n 5",
        "gym staples recipes --favorites -f json",
        "gym staples recipes -w 'servings >= 2' --sort usageCount:desc",
      ]))

  enum Order: EnumerableFlag {
    case mostUsed, recent, favorites
  }

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Flag(help: "The order (default: by name).") var order: Order?
  @OptionGroup var filter: FilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  func validate() throws {
    if order != nil && sorting.sort != nil { throw ValidationError("give --sort or an order flag, not both") }
  }

  func run(context: CommandContext) throws {
    var filters: [RecordFilter] = []
    if let predicate = try filter.predicate(for: StaplesSchema.recipes) { filters.append(predicate) }
    var sort = sorting.keys ?? StaplesSchema.recipes.defaultSort
    switch order {
    case .mostUsed: sort = StaplesSchema.mostUsed
    case .recent:
      filters.append(.compare("lastUsed", .notEqual, .null))
      sort = [SortKey("lastUsed", descending: true)]
    case .favorites: filters.append(.compare("isFavorite", .equal, .bool(true)))
    case nil: break
    }
    let query = try RecordListing.query(
      table: StaplesSchema.recipes, filters: filters, output: output, paging: paging, context: context, sort: sort)
    try RecordListing.write(query, store: try context.openStore(), format: context.format(output), ids: output.ids)
  }
}

/// `gym staples recipe add|show|remove`.
struct RecipeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "recipe", abstract: "Add, show or remove a recipe.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples recipe show 'Chicken Curry'",
      "gym staples recipe add Toast --ingredient 'Bread:2' --ingredient 'Butter:10 g'",
    ]), subcommands: [Add.self, Show.self, Remove.self])

  struct Add: GymCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a recipe (or update one) with its ingredients.",
      discussion: HelpExamples.discussion(
        "Ingredients: --ingredient 'Milk:200 ml' (ITEM[:AMOUNT [UNIT]]), once per ingredient; without a unit, "
          + "the item's. A unit the item's cannot be converted from is refused (64) and nothing is saved; an "
          + "item without a unit yet, or one --create-missing adds, takes the ingredient's.",
        examples: [
          "gym staples recipe add Toast --ingredient 'Bread:2' --ingredient 'Butter:10 g' --servings 1",
          "gym staples recipe add Porridge --ingredient 'Oats:80 g' --create-missing",
        ]))

    @OptionGroup(title: "Common options") var global: GlobalOptions
    @Argument(help: "The recipe's name.", completion: .custom(StaplesCompletion.recipeNames)) var name: String
    @Option(name: .customLong("ingredient"), help: "ITEM[:AMOUNT [UNIT]], repeatable.") var ingredients: [String] = []
    @Option(help: "How many it serves.") var servings: Int?
    @Flag(help: "Mark it as a favourite.") var favorite = false
    @Option(help: "Free text.") var notes: String?
    @Flag(help: "Add ingredients that are not items yet (category Uncategorized).") var createMissing = false

    func validate() throws {
      try checkName(name, "recipe")
      if let servings, servings < 1 || servings > 10_000 { throw ValidationError("--servings must be from 1 to 10000") }
    }

    func run(context: CommandContext) throws {
      let specs = try ingredients.map { try IngredientSpec(parsing: $0) }
      try context.openStoreForWriting().write { db in
        try StaplesWrites.addRecipe(
          db, name: name.trimmed, servings: servings, favorite: favorite, notes: notes, ingredients: specs,
          createMissing: createMissing, now: .now())
      }
      printIdentifier(name.trimmed)
      printNote("saved recipe '\(name.trimmed)' with \(specs.count) ingredient\(specs.count == 1 ? "" : "s")")
    }
  }

  struct Show: GymCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show a recipe and its ingredients.",
      discussion: HelpExamples.discussion(
        """
        json and ndjson: one object, its ingredients in "ingredients" (what 'staples import --recipes' \
        reads back); csv and tsv: the recipe's own fields.
        """,
        examples: [
          "gym staples recipe show 'Chicken Curry'",
          "gym staples recipe show 'Chicken Curry' -f json",
        ]))

    @OptionGroup(title: "Common options") var global: GlobalOptions
    @Argument(help: "The recipe's name.", completion: .custom(StaplesCompletion.recipeNames)) var name: String
    @OptionGroup var formatting: FormatOptions
    var format: OutputFormat? { formatting.format }

    /// An ingredient line as `show` prints it; `inStock` is the item's, not the recipe's.
    static let ingredientFields = ["item", "category", "amount", "unit", "inStock"]

    func run(context: CommandContext) throws {
      let query = Query(table: StaplesSchema.recipes, filter: .compare("name", .equal, .text(name.trimmed)), limit: 1)
      let fields = StaplesSchema.recipes.fields
      let (recipe, ingredients) = try context.openStore().read { db -> ([Cell]?, [[Cell]]) in
        var cells: [Cell]?
        try query.forEachRow(db) { cells = RecordListing.cells($0, fields) }
        return (cells, try StaplesQueries.ingredients(db, recipe: name.trimmed))
      }
      guard let recipe else { throw GymError.noInput("no recipe named '\(name)'; see 'gym staples recipes'") }
      let chosen = format ?? context.configuration.outputFormat
      let out = BufferedOutput.standardOutput()
      switch chosen {
      case .json, .ndjson:
        JSONValue.record(recipe, names: fields.map(\.name))
          .adding([("ingredients", .array(ingredients.map { .record($0, names: Self.ingredientFields) }))])
          .writeLine(to: out)
      case .csv, .tsv:
        RecordListing.writeOne(recipe, fields: fields, format: chosen)
      case .table:
        RecordListing.writeOne(recipe, fields: fields, format: chosen)
        out.write("\ningredients\n")
        let writer = RecordWriter(format: .table, columns: Self.ingredientFields, out: out)
        for row in ingredients { writer.write(row) }
        writer.finish(next: nil)
      }
    }
  }

  struct Remove: GymCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Remove recipes by name (all or none).",
      discussion: HelpExamples.discussion(examples: [
        "gym staples recipe remove 'Chicken Curry' --dry-run",
        "gym staples recipe rm 'Chicken Curry'",
      ]), aliases: ["rm", "delete"])

    @OptionGroup(title: "Common options") var global: GlobalOptions
    @Argument(help: "The recipes' names.", completion: .custom(StaplesCompletion.recipeNames))
    var names: [String]
    @OptionGroup var removal: RemoveOptions

    func validate() throws {
      if names.isEmpty { throw ValidationError("give at least one recipe name") }
    }

    func run(context: CommandContext) throws {
      try RecordRemoval.run(
        store: try context.openStore(), keys: names.map(\.trimmed), noun: "recipe", options: removal
      ) { db, name in
        try StaplesWrites.removeRecipe(db, name: name) ? "recipe '\(name)'" : nil
      }
    }
  }
}

extension StaplesRecipes: ListsTable {
  static var listedTable: TableSchema { StaplesSchema.recipes }
}
