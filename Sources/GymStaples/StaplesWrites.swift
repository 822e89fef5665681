import GRDB
import GymCLI
import GymCore

/// The fields of an item a command gives; nil leaves a field as it is.
struct ItemChanges: Equatable {
  var category: String?
  var isStaple: Bool?
  /// The stock to set, through the lots (never a column of its own).
  var quantity: Double?
  var unit: String?
  var notes: String?
  var minStock: Double?
  var conversions: [UnitConversion] = []

  init(
    category: String? = nil, isStaple: Bool? = nil, quantity: Double? = nil, unit: String? = nil, notes: String? = nil
  ) {
    self.category = category
    self.isStaple = isStaple
    self.quantity = quantity
    self.unit = unit
    self.notes = notes
  }

  /// The given columns as (column, value), in a fixed order: columns never come from the user. The
  /// unit is set apart (its lots convert with it).
  var assignments: [(String, (any DatabaseValueConvertible)?)] {
    var result: [(String, (any DatabaseValueConvertible)?)] = []
    if let category { result.append(("category", category)) }
    if let isStaple { result.append(("isStaple", isStaple)) }
    if let notes { result.append(("notes", notes)) }
    if let minStock { result.append(("minStock", minStock)) }
    return result
  }

  var isEmpty: Bool { assignments.isEmpty && quantity == nil && unit == nil && conversions.isEmpty }
}

/// An ingredient line as given on the command line: `Milk`, `Milk:200`, `Milk:200 ml`.
struct IngredientSpec: Equatable {
  var item: String
  var amount: Double?
  var unit: String?

  init(parsing text: String) throws(GymError) {
    let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(\.trimmed)
    guard let name = parts.first, !name.isEmpty else {
      throw GymError.usage("--ingredient '\(text)' has no item name; write ITEM[:AMOUNT [UNIT]], e.g. 'Milk:200 ml'")
    }
    item = name
    guard parts.count == 2, !parts[1].isEmpty else {
      amount = nil
      unit = nil
      return
    }
    guard let parsed = PantryAmount(parsing: parts[1]) else {
      throw GymError.usage(
        "--ingredient '\(text)': '\(parts[1])' is not an amount; write ITEM[:AMOUNT [UNIT]], such as 'Milk:200 ml'")
    }
    amount = parsed.amount
    unit = parsed.unit
  }
}

