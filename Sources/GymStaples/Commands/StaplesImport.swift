import ArgumentParser
import GymCLI
import GymCore

/// `gym staples import FILE|-`: items (or, with `--recipes`, recipes) as `staples list` and
/// `staples show` (or `staples recipes`) print them, in NDJSON, JSON or CSV; matched by name.
struct StaplesImport: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import items or recipes as gym prints them (NDJSON, JSON, CSV; all or nothing).",
    discussion: HelpExamples.discussion(
      """
      Items are matched by name: a record whose name exists updates that item where a value \
      differs; its quantity sets its stock, through its lots, as 'staples set --quantity' does. A record may leave out isStaple (false) and dateCreated (now); a recipe, usageCount \
      (0) and isFavorite (false). A recipe as 'recipe show --format json' prints it brings its \
      ingredients: the recipe's lines become exactly those. Importing the same file twice changes \
      nothing.
      """,
      examples: [
        "gym staples list --all -f json > pantry.json && gym staples import pantry.json",
        "gym staples recipes -f csv | gym staples import - --recipes --dry-run",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The file to read, or - for stdin.") var file: String
  @Flag(help: "Recipes (as 'staples recipes' prints them) instead of items.") var recipes = false
  @Option(help: "The format (default: from the extension, else the first byte).")
  var inputFormat: InputFormat?
  @Flag(help: "Update only the fields each record gives.") var partial = false
  @OptionGroup var dryRunOption: ImportDryRunOption

  func run(context: CommandContext) throws {
    let progress = ProgressLine("importing")
    defer { progress.finish() }
    let dryRun = dryRunOption.dryRun
    let openStore = context.storeForImport(dryRun: dryRun)
    var job = RecordImport(
      table: recipes ? StaplesSchema.recipes : StaplesSchema.items, conflict: .updateChanged(key: "name"), path: file,
      format: inputFormat)
    job.partial = partial
    job.afterLoad = StaplesKeys.assignDerived
    let ingredients = RecipeIngredientImport()
    let stock = ItemStockImport()
    if recipes { job.nested = ingredients } else { job.extra = stock }
    let counts = try job.run(openStore: openStore, progress: progress)
    progress.finish()
    printNote(
      ImportNote.line(
        counts, recipes ? "recipes" : "items", dryRun: dryRun, counted: openStore != nil,
        more: ingredients.changedRecipes > 0
          ? "; ingredients changed in \(ingredients.changedRecipes) recipes"
          : stock.changedItems > 0 ? "; stock changed for \(stock.changedItems) items" : ""))
  }
}
