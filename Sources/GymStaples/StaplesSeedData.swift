import GRDB
import GymCore

/// A realistic pantry and recipe set for `gym staples seed`, and the generator `gym bench` uses.
enum StaplesSeedData {
  /// (category, [(name, isStaple, quantity, unit)])
  static let pantry: [(String, [(String, Bool, Double?, String?)])] = [
    (
      "Dairy",
      [
        ("Milk", true, 1, "l"), ("Butter", true, 250, "g"), ("Eggs", true, 6, "pcs"), ("Yogurt", false, nil, nil),
        ("Cheddar", false, 200, "g"), ("Parmesan", true, 0, "g"),
      ]
    ),
    ("Bakery", [("Bread", true, 1, "loaf"), ("Tortillas", false, nil, nil), ("Bagels", false, 4, "pcs")]),
    (
      "Produce",
      [
        ("Onions", true, 3, "pcs"), ("Garlic", true, 10, "cloves"), ("Tomatoes", false, 0, "pcs"),
        ("Lemons", true, 2, "pcs"), ("Spinach", false, 200, "g"), ("Potatoes", true, 2, "kg"),
        ("Carrots", false, 5, "pcs"),
        ("Basil", false, nil, "bunch"), ("Avocados", false, 0, "pcs"),
      ]
    ),
    (
      "Pantry",
      [
        ("Olive Oil", true, 0.5, "l"), ("Rice", true, 1, "kg"), ("Spaghetti", true, 500, "g"), ("Flour", true, 1, "kg"),
        ("Sugar", true, 500, "g"), ("Canned Tomatoes", true, 2, "cans"), ("Chickpeas", false, 0, "cans"),
        ("Oats", true, 750, "g"),
      ]
    ),
    (
      "Spices",
      [("Salt", true, 1, "kg"), ("Black Pepper", true, 50, "g"), ("Cumin", false, 30, "g"), ("Paprika", false, 0, "g")]
    ),
    ("Meat", [("Chicken Breast", false, nil, "g"), ("Ground Beef", false, nil, nil), ("Bacon", false, 0, "g")]),
    ("Frozen", [("Peas", true, 400, "g"), ("Berries", false, 0, "g")]),
    ("Beverages", [("Coffee", true, 250, "g"), ("Tea", true, 40, "bags")]),
  ]

  /// (name, servings, favourite, uses, [(item, amount, unit)])
  static let recipes: [(String, Int, Bool, Int, [(String, Double, String)])] = [
    (
      "Spaghetti Pomodoro", 2, true, 12,
      [
        ("Spaghetti", 200, "g"), ("Canned Tomatoes", 1, "cans"), ("Garlic", 2, "cloves"),
        ("Basil", 1, "bunch"), ("Olive Oil", 2, "tbsp"), ("Parmesan", 30, "g"),
      ]
    ),
    ("Omelette", 1, true, 20, [("Eggs", 3, "pcs"), ("Butter", 10, "g"), ("Cheddar", 30, "g"), ("Spinach", 40, "g")]),
    (
      "Chicken Curry", 4, false, 5,
      [
        ("Chicken Breast", 500, "g"), ("Onions", 2, "pcs"), ("Garlic", 3, "cloves"),
        ("Canned Tomatoes", 1, "cans"), ("Cumin", 1, "tsp"), ("Rice", 300, "g"),
      ]
    ),
    (
      "Hummus", 4, false, 3,
      [("Chickpeas", 2, "cans"), ("Lemons", 1, "pcs"), ("Garlic", 1, "cloves"), ("Olive Oil", 3, "tbsp")]
    ),
    (
      "Pancakes", 2, true, 8,
      [("Flour", 200, "g"), ("Milk", 0.3, "l"), ("Eggs", 2, "pcs"), ("Sugar", 20, "g"), ("Berries", 100, "g")]
    ),
    (
      "Guacamole", 2, false, 2,
      [("Avocados", 2, "pcs"), ("Lemons", 1, "pcs"), ("Tomatoes", 1, "pcs"), ("Onions", 0.5, "pcs")]
    ),
    ("Porridge", 1, false, 30, [("Oats", 60, "g"), ("Milk", 0.25, "l"), ("Berries", 50, "g")]),
    (
      "Roast Potatoes", 4, false, 4,
      [("Potatoes", 1, "kg"), ("Olive Oil", 3, "tbsp"), ("Salt", 1, "tsp"), ("Paprika", 1, "tsp")]
    ),
  ]

  /// How long each category keeps, in days, and where it is kept: the seeded lots' best-before
  /// dates and locations (staggered a day per item, so `expiring` has something to show).
  static let keeping: [String: (days: Int64, location: String)] = [
    "Dairy": (5, "fridge"), "Bakery": (2, "pantry"), "Produce": (4, "fridge"), "Pantry": (300, "pantry"),
    "Spices": (600, "pantry"), "Meat": (2, "fridge"), "Frozen": (90, "freezer"), "Beverages": (200, "pantry"),
  ]

  /// The seeded items' own conversions, for the recipes that measure them in spoons.
  static let conversions = [
    "Salt: 1 tsp = 6 g", "Cumin: 1 tsp = 2 g", "Paprika: 1 tsp = 2.3 g", "Eggs: 1 pcs = 60 g",
  ]

  static func seed(_ db: Database, now: Timestamp) throws {
    let today = now.localDays
    for (category, items) in pantry {
      for (index, (name, staple, quantity, unit)) in items.enumerated() {
        var changes = ItemChanges(category: category, isStaple: staple, quantity: quantity, unit: unit)
        changes.conversions = try conversions.map { try UnitConversion.parse($0) }.filter { $0.item == name }
          .map(\.conversion)
        if staple { changes.minStock = quantity.map { $0 > 0 ? $0 : 1 } }
        try StaplesWrites.upsertItem(db, name: name, changes: changes, now: now)
        guard let keeping = keeping[category], let quantity, quantity > 0 else { continue }
        try db.execute(
          sql: """
            UPDATE stock_lot SET bestBefore = ?, location = ?
            WHERE itemSeq = (SELECT seq FROM grocery_item WHERE name = ?)
            """,
          arguments: [CalendarDay(days: today + keeping.days + Int64(index) - 1).text, keeping.location, name])
      }
    }
    for (offset, (name, servings, favorite, uses, ingredients)) in recipes.enumerated() {
      try StaplesWrites.addRecipe(
        db, name: name, servings: servings, favorite: favorite, notes: nil,
        ingredients: ingredients.map { IngredientSpec(item: $0.0, amount: $0.1, unit: $0.2) }, createMissing: false,
        now: now)
      try db.execute(
        sql: "UPDATE recipe SET usageCount = ?, lastUsed = ? WHERE name = ?",
        arguments: [uses, now.adding(milliseconds: -Int64(offset) * 86_400_000).canonical, name])
    }
  }
}

extension IngredientSpec {
  init(item: String, amount: Double?, unit: String?) {
    self.item = item
    self.amount = amount
    self.unit = unit
  }
}