/// Every write is one short statement or transaction; counters change in SQL, never by
/// read-modify-write, so two processes writing at once lose nothing (seed 004's merge policy:
/// the newer values win, field by field, for the fields given).
enum StaplesWrites {
  /// `add`: a new item, or the given fields of an existing one. Returns whether it was new.
  @discardableResult
  static func upsertItem(_ db: Database, name: String, changes: ItemChanges, now: Timestamp) throws -> Bool {
    // One IMMEDIATE transaction (GRDB's default for writes): nobody adds the name in between.
    let existed = try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM grocery_item WHERE name = ?)", arguments: [name])!
    if existed {
      if !changes.isEmpty { try setItem(db, name: name, changes: changes, now: now) }
      return false
    }
    guard let category = changes.category else {
      throw GymError.usage("'\(name)' is a new item: give it a --category")
    }
    try db.execute(
      sql: """
        INSERT INTO grocery_item (seq, name, category, isStaple, unit, minStock, dateCreated, notes)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        StaplesKeys.item(name), name, category, changes.isStaple ?? false, changes.unit, changes.minStock,
        now.canonical, changes.notes,
      ])
    let seq = db.lastInsertedRowID
    for conversion in changes.conversions { try Stock.setConversion(db, item: seq, conversion) }
    if let quantity = changes.quantity { try Stock.setTotal(db, item: seq, total: quantity, now: now) }
    return true
  }

  /// `set`: the given fields of an existing item. A new unit converts its lots (2 l becomes 2000 ml),
  /// what was taken and cooked of it, and its minimum stock; one of another dimension is refused while
  /// any of them is there to convert.
  static func setItem(_ db: Database, name: String, changes: ItemChanges, now: Timestamp) throws {
    guard !changes.isEmpty else {
      throw GymError.usage(
        "nothing to set: give --category, --staple/--no-staple, --quantity, --unit, --min-stock, --unit-weight or --notes"
      )
    }
    guard let item = try Stock.item(db, named: name) else {
      throw GymError.noInput("no item named '\(name)'; see 'gym staples --all'")
    }
    let given = changes.assignments
    if !given.isEmpty {
      try db.execute(
        sql: "UPDATE grocery_item SET \(given.map { "\($0.0) = ?" }.joined(separator: ", ")) WHERE seq = ?",
        arguments: StatementArguments(given.map(\.1) + [item.seq]))
    }
    for conversion in changes.conversions { try Stock.setConversion(db, item: item.seq, conversion) }
    if let unit = changes.unit, unit != item.unit {
      // Every amount kept in the item's unit goes over with it: its lots, what was taken and cooked
      // (the pantry's stats), and the minimum stock unless this command gives a new one.
      let hasStock = (try Stock.total(db, item: item.seq)).map { $0 > Stock.tolerance } ?? false
      let hasUses = try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM stock_use WHERE itemSeq = ?)", arguments: [item.seq])!
      let minimum = try Double.fetchOne(
        db, sql: "SELECT minStock FROM grocery_item WHERE seq = ?", arguments: [item.seq])
      let hasMinimum = changes.minStock == nil && (minimum ?? 0) > 0  // 0 is 0 in any unit
      if hasStock || hasUses || hasMinimum {
        // Converted as a lot would be: the new unit's size in the old, the item's conversions across.
        // An item without a unit counts its lots in pieces: one piece, not "1 of the new unit".
        let factor = try ItemUnits(item: item.name, unit: unit, conversions: try Stock.conversions(db, item: item.seq))
          .convert(1, from: item.unit ?? "pieces")
        try db.execute(
          sql: "UPDATE stock_lot SET amount = amount * ? WHERE itemSeq = ?", arguments: [factor, item.seq])
        try db.execute(
          sql: "UPDATE stock_use SET amount = amount * ? WHERE itemSeq = ?", arguments: [factor, item.seq])
        if hasMinimum {
          try db.execute(
            sql: "UPDATE grocery_item SET minStock = minStock * ? WHERE seq = ?", arguments: [factor, item.seq])
        }
      }
      try db.execute(sql: "UPDATE grocery_item SET unit = ? WHERE seq = ?", arguments: [unit, item.seq])
    }
    if let quantity = changes.quantity { try Stock.setTotal(db, item: item.seq, total: quantity, now: now) }
  }

  /// Deletes the item; false when there is none of that name.
  static func removeItem(_ db: Database, name: String) throws -> Bool {
    let users = try String.fetchAll(
      db,
      sql: """
        SELECT recipe.name FROM recipe_ingredient
        JOIN recipe ON recipe.seq = recipe_ingredient.recipeSeq
        JOIN grocery_item ON grocery_item.seq = recipe_ingredient.itemSeq
        WHERE grocery_item.name = ? ORDER BY recipe.name
        """, arguments: [name])
    guard users.isEmpty else {
      throw GymError.data(
        "'\(name)' is an ingredient of \(users.joined(separator: ", ")); remove it from those recipes first")
    }
    try db.execute(sql: "DELETE FROM grocery_item WHERE name = ?", arguments: [name])
    return db.changesCount > 0
  }

  /// `recipe add`: the recipe and its ingredient lines; a missing item is an error naming it,
  /// unless `createMissing` adds it (category "Uncategorized", not a staple, in the ingredient's
  /// unit). An ingredient in a unit its item's cannot be converted from is refused now, naming both,
  /// rather than when the recipe is cooked; an item without a unit yet takes the ingredient's.
  static func addRecipe(
    _ db: Database, name: String, servings: Int?, favorite: Bool, notes: String?, ingredients: [IngredientSpec],
    createMissing: Bool, now: Timestamp
  ) throws {
    try db.execute(
      sql: """
        INSERT INTO recipe (seq, name, servings, isFavorite, notes) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET servings = COALESCE(excluded.servings, servings),
          isFavorite = excluded.isFavorite, notes = COALESCE(excluded.notes, notes)
        """, arguments: [StaplesKeys.recipe(name), name, servings, favorite, notes])
    let recipe = try Int64.fetchOne(db, sql: "SELECT seq FROM recipe WHERE name = ?", arguments: [name])!
    var missing: [String] = []
    var unconvertible: [String] = []
    for ingredient in ingredients {
      var item = try Int64.fetchOne(
        db, sql: "SELECT seq FROM grocery_item WHERE name = ?", arguments: [ingredient.item])
      if item == nil && createMissing {
        try upsertItem(
          db, name: ingredient.item, changes: ItemChanges(category: "Uncategorized", unit: ingredient.unit), now: now)
        item = try Int64.fetchOne(db, sql: "SELECT seq FROM grocery_item WHERE name = ?", arguments: [ingredient.item])
      }
      guard let item else {
        missing.append(ingredient.item)
        continue
      }
      if let amount = ingredient.amount, let unit = ingredient.unit, !unit.trimmed.isEmpty {
        let itemUnit = try String.fetchOne(db, sql: "SELECT unit FROM grocery_item WHERE seq = ?", arguments: [item])
        if itemUnit?.trimmed.isEmpty ?? true, try !Stock.countsInPieces(db, item: item) {
          try db.execute(sql: "UPDATE grocery_item SET unit = ? WHERE seq = ?", arguments: [unit.trimmed, item])
        } else {
          let units = ItemUnits(
            item: ingredient.item, unit: itemUnit, conversions: try Stock.conversions(db, item: item))
          do {
            _ = try units.convert(amount, from: unit)
          } catch {
            unconvertible.append(error.message)
          }
        }
      }
      try db.execute(
        sql: """
          INSERT INTO recipe_ingredient (seq, recipeSeq, itemSeq, amount, unit) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT DO UPDATE SET amount = excluded.amount, unit = excluded.unit
          """,
        arguments: [
          StaplesKeys.ingredient(recipe: recipe, item: item), recipe, item, ingredient.amount, ingredient.unit,
        ])
    }
    if !missing.isEmpty {
      // Throwing rolls the whole recipe back.
      throw GymError.data(
        "no item named \(missing.map { "'\($0)'" }.joined(separator: ", ")); add it first or pass --create-missing")
    }
    if !unconvertible.isEmpty {
      throw GymError.usage(
        "recipe '\(name)' was not saved: \(unconvertible.joined(separator: "; ")) "
          + "(give the item a --unit-weight with 'gym staples set', or write the ingredient in its unit)")
    }
  }

  /// Deletes the recipe; false when there is none of that name.
  static func removeRecipe(_ db: Database, name: String) throws -> Bool {
    try db.execute(sql: "DELETE FROM recipe WHERE name = ?", arguments: [name])
    return db.changesCount > 0
  }

  /// `cook`: one statement, so concurrent cooks all count.
  static func cook(_ db: Database, name: String, now: Timestamp) throws -> Int {
    let count = try Int.fetchOne(
      db, sql: "UPDATE recipe SET usageCount = usageCount + 1, lastUsed = ? WHERE name = ? RETURNING usageCount",
      arguments: [now.canonical, name])
    guard let count else { throw GymError.noInput("no recipe named '\(name)'; see 'gym staples recipes'") }
    return count
  }
}
