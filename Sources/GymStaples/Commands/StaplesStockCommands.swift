import ArgumentParser
import GymCLI
import GymCore

/// `gym staples buy ITEM AMOUNT [UNIT] [--best-before DATE] [--location L]`: a new lot.
struct StaplesBuy: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "buy", abstract: "Add a lot to stock: an amount, its best-before date and where it is kept.",
    discussion: HelpExamples.discussion(
      """
      The amount is converted into the item's unit (g/kg/oz/lb, ml/cl/dl/l/tsp/tbsp/cup/fl oz, pieces; \
      across them only with the item's --unit-weight). An item without a unit takes this one. A new \
      item needs --category.
      """,
      examples: [
        "gym staples buy Milk 2 l --best-before 2026-12-01 --location fridge",
        "gym staples buy Flour 1 kg --category Baking",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var item: ItemAmountArguments
  @Option(help: ArgumentHelp("Best before this day.", valueName: "YYYY-MM-DD")) var bestBefore: String?
  @Option(help: "Where it is kept (fridge, freezer, pantry …).") var location: String?
  @Option(help: ArgumentHelp("Opened on this day.", valueName: "YYYY-MM-DD")) var opened: String?
  @Option(help: "The category, when the item is new.", completion: .custom(StaplesCompletion.categories))
  var category: String?

  func run(context: CommandContext) throws {
    let name = item.name
    let bought = try item.parsed()
    let bestBefore = try bestBefore.map { try WhereParser.parseDay($0, option: "--best-before").text }
    let opened = try opened.map { try WhereParser.parseDay($0, option: "--opened").text }
    let now = Timestamp.now()
    let (item, added, total) = try context.openStoreForWriting().write { db in
      if try Stock.item(db, named: name.trimmed) == nil {
        guard let category, !category.trimmed.isEmpty else {
          throw GymError.usage("'\(name.trimmed)' is a new item: give it a --category")
        }
        try StaplesWrites.upsertItem(
          db, name: name.trimmed, changes: ItemChanges(category: category.trimmed, unit: bought.unit), now: now)
      }
      var item = try Stock.item(db, named: name.trimmed)!
      if item.unit == nil, let unit = bought.unit, try !Stock.countsInPieces(db, item: item.seq) {
        // The first amount with a unit gives an item without one its unit.
        try db.execute(sql: "UPDATE grocery_item SET unit = ? WHERE seq = ?", arguments: [unit, item.seq])
        item.units = ItemUnits(item: item.name, unit: unit, conversions: item.units.conversions)
      }
      let added = try item.units.convert(bought.amount, from: bought.unit)
      try Stock.add(
        db, item: item.seq, amount: added, bestBefore: bestBefore, location: location?.trimmed, opened: opened, now: now
      )
      return (item, added, try Stock.total(db, item: item.seq) ?? 0)
    }
    printNote(
      "bought \(PantryUnit.amount(added, item.unit)) of \(item.name); "
        + "\(PantryUnit.amount(total, item.unit)) in stock")
  }
}

/// `gym staples use ITEM AMOUNT [UNIT] [--force]`: takes from stock, first-expiring first.
struct StaplesUse: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "use",
    abstract: "Take an amount from stock: the lot that expires first, then the oldest (refused below zero).",
    discussion: HelpExamples.discussion(examples: [
      "gym staples use Milk 300 ml",
      "gym staples use Eggs 2 --force",
      "gym staples use Milk 250 ml --spoiled",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var item: ItemAmountArguments
  @Flag(help: "Take what there is when it is less (stock ends at 0).") var force = false
  @Flag(help: "It went off and was thrown away: counted as spoiled by 'gym staples stats'.") var spoiled = false

  func run(context: CommandContext) throws {
    let name = item.name
    let wanted = try item.parsed()
    let now = Timestamp.now()
    let (item, taken, left) = try context.openStoreForWriting().write { db in
      guard let item = try Stock.item(db, named: name.trimmed) else {
        throw GymError.noInput("no item named '\(name.trimmed)'; see 'gym staples --all'")
      }
      let amount = try item.units.convert(wanted.amount, from: wanted.unit)
      let have = try Stock.total(db, item: item.seq) ?? 0
      if have + Stock.tolerance < amount && !force {
        throw GymError(
          .failure,
          "only \(PantryUnit.amount(have, item.unit)) of \(item.name) in stock, not "
            + "\(Quantity.text(amount)); use --force to take what there is")
      }
      let taken = try Stock.take(db, item: item.seq, amount: amount)
      try Stock.recordUse(db, item: item.seq, amount: taken, spoiled: spoiled, now: now)
      return (item, taken, try Stock.total(db, item: item.seq) ?? 0)
    }
    printNote(
      "\(spoiled ? "spoiled" : "used") \(PantryUnit.amount(taken, item.unit)) of \(item.name); "
        + "\(PantryUnit.amount(left, item.unit)) left")
  }
}

/// `ITEM AMOUNT [UNIT]`, the arguments of `buy` and `use`: `Milk 2 l`, or `Milk 300ml`.
struct ItemAmountArguments: ParsableArguments {
  @Argument(help: "The item's name.", completion: .custom(StaplesCompletion.itemNames)) var name: String
  @Argument(help: "How much.") var amount: String
  @Argument(help: "Its unit (default: the item's).") var unit: String?

  func validate() throws { try checkName(name, "item") }

  func parsed() throws(GymError) -> PantryAmount { try StockAmount.parse(amount, unit: unit) }
}

/// An amount from the command line: `2 l` as two arguments, or `300ml` as one.
enum StockAmount {
  static func parse(_ amount: String, unit: String?) throws(GymError) -> PantryAmount {
    guard var parsed = PantryAmount(parsing: amount), parsed.amount > 0 else {
      throw GymError.usage(
        "'\(amount)' is not an amount; write a number above 0 without a thousands separator, such as 2, 0.5 or 1500")
    }
    if let unit {
      guard parsed.unit == nil else { throw GymError.usage("'\(amount) \(unit)': give the unit once") }
      parsed.unit = unit.trimmed
    }
    return parsed
  }
}

/// `gym staples stock [--location L]`: items with stock, their totals and nearest best-before.
struct StaplesStock: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "stock", abstract: "Items in stock: each total, in the item's unit, and the nearest best-before.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples stock",
      "gym staples stock --location fridge -f csv",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "Only the lots kept here.") var location: String?
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func run(context: CommandContext) throws {
    let rows = try context.openStore().read { db in try StockQueries.stock(db, location: location?.trimmed) }
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat,
      columns: ["item", "category", "quantity", "unit", "lots", "bestBefore"])
    for row in rows { writer.write(row) }
    writer.finish(next: nil)
  }
}

