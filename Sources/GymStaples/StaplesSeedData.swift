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
        ("Onions", true, 3, "pcs"), ("Garlic", true, 1, "head"), ("Tomatoes", false, 0, "pcs"),
        ("Lemons", true, 2, "pcs"), ("Spinach", false, nil, nil), ("Potatoes", true, 2, "kg"),
        ("Carrots", false, 5, "pcs"),
        ("Basil", false, nil, nil), ("Avocados", false, 0, "pcs"),
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
    ("Meat", [("Chicken Breast", false, nil, nil), ("Ground Beef", false, nil, nil), ("Bacon", false, 0, "g")]),
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

  static func seed(_ db: Database, now: Timestamp) throws {
    for (category, items) in pantry {
      for (name, staple, quantity, unit) in items {
        try StaplesWrites.upsertItem(
          db, name: name, changes: ItemChanges(category: category, isStaple: staple, quantity: quantity, unit: unit),
          now: now)
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
