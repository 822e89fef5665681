import GymCore

/// Stock as dated lots (staples/002): each purchase a lot with its amount left, in its item's unit;
/// an item's stock is the sum of its lots. Emptied lots stay, at 0: an item whose lots add up to 0
/// is known to be out, one with no lot at all has an unknown stock (null), as before.
enum StockSchema {
  static let lots = TableSchema(
    name: "stock_lot",
    fields: [
      Field("itemSeq", .integer), Field("amount", .real), Field("bestBefore", .text, nullable: true),
      Field("location", .text, nullable: true), Field("opened", .text, nullable: true), Field("added", .timestamp),
    ],
    indexes: [
      IndexSchema("stock_lot_item", on: ["itemSeq", "amount", "bestBefore"]),
      IndexSchema("stock_lot_best_before", on: ["bestBefore", "itemSeq"]),
    ],
    defaultSort: [SortKey("itemSeq")])

  static let conversions = TableSchema(
    name: "item_conversion",
    fields: [
      Field("itemSeq", .integer), Field("fromAmount", .real), Field("fromUnit", .text), Field("toAmount", .real),
      Field("toUnit", .text),
    ],
    indexes: [IndexSchema("item_conversion_units", on: ["itemSeq", "fromUnit", "toUnit"], unique: true)],
    defaultSort: [SortKey("itemSeq")])

  static let cookings = TableSchema(
    name: "cooking",
    fields: [
      Field("recipeSeq", .integer), Field("cookedAt", .timestamp), Field("servings", .real, nullable: true),
      Field("shortfall", .text, nullable: true),
    ],
    indexes: [IndexSchema("cooking_recipe", on: ["recipeSeq", "cookedAt"])],
    defaultSort: [SortKey("cookedAt", descending: true)])

  /// Each taking from stock (staples/003): `use` (spoiled or not) and each ingredient `cook` took,
  /// in the item's unit. What `staples stats` adds up; takings before the migration are unknown.
  static let uses = TableSchema(
    name: "stock_use",
    fields: [
      Field("itemSeq", .integer), Field("amount", .real), Field("usedAt", .timestamp), Field("spoiled", .bool),
      Field("cookingSeq", .integer, nullable: true),
    ],
    indexes: [
      IndexSchema("stock_use_time", on: ["usedAt", "itemSeq"]), IndexSchema("stock_use_item", on: ["itemSeq"]),
      IndexSchema("stock_use_cooking", on: ["cookingSeq"]),
    ],
    defaultSort: [SortKey("usedAt", descending: true)])

  /// `staples/005`: the view's quantity to a millionth of the item's unit, as every sum gym shows is:
  /// lots bought in other units add up with binary noise (907.18474 g + 500 g − 125 g listed as
  /// 1282.1847400000001).
  static let quantityMigration = Migration(
    "staples/005-stock-quantity-to-a-millionth", .view, touches: ["grocery_stock"],
    sql: """
      DROP VIEW grocery_stock;
      CREATE VIEW grocery_stock AS
        SELECT g.seq AS seq, g.name AS name, g.category AS category, g.isStaple AS isStaple,
          (SELECT round(sum(l.amount), 6) FROM stock_lot l WHERE l.itemSeq = g.seq) AS quantity,
          g.unit AS unit, g.minStock AS minStock,
          (SELECT min(l.bestBefore) FROM stock_lot l WHERE l.itemSeq = g.seq AND l.amount > 0) AS bestBefore,
          g.dateCreated AS dateCreated, g.notes AS notes
        FROM grocery_item g;
      """)

  /// `staples/003`: a record of each taking, so what was used, cooked and spoiled can be counted.
  /// Nothing is known of takings before it, so the table starts empty.
  static let usesMigration = Migration(
    "staples/003-stock-uses", .additive,
    sql: """
      CREATE TABLE stock_use (
        seq INTEGER PRIMARY KEY,
        itemSeq INTEGER NOT NULL REFERENCES grocery_item(seq) ON DELETE CASCADE,
        amount REAL NOT NULL CHECK (amount > 0),
        usedAt TEXT NOT NULL,
        spoiled INTEGER NOT NULL CHECK (spoiled IN (0, 1)),
        cookingSeq INTEGER REFERENCES cooking(seq) ON DELETE SET NULL
      );
      CREATE INDEX stock_use_time ON stock_use(usedAt, itemSeq);
      CREATE INDEX stock_use_item ON stock_use(itemSeq);
      CREATE INDEX stock_use_cooking ON stock_use(cookingSeq) WHERE cookingSeq IS NOT NULL;
      """)

