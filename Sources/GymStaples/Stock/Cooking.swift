import GRDB
import GymCLI
import GymCore

/// What recipes need from stock: cooking takes it, `cookable` ranks recipes by it, and the
/// shopping list adds what is short.
enum Cooking {
  /// One ingredient as stock sees it: the item and the amount in the item's unit (nil: to taste,
  /// never taken from stock nor missed).
  struct Need {
    let item: Int64
    let name: String
    let category: String
    let unit: String?
    let amount: Double?
  }

  /// A shortfall: what a recipe needs beyond the stock.
  struct Short: CustomStringConvertible {
    let name: String
    let missing: Double
    let unit: String?
    var description: String { "\(name) \(Quantity.text(missing)) \(PantryUnit.name(unit))" }
  }

  /// The recipe's seq and servings; a missing recipe is exit 66.
  static func recipe(_ db: Database, named name: String) throws -> (seq: Int64, servings: Int?) {
    guard let row = try Row.fetchOne(db, sql: "SELECT seq, servings FROM recipe WHERE name = ?", arguments: [name])
    else { throw GymError.noInput("no recipe named '\(name)'; see 'gym staples recipes'") }
    return (row[0], row[1])
  }

  /// The scale `--servings N` means for a recipe written for `base` servings.
  static func scale(recipe name: String, base: Int?, servings: Double?) throws -> Double {
    guard let servings else { return 1 }
    guard let base else {
      throw GymError.usage(
        "'\(name)' does not say how many it serves, so --servings cannot scale it; set it with: "
          + "gym staples recipe add \(ShellWord.plainOrQuoted(name)) --servings N"
      )
    }
    return servings / Double(base)
  }

  /// Each ingredient's need for the recipe at `scale`, converted into its item's unit.
  static func needs(_ db: Database, recipe: Int64, scale: Double) throws -> [Need] {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT g.seq, g.name, g.category, g.unit, ri.amount, ri.unit FROM recipe_ingredient ri
        JOIN grocery_item g ON g.seq = ri.itemSeq WHERE ri.recipeSeq = ? ORDER BY g.category, g.name
        """, arguments: [recipe])
    return try rows.map { row in
      let seq: Int64 = row[0]
      let name: String = row[1]
      let unit: String? = row[3]
      let amount: Double? = row[4]
      let units = ItemUnits(item: name, unit: unit, conversions: try Stock.conversions(db, item: seq))
      return Need(
        item: seq, name: name, category: row[2], unit: unit,
        amount: try amount.map { try units.convert($0 * scale, from: row[5] as String?) })
    }
  }

  /// Cooks: takes every need from stock in this transaction and records the cooking. Lots past
  /// their best-before on `now`'s local day are not stock: short of anything, it refuses listing all
  /// of it (and what is there expired), or with `force` takes what there is, expired lots last, and
  /// records the shortfall. Returns the recipe's new use count and what was short.
  static func cook(_ db: Database, recipe name: String, servings: Double?, force: Bool, now: Timestamp) throws
    -> (count: Int, short: [Short])
  {
    let recipe = try recipe(db, named: name)
    let needs = try needs(
      db, recipe: recipe.seq, scale: try scale(recipe: name, base: recipe.servings, servings: servings))
    let today = CalendarDay.today(now).text
    var short: [Short] = []
    var expired: [String] = []
    for need in needs {
      guard let amount = need.amount else { continue }
      let (good, all) = try Stock.amounts(db, item: need.item, today: today) ?? (0, 0)
      let have = force ? all : good
      if have + Stock.tolerance < amount {
        short.append(Short(name: need.name, missing: amount - have, unit: need.unit))
      }
      if !force, good + Stock.tolerance < amount, all > good + Stock.tolerance {
        expired.append("\(PantryUnit.amount(all - good, need.unit)) of \(need.name)")
      }
    }
    if !short.isEmpty && !force {
      throw GymError(
        .failure,
        "not enough for '\(name)': short of \(short.map(\.description).joined(separator: ", "))"
          + (expired.isEmpty ? "" : " (past its best-before: \(expired.joined(separator: ", ")))")
          + "; buy it (gym staples buy), or cook with --force to use what there is")
    }
    try db.execute(
      sql: "INSERT INTO cooking (seq, recipeSeq, cookedAt, servings, shortfall) VALUES (?, ?, ?, ?, ?)",
      arguments: [
        GlobalKey.random(), recipe.seq, now.canonical, servings,
        short.isEmpty ? nil : short.map(\.description).joined(separator: "; "),
      ])
    let cooking = db.lastInsertedRowID
    for need in needs {
      guard let amount = need.amount else { continue }
      // Good lots first; with --force, what is left from expired ones.
      var taken = try Stock.take(db, item: need.item, amount: amount, goodOn: today)
      if force, amount - taken > Stock.tolerance {
        taken += try Stock.take(db, item: need.item, amount: amount - taken)
      }
      try Stock.recordUse(db, item: need.item, amount: taken, cooking: cooking, now: now)
    }
    let count = try StaplesWrites.cook(db, name: name, now: now)
    return (count, short)
  }
}

/// Amounts for people: up to three decimals, no trailing zeros (`0.3`, `2`, `1.125`).
enum Quantity {
  /// To the thousandth of its unit, as `text` shows it: a total of converted lots (1 kg and 2 lb,
  /// 1.90718474 kg) reads 1.907 in `stock` as in what `buy` and `use` say.
  static func rounded(_ value: Double) -> Double {
    guard value.isFinite, abs(value) < 1e15 else { return value }
    return (value * 1000).rounded() / 1000
  }

  static func text(_ value: Double) -> String {
    var text = String(format: "%.3f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}
