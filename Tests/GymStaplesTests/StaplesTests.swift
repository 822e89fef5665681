import Foundation
import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymStaples

@Suite struct StaplesTests {
  static func store() throws -> Store {
    let directory = NSTemporaryDirectory() + "gym-staples-" + UUID().uuidString
    return try Store(path: directory + "/gym.sqlite", modules: [staplesModule])
  }

  let now = Timestamp(parsing: "2026-11-21T12:00:00Z")!

  func plan(_ store: Store, _ sql: String, _ arguments: StatementArguments = []) throws -> String {
    try store.read { db in
      try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        .joined(separator: "; ")
    }
  }

  @Test func listingQueriesUseTheSeedsCompoundIndexes() throws {
    let store = try Self.store()
    for all in [false, true] {
      let query = Query(
        table: StaplesSchema.items, filter: RecordFilter.all(StaplesQueries.itemFilters(category: "Dairy", all: all)),
        limit: 20)
      let (sql, arguments) = try query.selectSQL()
      #expect(try plan(store, sql, arguments).contains("USING INDEX grocery_item_staple_category_created (isStaple"))
    }
    let mostUsed = try Query(table: StaplesSchema.recipes, sort: StaplesSchema.mostUsed, limit: 20).selectSQL()
    let detail = try plan(store, mostUsed.0, mostUsed.1)
    #expect(detail.contains("USING INDEX recipe_usage"))
    #expect(!detail.contains("TEMP B-TREE"))
    let recent = try Query(
      table: StaplesSchema.recipes, filter: .compare("lastUsed", .notEqual, .null),
      sort: [SortKey("lastUsed", descending: true)], limit: 20
    ).selectSQL()
    #expect(try plan(store, recent.0, recent.1).contains("USING INDEX recipe_last_used"))
    let favorites = try Query(
      table: StaplesSchema.recipes, filter: .compare("isFavorite", .equal, .bool(true)), limit: 20
    ).selectSQL()
    #expect(try plan(store, favorites.0, favorites.1).contains("USING INDEX recipe_favorite (isFavorite=?)"))
    #expect(
      try plan(store, "SELECT EXISTS (SELECT 1 FROM grocery_item WHERE isStaple IN (0, 1) AND category = ?)", ["x"])
        .contains("INDEX grocery_item_staple_category_created"))
    #expect(
      try plan(store, "UPDATE recipe SET usageCount = usageCount + 1 WHERE name = ?", ["x"]).contains(
        "INDEX recipe_name (name=?)"))
  }

  /// The SQL-only reads (categories, the category check, a recipe's ingredients, the shopping
  /// list) search indexes for every table they touch.
  @Test func everyOtherReadSearchesAnIndex() throws {
    let store = try Self.store()
    try store.write { try StaplesSeedData.seed($0, now: now) }
    var statements: [String] = []
    try store.read { db in
      db.trace(options: .statement) { event in
        if case .statement(let statement) = event { statements.append(statement.expandedSQL) }
      }
      _ = try StaplesQueries.categories(db)
      try StaplesQueries.checkCategory(db, "Dairy")
      _ = try StaplesQueries.ingredients(db, recipe: "Omelette")
      _ = try StockQueries.expiring(db, by: "2026-12-01", location: nil)
      db.trace(options: .statement, nil)
    }
    #expect(statements.count >= 4)
    try store.read { db in
      for sql in statements {
        let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
        for line in plan where (line.hasPrefix("SCAN") || line.hasPrefix("SEARCH")) && line != "SCAN CONSTANT ROW" {
          #expect(line.hasPrefix("SEARCH"), "\(line) in \(sql)")
        }
      }
    }
  }

  @Test func categoriesCompareWithoutCaseAndUnknownOnesSuggestTheNearest() throws {
    let store = try Self.store()
    try store.write { try StaplesSeedData.seed($0, now: now) }
    let query = Query(
      table: StaplesSchema.items, filter: RecordFilter.all(StaplesQueries.itemFilters(category: "dAiRy", all: false)))
    var names: [String] = []
    _ = try store.read { db in try query.forEachRow(db) { names.append($0[0]) } }
    #expect(names == ["Butter", "Eggs", "Milk", "Parmesan"])
    do {
      try store.read { try StaplesQueries.checkCategory($0, "Diary") }
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.status == .noInput)
      #expect(error.message == "no category 'Diary'; did you mean 'Dairy'?")
    }
  }

  @Test func addUpdatesOnlyTheGivenFieldsOfAnExistingItem() throws {
    let store = try Self.store()
    let added = try store.write { db in
      try StaplesWrites.upsertItem(
        db, name: "Milk", changes: ItemChanges(category: "Dairy", isStaple: true, quantity: 1, unit: "l"), now: now)
    }
    let addedAgain = try store.write { db in
      try StaplesWrites.upsertItem(db, name: "MILK", changes: ItemChanges(quantity: 2), now: now)
    }
    #expect(added && !addedAgain)
    let row = try #require(try store.read { try Row.fetchOne($0, sql: "SELECT * FROM grocery_stock") })
    let name: String = row["name"]
    let category: String = row["category"]
    let isStaple: Bool = row["isStaple"]
    let quantity: Double = row["quantity"]
    let unit: String = row["unit"]
    #expect(name == "Milk" && category == "Dairy" && isStaple)
    #expect(quantity == 2 && unit == "l")
    #expect(throws: GymError.self) {
      try store.write { try StaplesWrites.upsertItem($0, name: "Kefir", changes: ItemChanges(quantity: 1), now: now) }
    }
  }

  @Test func cookCountsInSQLAndUnknownRecipesAreNoInput() throws {
    let store = try Self.store()
    try store.write { db in
      try StaplesWrites.addRecipe(
        db, name: "Toast", servings: 1, favorite: false, notes: nil, ingredients: [], createMissing: false, now: now)
      #expect(try StaplesWrites.cook(db, name: "toast", now: now) == 1)
      #expect(try StaplesWrites.cook(db, name: "Toast", now: now) == 2)
    }
    #expect(try store.read { try String.fetchOne($0, sql: "SELECT lastUsed FROM recipe") } == now.canonical)
    #expect(throws: GymError.self) { try store.write { try StaplesWrites.cook($0, name: "Nope", now: now) } }
  }

  @Test func aMissingIngredientNamesItAndSavesNothingUnlessCreated() throws {
    let store = try Self.store()
    let specs = [try IngredientSpec(parsing: "Bread:2 slices"), try IngredientSpec(parsing: "Jam")]
    do {
      _ = try store.write { db in
        try StaplesWrites.upsertItem(db, name: "Bread", changes: ItemChanges(category: "Bakery"), now: now)
      }
      try store.write { db in
        try StaplesWrites.addRecipe(
          db, name: "Toast", servings: nil, favorite: false, notes: nil, ingredients: specs, createMissing: false,
          now: now)
      }
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.message.contains("no item named 'Jam'"))
    }
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM recipe") } == 0)
    try store.write { db in
      try StaplesWrites.addRecipe(
        db, name: "Toast", servings: nil, favorite: false, notes: nil, ingredients: specs, createMissing: true, now: now
      )
    }
    #expect(
      try store.read { try String.fetchOne($0, sql: "SELECT category FROM grocery_item WHERE name = 'Jam'") }
        == "Uncategorized")
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM recipe_ingredient") } == 2)
  }

  /// `stock` reads every lot once through the covering `stock_lot_item` (a full pass is its answer);
  /// `expiring` is a range of the partial `stock_lot_best_before`; a cook's lots come by item.
  @Test func stockQueriesUseTheirIndexes() throws {
    let store = try Self.store()
    try store.write { try StaplesSeedData.seed($0, now: now) }
    try store.read { db in
      func plan(_ sql: String, _ arguments: StatementArguments = []) throws -> String {
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
          .joined(separator: "; ")
      }
      let stock = try plan(
        "SELECT itemSeq, sum(amount), count(*), min(bestBefore) FROM stock_lot WHERE amount > 0 GROUP BY itemSeq")
      #expect(stock.contains("USING COVERING INDEX stock_lot_item"), "\(stock)")
      let expiring = try plan(
        "SELECT itemSeq FROM stock_lot WHERE amount > 0 AND bestBefore IS NOT NULL AND bestBefore <= ?", ["2026-12-01"])
      #expect(expiring.hasPrefix("SEARCH stock_lot USING INDEX stock_lot_best_before"), "\(expiring)")
      let lots = try plan(
        "SELECT seq, amount FROM stock_lot WHERE itemSeq = ? AND amount > 0 ORDER BY bestBefore IS NULL, bestBefore, added, seq",
        [1])
      #expect(lots.contains("SEARCH stock_lot USING INDEX stock_lot_item (itemSeq=? AND amount>?)"), "\(lots)")
      // cookable walks the ingredient lines in the pair index's order (no sort), each recipe and item by key.
      let cookable = try plan(
        """
        SELECT ri.recipeSeq, r.name, g.seq, g.name, g.unit, ri.amount, ri.unit
        FROM recipe_ingredient ri JOIN recipe r ON r.seq = ri.recipeSeq JOIN grocery_item g ON g.seq = ri.itemSeq
        ORDER BY ri.recipeSeq
        """)
      #expect(cookable.hasPrefix("SCAN ri USING INDEX recipe_ingredient_pair"), "\(cookable)")
      #expect(cookable.contains("SEARCH g USING INTEGER PRIMARY KEY (rowid=?)"), "\(cookable)")
      #expect(!cookable.contains("TEMP B-TREE"), "\(cookable)")
    }
  }

  @Test func ingredientSpecsParse() throws {
    #expect(try IngredientSpec(parsing: "Milk:200 ml") == IngredientSpec(item: "Milk", amount: 200, unit: "ml"))
    #expect(try IngredientSpec(parsing: " Eggs : 2 ") == IngredientSpec(item: "Eggs", amount: 2, unit: nil))
    #expect(try IngredientSpec(parsing: "Salt") == IngredientSpec(item: "Salt", amount: nil, unit: nil))
    #expect(throws: GymError.self) { try IngredientSpec(parsing: "Milk:lots") }
    #expect(throws: GymError.self) { try IngredientSpec(parsing: ":2") }
  }

  /// Amounts as people type them, and the ones that would be read as another amount: each
  /// expected value is the number as written (`1,5` is 1.5; `1e3` is 1 × 10³ = 1000).
  @Test func amountsAreReadOnlyAsWritten() throws {
    let read: [(String, Double, String?)] = [
      ("2", 2, nil), ("0.5", 0.5, nil), ("300ml", 300, "ml"), ("2 l", 2, "l"), ("1,5 kg", 1.5, "kg"),
      ("0,250", 0.25, nil), ("1e3 g", 1000, "g"), ("1e3g", 1000, "g"), ("2 each", 2, "each"), ("2each", 2, "each"),
      ("3 cloves", 3, "cloves"), ("2fl oz", 2, "fl oz"), ("12,5", 12.5, nil),
    ]
    for (text, amount, unit) in read {
      #expect(PantryAmount(parsing: text) == PantryAmount(amount: amount, unit: unit), "\(text)")
    }
    // 1e30 is past the 10¹² bound; `0x10` would be 0 of a unit `x10`; `1,000` is 1000 or 1.0
    // depending on the writer's language; `2cloves` joins an unknown unit to its number.
    for text in [
      "1e30", "0x10", "1,000", "2,500 g", "½", "\u{0663}", "nan", "inf", "-1", "2.5.3", "1e", "2cloves", "", "kg",
    ] {
      #expect(PantryAmount(parsing: text) == nil, "\(text)")
    }
    #expect(throws: GymError.self) { try IngredientSpec(parsing: "Milk:0x10") }
    #expect(try IngredientSpec(parsing: "Milk:200ml") == IngredientSpec(item: "Milk", amount: 200, unit: "ml"))
  }

  /// Spaghetti Pomodoro and the omelette from the seeded pantry: each item's minimum plus what the two
  /// need, less its stock. Worked out from the seed: Parmesan (a staple at 0 g, so minimum 1 g) needs
  /// 1 + 30 − 0 = 31 g; Basil (no lot, to be bought by the bunch) 1 bunch; the seed's Spinach (200 g)
  /// covers the omelette's 40 g, and everything else they use is in stock above its minimum.
  @Test func shoppingListHasMinimumPlusNeedsLessStockByCategory() throws {
    let store = try Self.store()
    try store.write { try StaplesSeedData.seed($0, now: now) }
    let lines = try store.read {
      try ShoppingList.lines($0, recipes: ["Spaghetti Pomodoro", "Omelette"], today: CalendarDay.today(now).text)
    }
    let pomodoroOnly = lines.filter { $0.reason.hasPrefix("Spaghetti Pomodoro") }.map(\.item)
    #expect(pomodoroOnly.contains("Parmesan") && pomodoroOnly.contains("Basil"), "\(lines)")
    let parmesan = try #require(lines.first { $0.item == "Parmesan" })
    #expect(parmesan.amount == 31 && parmesan.unit == "g" && parmesan.category == "Dairy")
    let basil = try #require(lines.first { $0.item == "Basil" })
    #expect(basil.amount == 1 && basil.unit == "bunch")
    #expect(!lines.contains { $0.item == "Spinach" })
    #expect(lines.map(\.category) == lines.map(\.category).sorted())
  }

  @Test func itemsUsedByRecipesAreNotRemoved() throws {
    let store = try Self.store()
    try store.write { try StaplesSeedData.seed($0, now: now) }
    #expect(throws: GymError.self) { try store.write { try StaplesWrites.removeItem($0, name: "Eggs") } }
    try store.write { try StaplesWrites.removeRecipe($0, name: "Omelette") }
    #expect(
      try store.read {
        try Int.fetchOne(
          $0,
          sql:
            "SELECT COUNT(*) FROM recipe_ingredient ri JOIN recipe ON recipe.seq = ri.recipeSeq WHERE recipe.name = 'Omelette'"
        )
      } == 0)
    try store.write { try StaplesWrites.removeItem($0, name: "Yogurt") }
  }
}
