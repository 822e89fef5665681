import GRDB
import GymCLI
import GymCore

/// Grocery staples and recipes (seed 004): items by category behind the seed's compound index
/// (isStaple, category, dateCreated), recipes behind (usageCount, lastUsed, isFavorite).
///
/// Names and categories compare case-insensitively (`COLLATE NOCASE` on the columns, so the
/// indexes are NOCASE too): `--category dairy` finds Dairy through the index. Queries over all items
/// say `isStaple IN (0, 1)`, so the compound index serves them too (two seeks instead of a scan).
public enum StaplesSchema {
  public static let items = TableSchema(
    name: "grocery_item",
    fields: [
      Field("name", .text), Field("category", .text), Field("isStaple", .bool, default: .value("false")),
      Field("unit", .text, nullable: true), Field("dateCreated", .timestamp, default: .now),
      Field("notes", .text, nullable: true), Field("minStock", .real, nullable: true),
    ],
    indexes: [
      IndexSchema("grocery_item_name", on: ["name"], unique: true),
      IndexSchema("grocery_item_staple_category_created", on: ["isStaple", "category", "dateCreated"]),
    ],
    defaultSort: [SortKey("category"), SortKey("name")])

  public static let recipes = TableSchema(
    name: "recipe",
    fields: [
      Field("name", .text), Field("usageCount", .integer, default: .value("0")),
      Field("lastUsed", .timestamp, nullable: true), Field("isFavorite", .bool, default: .value("false")),
      Field("servings", .integer, nullable: true), Field("notes", .text, nullable: true),
    ],
    indexes: [
      IndexSchema("recipe_name", on: ["name"], unique: true),
      IndexSchema("recipe_usage", on: ["usageCount", "lastUsed", "isFavorite"]),
      IndexSchema("recipe_last_used", on: ["lastUsed"]),
      IndexSchema("recipe_favorite", on: ["isFavorite", "name"]),
    ],
    defaultSort: [SortKey("name")])

  public static let ingredients = TableSchema(
    name: "recipe_ingredient",
    fields: [
      Field("recipeSeq", .integer), Field("itemSeq", .integer), Field("amount", .real, nullable: true),
      Field("unit", .text, nullable: true),
    ],
    indexes: [
      IndexSchema("recipe_ingredient_pair", on: ["recipeSeq", "itemSeq"], unique: true),
      IndexSchema("recipe_ingredient_item", on: ["itemSeq"]),
    ],
    defaultSort: [SortKey("recipeSeq")])

  /// Most used first, then most recent, then favourites: exactly the order of `recipe_usage`, so
  /// the index is read backwards with no sorting.
  public static let mostUsed = [
    SortKey("usageCount", descending: true), SortKey("lastUsed", descending: true),
    SortKey("isFavorite", descending: true),
  ]

  static let migrations = [
    // Deleting a recipe removes its ingredient lines; an item used by a recipe cannot be
    // removed (RESTRICT): the user is told which recipes use it.
    Migration(
      "staples/001-items-and-recipes", .additive,
      sql: """
        CREATE TABLE grocery_item (
          seq INTEGER PRIMARY KEY,
          name TEXT NOT NULL COLLATE NOCASE CHECK (trim(name) <> ''),
          category TEXT NOT NULL COLLATE NOCASE CHECK (trim(category) <> ''),
          isStaple INTEGER NOT NULL DEFAULT 0 CHECK (isStaple IN (0, 1)),
          quantity REAL CHECK (quantity IS NULL OR quantity >= 0),
          unit TEXT,
          dateCreated TEXT NOT NULL,
          notes TEXT
        );
        CREATE UNIQUE INDEX grocery_item_name ON grocery_item(name);
        CREATE INDEX grocery_item_staple_category_created ON grocery_item(isStaple, category, dateCreated);
        CREATE TABLE recipe (
          seq INTEGER PRIMARY KEY,
          name TEXT NOT NULL COLLATE NOCASE CHECK (trim(name) <> ''),
          usageCount INTEGER NOT NULL DEFAULT 0 CHECK (usageCount >= 0),
          lastUsed TEXT,
          isFavorite INTEGER NOT NULL DEFAULT 0 CHECK (isFavorite IN (0, 1)),
          servings INTEGER CHECK (servings IS NULL OR servings > 0),
          notes TEXT
        );
        CREATE UNIQUE INDEX recipe_name ON recipe(name);
        CREATE INDEX recipe_usage ON recipe(usageCount, lastUsed, isFavorite);
        CREATE INDEX recipe_last_used ON recipe(lastUsed);
        CREATE INDEX recipe_favorite ON recipe(isFavorite, name);
        CREATE TABLE recipe_ingredient (
          seq INTEGER PRIMARY KEY,
          recipeSeq INTEGER NOT NULL REFERENCES recipe(seq) ON DELETE CASCADE,
          itemSeq INTEGER NOT NULL REFERENCES grocery_item(seq) ON DELETE RESTRICT,
          amount REAL CHECK (amount IS NULL OR amount >= 0),
          unit TEXT
        );
        CREATE UNIQUE INDEX recipe_ingredient_pair ON recipe_ingredient(recipeSeq, itemSeq);
        CREATE INDEX recipe_ingredient_item ON recipe_ingredient(itemSeq);
        """),
    StockSchema.migration,
    StockSchema.usesMigration,
    StaplesKeys.migration,
    StockSchema.quantityMigration,
  ]
}

/// The staples module as the store and the cross-cutting commands see it.
public let staplesModule = GymModule(
  name: "staples", migrations: StaplesSchema.migrations,
  tables: [
    StaplesSchema.items, StaplesSchema.recipes, StaplesSchema.ingredients, StockSchema.lots, StockSchema.conversions,
    StockSchema.cookings, StockSchema.uses,
  ],
  benchmarks: StaplesBenchmarks.definition, syncedTables: StaplesKeys.synced,
  assignSyncKeys: StaplesKeys.assignDerived)

/// The module as the executable registers it: the store's part, the `gym staples` commands, the report.
public let staplesFeature = FeatureModule(staplesModule, command: StaplesCommand.self, report: staplesReport)
