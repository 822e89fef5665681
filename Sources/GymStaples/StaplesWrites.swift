import GRDB
import GymCLI
import GymCore

/// The fields of an item a command gives; nil leaves a field as it is.
struct ItemChanges: Equatable {
  var category: String?
  var isStaple: Bool?
  var quantity: Double?
  var unit: String?
  var notes: String?

  /// The given fields as (column, value), in a fixed order: columns never come from the user.
  var assignments: [(String, (any DatabaseValueConvertible)?)] {
    var result: [(String, (any DatabaseValueConvertible)?)] = []
    if let category { result.append(("category", category)) }
    if let isStaple { result.append(("isStaple", isStaple)) }
    if let quantity { result.append(("quantity", quantity)) }
    if let unit { result.append(("unit", unit)) }
    if let notes { result.append(("notes", notes)) }
    return result
  }
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
    let words = parts[1].split(separator: " ", maxSplits: 1).map(String.init)
    guard let value = Double(words[0].replacingOccurrences(of: ",", with: ".")), value.isFinite, value >= 0 else {
      throw GymError.usage("--ingredient '\(text)': '\(words[0])' is not an amount; write ITEM[:AMOUNT [UNIT]]")
    }
    amount = value
    unit = words.count > 1 ? words[1].trimmed : nil
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
      if !changes.assignments.isEmpty { try setItem(db, name: name, changes: changes) }
      return false
    }
    guard let category = changes.category else {
      throw GymError.usage("'\(name)' is a new item: give it a --category")
    }
    try db.execute(
      sql: """
        INSERT INTO grocery_item (name, category, isStaple, quantity, unit, dateCreated, notes)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        name, category, changes.isStaple ?? false, changes.quantity, changes.unit, now.canonical, changes.notes,
      ])
    return true
  }

  /// `set`: the given fields of an existing item.
  static func setItem(_ db: Database, name: String, changes: ItemChanges) throws {
    let given = changes.assignments
    guard !given.isEmpty else {
      throw GymError.usage("nothing to set: give --category, --staple/--no-staple, --quantity, --unit or --notes")
    }
    try db.execute(
      sql: "UPDATE grocery_item SET \(given.map { "\($0.0) = ?" }.joined(separator: ", ")) WHERE name = ?",
      arguments: StatementArguments(given.map(\.1) + [name]))
    if db.changesCount == 0 { throw GymError.noInput("no item named '\(name)'; see 'gym staples --all'") }
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
  /// unless `createMissing` adds it (category "Uncategorized", not a staple).
  static func addRecipe(
    _ db: Database, name: String, servings: Int?, favorite: Bool, notes: String?, ingredients: [IngredientSpec],
    createMissing: Bool, now: Timestamp
  ) throws {
    try db.execute(
      sql: """
        INSERT INTO recipe (name, servings, isFavorite, notes) VALUES (?, ?, ?, ?)
        ON CONFLICT(name) DO UPDATE SET servings = COALESCE(excluded.servings, servings),
          isFavorite = excluded.isFavorite, notes = COALESCE(excluded.notes, notes)
        """, arguments: [name, servings, favorite, notes])
    let recipe = try Int64.fetchOne(db, sql: "SELECT seq FROM recipe WHERE name = ?", arguments: [name])!
    var missing: [String] = []
    for ingredient in ingredients {
      var item = try Int64.fetchOne(
        db, sql: "SELECT seq FROM grocery_item WHERE name = ?", arguments: [ingredient.item])
      if item == nil && createMissing {
        try upsertItem(db, name: ingredient.item, changes: ItemChanges(category: "Uncategorized"), now: now)
        item = try Int64.fetchOne(db, sql: "SELECT seq FROM grocery_item WHERE name = ?", arguments: [ingredient.item])
      }
      guard let item else {
        missing.append(ingredient.item)
        continue
      }
      try db.execute(
        sql: """
          INSERT INTO recipe_ingredient (recipeSeq, itemSeq, amount, unit) VALUES (?, ?, ?, ?)
          ON CONFLICT(recipeSeq, itemSeq) DO UPDATE SET amount = excluded.amount, unit = excluded.unit
          """, arguments: [recipe, item, ingredient.amount, ingredient.unit])
    }
    if !missing.isEmpty {
      // Throwing rolls the whole recipe back.
      throw GymError.data(
        "no item named \(missing.map { "'\($0)'" }.joined(separator: ", ")); add it first or pass --create-missing")
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