  /// What `staples list`, `count` and `show` read: an item with its stock (the sum of its lots, null
  /// when it has none) and its nearest best-before among the lots not used up.
  static let itemList = TableSchema(
    name: "grocery_stock",
    fields: [
      Field("name", .text), Field("category", .text), Field("isStaple", .bool),
      Field("quantity", .real, nullable: true), Field("unit", .text, nullable: true),
      Field("minStock", .real, nullable: true), Field("bestBefore", .text, nullable: true),
      Field("dateCreated", .timestamp), Field("notes", .text, nullable: true),
    ],
    indexes: [], defaultSort: [SortKey("category"), SortKey("name")], rowKey: "seq")

  /// `staples/002`: lots, per-item conversions and a record of each cooking; each item's quantity
  /// becomes one lot (no best-before: the old record had none), added when the item was, and the
  /// column goes; items gain a minimum stock.
  static let migration = Migration(
    "staples/002-stock-lots", .custom, touches: ["grocery_item", "stock_lot", "item_conversion", "cooking"],
    rowsMayChange: ["stock_lot"],
    sql: """
      CREATE TABLE stock_lot (
        seq INTEGER PRIMARY KEY,
        itemSeq INTEGER NOT NULL REFERENCES grocery_item(seq) ON DELETE CASCADE,
        amount REAL NOT NULL CHECK (amount >= 0),
        bestBefore TEXT,
        location TEXT COLLATE NOCASE,
        opened TEXT,
        added TEXT NOT NULL
      );
      CREATE INDEX stock_lot_item ON stock_lot(itemSeq, amount, bestBefore);
      CREATE INDEX stock_lot_best_before ON stock_lot(bestBefore, itemSeq) WHERE amount > 0 AND bestBefore IS NOT NULL;
      CREATE TABLE item_conversion (
        seq INTEGER PRIMARY KEY,
        itemSeq INTEGER NOT NULL REFERENCES grocery_item(seq) ON DELETE CASCADE,
        fromAmount REAL NOT NULL CHECK (fromAmount > 0),
        fromUnit TEXT NOT NULL,
        toAmount REAL NOT NULL CHECK (toAmount > 0),
        toUnit TEXT NOT NULL
      );
      CREATE UNIQUE INDEX item_conversion_units ON item_conversion(itemSeq, fromUnit, toUnit);
      CREATE TABLE cooking (
        seq INTEGER PRIMARY KEY,
        recipeSeq INTEGER NOT NULL REFERENCES recipe(seq) ON DELETE CASCADE,
        cookedAt TEXT NOT NULL,
        servings REAL CHECK (servings IS NULL OR servings > 0),
        shortfall TEXT
      );
      CREATE INDEX cooking_recipe ON cooking(recipeSeq, cookedAt);
      INSERT INTO stock_lot (itemSeq, amount, added)
        SELECT seq, quantity, dateCreated FROM grocery_item WHERE quantity IS NOT NULL ORDER BY seq;
      ALTER TABLE grocery_item DROP COLUMN quantity;
      ALTER TABLE grocery_item ADD COLUMN minStock REAL CHECK (minStock IS NULL OR minStock >= 0);
      CREATE VIEW grocery_stock AS
        SELECT g.seq AS seq, g.name AS name, g.category AS category, g.isStaple AS isStaple,
          (SELECT sum(l.amount) FROM stock_lot l WHERE l.itemSeq = g.seq) AS quantity,
          g.unit AS unit, g.minStock AS minStock,
          (SELECT min(l.bestBefore) FROM stock_lot l WHERE l.itemSeq = g.seq AND l.amount > 0) AS bestBefore,
          g.dateCreated AS dateCreated, g.notes AS notes
        FROM grocery_item g;
      """)
}
