import GRDB
import GymCore

/// The staples tables' keys, the same on every device (`GlobalKey`): an item's and a recipe's come
/// from their names as the tables compare them (case-insensitive in ASCII, as `COLLATE NOCASE` and
/// SQL's `lower()`), an ingredient line's from its recipe and item, a conversion's from its item and
/// units; a lot, a cooking and a taking get random ones.
enum StaplesKeys {
  static func item(_ name: String) -> Int64 { GlobalKey.derived("grocery_item", GlobalKey.lowered(name)) }
  static func recipe(_ name: String) -> Int64 { GlobalKey.derived("recipe", GlobalKey.lowered(name)) }
  static func ingredient(recipe: Int64, item: Int64) -> Int64 {
    GlobalKey.derived("recipe_ingredient", String(recipe), String(item))
  }
  static func conversion(item: Int64, from: String, to: String) -> Int64 {
    GlobalKey.derived("item_conversion", String(item), from, to)
  }

  /// Gives every item, recipe, ingredient line and conversion its derived key, and moves what points
  /// at them along; rows that have theirs already stay. After a bulk load that added rows by rowid
  /// (`staples import`), in its transaction: the references are checked at its commit.
  static func assignDerived(_ db: Database) throws {
    try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
    try db.execute(sql: derivedSQL)
  }

  /// The statements of `assignDerived`, which migration `staples/004-global-keys` runs too.
  static let derivedSQL = """
    CREATE TEMP TABLE staples_key (tbl TEXT NOT NULL, old INTEGER NOT NULL, new INTEGER NOT NULL, PRIMARY KEY (tbl, old));
    INSERT INTO staples_key SELECT 'grocery_item', seq, gym_key('grocery_item', lower(name)) FROM grocery_item
      WHERE seq <> gym_key('grocery_item', lower(name));
    INSERT INTO staples_key SELECT 'recipe', seq, gym_key('recipe', lower(name)) FROM recipe
      WHERE seq <> gym_key('recipe', lower(name));
    UPDATE recipe_ingredient SET
      recipeSeq = coalesce((SELECT new FROM staples_key WHERE tbl = 'recipe' AND old = recipeSeq), recipeSeq),
      itemSeq = coalesce((SELECT new FROM staples_key WHERE tbl = 'grocery_item' AND old = itemSeq), itemSeq);
    UPDATE item_conversion SET
      itemSeq = coalesce((SELECT new FROM staples_key WHERE tbl = 'grocery_item' AND old = itemSeq), itemSeq);
    UPDATE stock_lot SET
      itemSeq = coalesce((SELECT new FROM staples_key WHERE tbl = 'grocery_item' AND old = itemSeq), itemSeq);
    UPDATE stock_use SET
      itemSeq = coalesce((SELECT new FROM staples_key WHERE tbl = 'grocery_item' AND old = itemSeq), itemSeq);
    UPDATE cooking SET
      recipeSeq = coalesce((SELECT new FROM staples_key WHERE tbl = 'recipe' AND old = recipeSeq), recipeSeq);
    UPDATE grocery_item SET seq = (SELECT new FROM staples_key WHERE tbl = 'grocery_item' AND old = seq)
      WHERE seq IN (SELECT old FROM staples_key WHERE tbl = 'grocery_item');
    UPDATE recipe SET seq = (SELECT new FROM staples_key WHERE tbl = 'recipe' AND old = seq)
      WHERE seq IN (SELECT old FROM staples_key WHERE tbl = 'recipe');
    UPDATE recipe_ingredient SET seq = gym_key('recipe_ingredient', recipeSeq, itemSeq)
      WHERE seq <> gym_key('recipe_ingredient', recipeSeq, itemSeq);
    UPDATE item_conversion SET seq = gym_key('item_conversion', itemSeq, fromUnit, toUnit)
      WHERE seq <> gym_key('item_conversion', itemSeq, fromUnit, toUnit);
    DROP TABLE temp.staples_key;
    """

  /// Migration `staples/004-global-keys`: the derived keys, and random ones for the lots, cookings
  /// and takings (SQLite's `random()`, masked to 53 bits, as `GlobalKey.random` draws them).
  static let migration = Migration(
    "staples/004-global-keys", .custom,
    touches: ["grocery_item", "recipe", "recipe_ingredient", "item_conversion", "stock_lot", "cooking", "stock_use"],
    sql: """
      CREATE TEMP TABLE staples_random_key (tbl TEXT NOT NULL, old INTEGER NOT NULL, new INTEGER NOT NULL, PRIMARY KEY (tbl, old));
      INSERT INTO staples_random_key SELECT 'stock_lot', seq, random() & 9007199254740991 FROM stock_lot;
      INSERT INTO staples_random_key SELECT 'cooking', seq, random() & 9007199254740991 FROM cooking;
      INSERT INTO staples_random_key SELECT 'stock_use', seq, random() & 9007199254740991 FROM stock_use;
      UPDATE stock_use SET cookingSeq = (SELECT new FROM staples_random_key WHERE tbl = 'cooking' AND old = cookingSeq)
        WHERE cookingSeq IS NOT NULL;
      UPDATE stock_lot SET seq = (SELECT new FROM staples_random_key WHERE tbl = 'stock_lot' AND old = seq);
      UPDATE cooking SET seq = (SELECT new FROM staples_random_key WHERE tbl = 'cooking' AND old = seq);
      UPDATE stock_use SET seq = (SELECT new FROM staples_random_key WHERE tbl = 'stock_use' AND old = seq);
      DROP TABLE temp.staples_random_key;

      """ + derivedSQL)

  /// The tables `gym sync` shares; a lot's amount and a recipe's use count merge as counters.
  static let synced = [
    SyncedTable("grocery_item"), SyncedTable("recipe", counters: ["usageCount"]), SyncedTable("recipe_ingredient"),
    SyncedTable("item_conversion"), SyncedTable("stock_lot", counters: ["amount"]), SyncedTable("cooking"),
    SyncedTable("stock_use"),
  ]
}