/// `gym staples expiring [--days 3]`: lots past or near their best-before, soonest first.
struct StaplesExpiring: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "expiring", abstract: "Lots past or within --days of their best-before, soonest first.",
    discussion: HelpExamples.discussion(examples: [
      "gym staples expiring",
      "gym staples expiring --days 7 -f json",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "How many days ahead (0: today and before).") var days = 3
  @Option(help: "Only the lots kept here.") var location: String?
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func validate() throws {
    if !(0...36_500).contains(days) { throw ValidationError("--days must be 0 to 36500") }
  }

  func run(context: CommandContext) throws {
    let today = CalendarDay.today().days
    let rows = try context.openStore().read { db in
      try StockQueries.expiring(db, by: CalendarDay(days: today + Int64(days)).text, location: location?.trimmed)
    }
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat,
      columns: ["item", "amount", "unit", "bestBefore", "days", "location"])
    for lot in rows {
      let days = CalendarDay(lot.bestBefore).map { $0.days - today }
      writer.write([
        .text(lot.item), .real(Quantity.rounded(lot.amount)), lot.unit.map(Cell.text) ?? .null, .text(lot.bestBefore),
        days.map(Cell.integer) ?? .null, lot.location.map(Cell.text) ?? .null,
      ])
    }
    writer.finish(next: nil)
  }
}
