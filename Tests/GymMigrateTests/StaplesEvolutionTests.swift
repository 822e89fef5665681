import Foundation
import GRDB
import GymCore
import GymModules
import Testing

/// `staples/002`: each item's quantity becomes one lot, the column goes, nothing else changes.
/// `staples/003`: a record of takings starts empty; items, lots and cookings stay as they were.
/// `staples/004`: every key becomes one that means the same row on every device, references follow.
@Suite struct StaplesEvolutionTests {
  @Test func keysBecomeGlobalAndReferencesFollow() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "staples/004-global-keys"))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO grocery_item (seq, name, category, isStaple, unit, dateCreated) VALUES
            (1, 'Milk', 'Dairy', 1, 'l', '2026-01-02T08:00:00.000Z'),
            (2, 'Eggs', 'Dairy', 1, 'pcs', '2026-01-02T08:00:00.000Z');
          INSERT INTO item_conversion (seq, itemSeq, fromAmount, fromUnit, toAmount, toUnit) VALUES (1, 2, 1, 'pcs', 60, 'g');
          INSERT INTO stock_lot (seq, itemSeq, amount, added) VALUES
            (1, 1, 0.75, '2026-01-02T08:00:00.000Z'), (2, 2, 6, '2026-01-02T08:00:00.000Z');
          INSERT INTO recipe (seq, name, usageCount, servings) VALUES (1, 'Omelette', 3, 1);
          INSERT INTO recipe_ingredient (seq, recipeSeq, itemSeq, amount, unit) VALUES (1, 1, 2, 3, 'pcs'), (2, 1, 1, 0.1, 'l');
          INSERT INTO cooking (seq, recipeSeq, cookedAt) VALUES (1, 1, '2026-01-03T08:00:00.000Z');
          INSERT INTO stock_use (seq, itemSeq, amount, usedAt, spoiled, cookingSeq) VALUES
            (1, 2, 3, '2026-01-03T08:00:00.000Z', 0, 1), (2, 1, 0.25, '2026-01-04T08:00:00.000Z', 1, NULL);
          """)
    }
    try before.close()
    let after = try Store(path: path, modules: registeredModules)
    // The keys worked out from their definition (GlobalKey): the first 8 bytes of SHA-256 over the
    // parts, each ended by a zero byte, big-endian, masked to 53 bits. For 'grocery_item\0milk\0',
    // Python's hashlib.sha256 gives 2852457989480797; the others likewise.
    let milk: Int64 = 2_852_457_989_480_797
    #expect(GlobalKey.derived("grocery_item", "milk") == milk)
    let eggs = GlobalKey.derived("grocery_item", "eggs")
    let omelette = GlobalKey.derived("recipe", "omelette")
    try after.read { db in
      #expect(try Int64.fetchAll(db, sql: "SELECT seq FROM grocery_item ORDER BY name") == [eggs, milk])
      #expect(try Int64.fetchOne(db, sql: "SELECT seq FROM recipe") == omelette)
      let lines = try Row.fetchAll(
        db, sql: "SELECT seq, recipeSeq, itemSeq, amount FROM recipe_ingredient ORDER BY amount")
      #expect(lines.map { $0["recipeSeq"] as Int64 } == [omelette, omelette])
      #expect(lines.map { $0["itemSeq"] as Int64 } == [milk, eggs])
      #expect(
        lines.map { $0["seq"] as Int64 } == [
          GlobalKey.derived("recipe_ingredient", String(omelette), String(milk)),
          GlobalKey.derived("recipe_ingredient", String(omelette), String(eggs)),
        ])
      #expect(
        try Int64.fetchOne(db, sql: "SELECT seq FROM item_conversion WHERE itemSeq = ?", arguments: [eggs])
          == GlobalKey.derived("item_conversion", String(eggs), "pcs", "g"))
      // Lots, the cooking and the takings: random keys below 2^53, the references moved along.
      let lots = try Row.fetchAll(db, sql: "SELECT seq, itemSeq, amount FROM stock_lot ORDER BY amount")
      #expect(lots.map { $0["itemSeq"] as Int64 } == [milk, eggs])
      #expect(lots.map { $0["amount"] as Double } == [0.75, 6])
      let cooking = try #require(
        try Int64.fetchOne(db, sql: "SELECT seq FROM cooking WHERE recipeSeq = ?", arguments: [omelette]))
      let uses = try Row.fetchAll(db, sql: "SELECT seq, itemSeq, cookingSeq, spoiled FROM stock_use ORDER BY amount")
      #expect(uses.map { $0["itemSeq"] as Int64 } == [milk, eggs])
      #expect(uses.map { $0["cookingSeq"] as Int64? } == [nil, cooking])
      let random = lots.map { $0["seq"] as Int64 } + [cooking] + uses.map { $0["seq"] as Int64 }
      #expect(random.allSatisfy { (0..<(1 << 53)).contains($0) })
      #expect(Set(random).count == random.count)
      #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
    }
  }

  @Test func takingsStartEmptyAndEverythingElseStays() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "staples/003-stock-uses"))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO grocery_item (seq, name, category, isStaple, unit, dateCreated) VALUES
            (1, 'Milk', 'Dairy', 1, 'l', '2026-01-02T08:00:00.000Z');
          INSERT INTO stock_lot (itemSeq, amount, bestBefore, added) VALUES (1, 0.75, '2026-01-09', '2026-01-02T08:00:00.000Z');
          INSERT INTO recipe (seq, name, usageCount, servings) VALUES (1, 'Latte', 3, 1);
          INSERT INTO cooking (seq, recipeSeq, cookedAt) VALUES (1, 1, '2026-01-03T08:00:00.000Z');
          """)
      #expect(try Bool.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema WHERE name = 'stock_use'") == false)
    }
    try before.close()
    let after = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "staples/004-global-keys"))
    try after.write { db in
      // Takings before the migration were not recorded: none is made up.
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM stock_use") == 0)
      #expect(try Double.fetchOne(db, sql: "SELECT amount FROM stock_lot") == 0.75)
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM cooking") == 1)
      // The table's rules: an amount above 0, spoiled 0 or 1; a cooking's removal keeps its takings.
      try db.execute(
        sql: "INSERT INTO stock_use (itemSeq, amount, usedAt, spoiled, cookingSeq) VALUES (1, 0.25, 'x', 0, 1)")
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO stock_use (itemSeq, amount, usedAt, spoiled) VALUES (1, 0, 'x', 0)")
      }
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO stock_use (itemSeq, amount, usedAt, spoiled) VALUES (1, 1, 'x', 2)")
      }
      try db.execute(sql: "DELETE FROM cooking")
      #expect(try Int64.fetchOne(db, sql: "SELECT cookingSeq FROM stock_use") == nil)
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM stock_use") == 1)
    }
  }

  @Test func quantitiesBecomeLots() throws {
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "staples/002-stock-lots"))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO grocery_item (seq, name, category, isStaple, quantity, unit, dateCreated, notes) VALUES
            (1, 'Milk', 'Dairy', 1, 2, 'l', '2026-01-02T08:00:00.000Z', 'oat'),
            (2, 'Eggs', 'Dairy', 1, 0, 'pcs', '2026-01-03T08:00:00.000Z', NULL),
            (3, 'Saffron', 'Spices', 0, NULL, NULL, '2026-01-04T08:00:00.000Z', NULL),
            (4, 'Rice', 'Pantry', 1, 1.5, 'kg', '2026-01-05T08:00:00.000Z', NULL);
          INSERT INTO recipe (seq, name, usageCount, servings) VALUES (1, 'Omelette', 7, 1);
          INSERT INTO recipe_ingredient (recipeSeq, itemSeq, amount, unit) VALUES (1, 2, 3, 'pcs');
          """)
    }
    try before.close()
    let after = try Store(path: path, modules: HistoryEvolutionTests.modules(before: "staples/004-global-keys"))
    try after.read { db in
      // Milk's 2 l, Eggs' known 0, Rice's 1.5 kg: one lot each, added when the item was; Saffron's
      // unknown quantity, none.
      let lots = try Row.fetchAll(
        db, sql: "SELECT itemSeq, amount, bestBefore, location, opened, added FROM stock_lot ORDER BY seq")
      #expect(lots.count == 3)
      #expect(lots.map { $0["itemSeq"] as Int64 } == [1, 2, 4])
      #expect(lots.map { $0["amount"] as Double } == [2, 0, 1.5])
      #expect(
        lots.map { $0["added"] as String } == [
          "2026-01-02T08:00:00.000Z", "2026-01-03T08:00:00.000Z", "2026-01-05T08:00:00.000Z",
        ])
      #expect(lots.allSatisfy { $0["bestBefore"] as String? == nil && $0["location"] as String? == nil })
      // The column is gone; the rest of each item is as it was, with no minimum.
      let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(grocery_item)").map { $0["name"] as String }
      #expect(columns == ["seq", "name", "category", "isStaple", "unit", "dateCreated", "notes", "minStock"])
      let items = try Row.fetchAll(db, sql: "SELECT name, unit, notes, minStock FROM grocery_item ORDER BY seq")
      #expect(items.map { $0["name"] as String } == ["Milk", "Eggs", "Saffron", "Rice"])
      #expect(items[0]["notes"] as String? == "oat" && items.allSatisfy { $0["minStock"] as Double? == nil })
      // The list reads the same quantities as before: 2, 0, unknown, 1.5.
      let listed = try Row.fetchAll(db, sql: "SELECT quantity FROM grocery_stock ORDER BY seq").map {
        $0["quantity"] as Double?
      }
      #expect(listed == [2, 0, nil, 1.5])
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe_ingredient") == 1)
      #expect(try Int.fetchOne(db, sql: "SELECT usageCount FROM recipe") == 7)
    }
  }

  /// `staples/005`: a quantity is the sum of its lots to a millionth: 907.18474 + 500 − 125 (2 lb, 500 g,
  /// 125 g used from the first) is 1282.18474, where the version before listed the sum's binary noise.
  @Test func aQuantityIsItsLotsToAMillionth() throws {
    let identifier = "staples/005-stock-quantity-to-a-millionth"
    let path = try MigrationFixtures.temporaryPath()
    let before = try Store(path: path, modules: HistoryEvolutionTests.modules(before: identifier))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO grocery_item (seq, name, category, isStaple, unit, dateCreated) VALUES
            (1, 'Flour', 'Baking', 1, 'g', '2026-01-02T08:00:00.000Z');
          INSERT INTO stock_lot (seq, itemSeq, amount, added) VALUES
            (1, 1, 907.18474 - 125, '2026-01-02T08:00:00.000Z'), (2, 1, 500, '2026-01-03T08:00:00.000Z');
          """)
    }
    let raw = try before.read { try Double.fetchOne($0, sql: "SELECT quantity FROM grocery_stock") }
    #expect(raw == 907.18474 - 125 + 500 && raw != 1282.18474)  // the sum SQLite adds, noise and all
    try before.close()
    let quantity = try Store(path: path, modules: registeredModules).read {
      try Double.fetchOne($0, sql: "SELECT quantity FROM grocery_stock")
    }
    #expect(quantity == 1282.18474)
  }
}
