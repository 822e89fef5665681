import Foundation
import GRDB
import Testing

/// Stock as lots through the binary: first-expiring-first, units, cooking that uses stock,
/// `expiring`, the shopping list and `cookable`, each against values worked out here.
@Suite struct PantryStockTests {
  /// The UTC day `offset` days from now, `YYYY-MM-DD` (the tests give gym TZ=UTC).
  static func day(_ offset: Int) -> String {
    let date = Calendar(identifier: .gregorian).date(byAdding: .day, value: offset, to: Date())!
    let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }

  func lots(_ gym: GymProcess, _ item: String) throws -> [Double] {
    try DatabaseQueue(path: gym.databasePath).read { db in
      try Double.fetchAll(
        db,
        sql: """
          SELECT amount FROM stock_lot WHERE itemSeq = (SELECT seq FROM grocery_item WHERE name = ?) ORDER BY added, seq
          """, arguments: [item])
    }
  }

  @Test func useTakesTheFirstExpiringLotFirst() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["staples", "add", "Milk", "--category", "Dairy", "--unit", "l"]).status == 0)
    // Bought in this order: a lot without a date, the latest, then the soonest.
    #expect(try gym.run(["staples", "buy", "Milk", "1", "l", "-q"]).status == 0)
    #expect(try gym.run(["staples", "buy", "Milk", "1", "l", "--best-before", "2026-12-10", "-q"]).status == 0)
    #expect(try gym.run(["staples", "buy", "Milk", "500", "ml", "--best-before", "2026-12-01", "-q"]).status == 0)
    #expect(try lots(gym, "Milk") == [1, 1, 0.5])
    // 1.2 l: the 0.5 l expiring first, then 0.7 l of the one after; the undated lot last.
    let used = try gym.run(["staples", "use", "Milk", "1200", "ml"])
    #expect(used.status == 0 && used.stderr == "used 1.2 l of Milk; 1.3 l left\n", "\(used.stderr)")
    let after = try lots(gym, "Milk")
    #expect(after[0] == 1 && abs(after[1] - 0.3) < 1e-9 && after[2] == 0)
    // More than there is: refused, saying how much; nothing taken.
    let tooMuch = try gym.run(["staples", "use", "Milk", "2", "l"])
    #expect(tooMuch.status == 1 && tooMuch.stderr.contains("only 1.3 l of Milk in stock, not 2"), "\(tooMuch.stderr)")
    #expect(try lots(gym, "Milk") == after)
    let forced = try gym.run(["staples", "use", "Milk", "2", "l", "--force"])
    #expect(forced.status == 0 && forced.stderr == "used 1.3 l of Milk; 0 l left\n", "\(forced.stderr)")
    // A used-up item is known to be out (0), not unknown.
    #expect(try gym.run(["staples", "show", "Milk", "-f", "json"]).stdout.contains("\"quantity\":0,"))
  }

  @Test func unitsConvertWithinADimensionAndThroughAnItemsOwnConversion() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["staples", "buy", "Flour", "1", "kg", "--category", "Baking", "-q"]).status == 0)
    // The item took the unit of its first purchase: kg. 250 g is 0.25 kg.
    #expect(try gym.run(["staples", "use", "Flour", "250g", "-q"]).status == 0)
    #expect(try lots(gym, "Flour") == [0.75])
    // A cup is a volume: refused, naming both units, until the item says how much a cup weighs.
    let refused = try gym.run(["staples", "use", "Flour", "1", "cup"])
    #expect(refused.status == 64 && refused.stderr.contains("cannot convert cup to kg for Flour"), "\(refused.stderr)")
    #expect(try gym.run(["staples", "set", "Flour", "--unit-weight", "Flour: 1 cup = 120 g"]).status == 0)
    #expect(try gym.run(["staples", "use", "Flour", "2", "cup", "-q"]).status == 0)
    // 0.75 kg − 2 × 120 g = 0.51 kg.
    #expect(abs(try lots(gym, "Flour")[0] - 0.51) < 1e-9)
    // US spoons: 3 tsp are one tbsp (14.78676478125 ml).
    #expect(try gym.run(["staples", "buy", "Oil", "1", "tbsp", "--category", "Pantry", "-q"]).status == 0)
    #expect(try gym.run(["staples", "use", "Oil", "3", "tsp", "-q"]).status == 0)
    #expect(abs(try lots(gym, "Oil")[0]) < 1e-9)
    // Pieces stay pieces; a unit gym does not know matches only itself.
    #expect(try gym.run(["staples", "buy", "Eggs", "6", "--category", "Dairy", "-q"]).status == 0)
    let eggs = try gym.run(["staples", "use", "Eggs", "60", "g"])
    #expect(eggs.status == 64 && eggs.stderr.contains("cannot convert g to pieces for Eggs"))
    #expect(try gym.run(["staples", "set", "Eggs", "--unit-weight", "Eggs: 1 piece = 60 g"]).status == 0)
    #expect(try gym.run(["staples", "use", "Eggs", "120", "g", "-q"]).status == 0)
    #expect(try lots(gym, "Eggs") == [4])
    #expect(try gym.run(["staples", "use", "Eggs", "1", "furlong"]).status == 64)
    #expect(try gym.run(["staples", "buy", "Eggs", "-2", "-q"]).status == 64)
    #expect(try gym.run(["staples", "buy", "Eggs", "2", "--best-before", "2026-02-30", "-q"]).status == 64)
  }

  @Test func cookingUsesStockAndAShortCookIsRefusedOrRecorded() throws {
    let gym = try GymProcess()
    for (item, amount, unit) in [("Eggs", "4", "pcs"), ("Milk", "1", "l"), ("Butter", "250", "g")] {
      #expect(
        try gym.run(["staples", "buy", item, amount, unit, "--category", "Dairy", "--best-before", "2026-12-05", "-q"])
          .status == 0)
    }
    #expect(
      try gym.run([
        "staples", "recipe", "add", "Omelette", "--servings", "1", "--ingredient", "Eggs:3 pcs", "--ingredient",
        "Milk:50 ml", "--ingredient", "Butter:10 g", "--ingredient", "Salt", "--create-missing",
      ]).status == 0)
    // Salt is to taste: neither taken nor missed. One serving: 3 eggs, 0.05 l, 10 g.
    #expect(try gym.run(["staples", "cook", "Omelette", "-q"]).status == 0)
    #expect(try lots(gym, "Eggs") == [1])
    #expect(abs(try lots(gym, "Milk")[0] - 0.95) < 1e-9)
    #expect(try lots(gym, "Butter") == [240])
    // Two servings need 6 eggs, 5 short: refused, naming it, nothing taken.
    let short = try gym.run(["staples", "cook", "Omelette", "--servings", "2"])
    #expect(short.status == 1 && short.stderr.contains("short of Eggs 5 pcs"), "\(short.stderr)")
    #expect(try lots(gym, "Eggs") == [1])
    // Forced: what there is goes, the shortfall is recorded.
    let forced = try gym.run(["staples", "cook", "Omelette", "--servings", "2", "--force"])
    #expect(forced.status == 0 && forced.stderr.contains("short of Eggs 5 pcs, recorded"), "\(forced.stderr)")
    #expect(try lots(gym, "Eggs") == [0])
    #expect(abs(try lots(gym, "Milk")[0] - 0.85) < 1e-9)
    let recorded = try DatabaseQueue(path: gym.databasePath).read { db in
      try Row.fetchAll(db, sql: "SELECT servings, shortfall FROM cooking ORDER BY cookedAt, seq")
    }
    #expect(recorded.count == 2)
    #expect(recorded[1]["servings"] as Double? == 2 && recorded[1]["shortfall"] as String? == "Eggs 5 pcs")
    #expect(recorded[0]["shortfall"] as String? == nil)
    let count = try gym.run(["staples", "recipes", "-f", "csv", "--fields", "usageCount"]).stdoutLines.last
    #expect(count == "2")
  }

  /// `expiring`, the shopping list and `cookable` on a small pantry dated from today.
  @Test func whatNeedsAttentionAndWhatCanBeCooked() throws {
    ClockEdge.avoidMidnight()
    let gym = try GymProcess()
    let day = Self.day
    let buys: [[String]] = [
      ["Spinach", "200", "g", "--category", "Produce", "--best-before", day(1), "--location", "fridge"],
      ["Milk", "1", "l", "--category", "Dairy", "--best-before", day(-1), "--location", "fridge"],
      ["Eggs", "6", "pcs", "--category", "Dairy", "--best-before", day(10)],
      ["Rice", "1", "kg", "--category", "Pantry"],
    ]
    for buy in buys { #expect(try gym.run(["staples", "buy"] + buy + ["-q"]).status == 0) }
    #expect(try gym.run(["staples", "add", "Tomatoes", "--category", "Produce", "--unit", "pcs", "-q"]).status == 0)
    #expect(try gym.run(["staples", "set", "Rice", "--min-stock", "2", "-q"]).status == 0)
    let recipes: [[String]] = [
      ["Frittata", "--ingredient", "Eggs:4 pcs", "--ingredient", "Spinach:100 g", "--ingredient", "Milk:100 ml"],
      ["Rice Bowl", "--ingredient", "Rice:200 g", "--ingredient", "Eggs:1 pcs", "--ingredient", "Tomatoes:2 pcs"],
      ["Plain Rice", "--ingredient", "Rice:100 g"],
      ["Shakshuka", "--ingredient", "Eggs:8 pcs", "--ingredient", "Tomatoes:4 pcs"],
    ]
    for recipe in recipes {
      #expect(try gym.run(["staples", "recipe", "add"] + recipe + ["--servings", "2", "-q"]).status == 0)
    }
    // Within 3 days: yesterday's milk (−1), tomorrow's spinach (1); the eggs (10 days) are not.
    let expiring = try gym.run(["staples", "expiring", "-f", "csv"])
    #expect(
      expiring.stdoutLines == [
        "item,amount,unit,bestBefore,days,location", "Milk,1,l,\(day(-1)),-1,fridge",
        "Spinach,200,g,\(day(1)),1,fridge",
      ], "\(expiring.stdout)")
    // Rice: minimum 2 kg + 0.2 kg for the bowl − 1 kg = 1.2 kg; tomatoes: 2 for the bowl, none in stock.
    let shopping = try gym.run(["staples", "shopping-list", "Rice Bowl", "-f", "csv"])
    #expect(
      shopping.stdoutLines == [
        "category,item,amount,unit,for", "Pantry,Rice,1.2,kg,Rice Bowl; keeping 2",
        "Produce,Tomatoes,2,pcs,Rice Bowl",
      ], "\(shopping.stdout)")
    // Without recipes: the minimum alone, 2 − 1 = 1 kg.
    #expect(
      try gym.run(["staples", "shopping-list", "-f", "csv"]).stdoutLines.last
        == "Pantry,Rice,1,kg,below its minimum of 2")
    // The milk is past its best-before: not stock. Plain Rice: 1 of 1, none expiring: share 1, first.
    // Frittata: eggs and spinach (expiring tomorrow), no milk: 2 of 3, 1 expiring. Rice Bowl: 2 of 3
    // (no tomatoes). Shakshuka: 0 of 2 (6 eggs < 8, no tomatoes).
    let cookable = try gym.run(["staples", "cookable", "-f", "csv"])
    #expect(
      cookable.stdoutLines == [
        "recipe,share,have,ingredients,expiring,missing", "Plain Rice,1,1,1,0,", "Frittata,0.667,2,3,1,Milk 0.1 l",
        "Rice Bowl,0.667,2,3,0,Tomatoes 2 pcs", "Shakshuka,0,0,2,0,\"Eggs 2 pcs, Tomatoes 4 pcs\"",
      ], "\(cookable.stdout)")
    #expect(try gym.run(["staples", "cookable", "--only-complete", "-f", "csv"]).stdoutLines.count == 2)
    // Cooking the frittata refuses the expired milk, naming it; --force uses it (1 l − 0.1 l = 0.9 l left).
    let refused = try gym.run(["staples", "cook", "Frittata"])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("(past its best-before: 1 l of Milk)"), "\(refused.stderr)")
    #expect(try gym.run(["staples", "cook", "Frittata", "--force", "-q"]).status == 0)
    let milk = try gym.run(["staples", "stock", "-f", "csv"]).stdoutLines.first { $0.hasPrefix("Milk,") }
    #expect(milk?.hasPrefix("Milk,Dairy,0.9,l,1,") == true, "\(milk ?? "")")
    // stock: totals and nearest best-before, by category; --location keeps the fridge's lots (the
    // frittata took 100 g of the spinach).
    let fridge = try gym.run(["staples", "stock", "--location", "fridge", "-f", "csv"])
    #expect(
      fridge.stdoutLines == [
        "item,category,quantity,unit,lots,bestBefore", "Milk,Dairy,0.9,l,1,\(day(-1))",
        "Spinach,Produce,100,g,1,\(day(1))",
      ], "\(fridge.stdout)")
  }

  /// `open` dates the first-expiring unopened lot and, with --days, shortens its best-before.
  @Test func openingALotShortensItsBestBefore() throws {
    ClockEdge.avoidMidnight()
    let gym = try GymProcess()
    let day = Self.day
    for offset in [20, 10] {
      let bought = try gym.run([
        "staples", "buy", "Milk", "1", "l", "--category", "Dairy", "--best-before", day(offset), "-q",
      ])
      #expect(bought.status == 0, "\(bought.stderr)")
    }
    // The lot good until today + 10 is opened first; good 3 days once open: today + 3, sooner.
    let first = try gym.run(["staples", "open", "Milk", "--days", "3"])
    #expect(first.status == 0 && first.stderr.contains("opened 1 l of Milk; best before \(day(3))"), "\(first.stderr)")
    let expiring = try gym.run(["staples", "expiring", "--days", "5", "-f", "csv"])
    #expect(
      expiring.stdoutLines == ["item,amount,unit,bestBefore,days,location", "Milk,1,l,\(day(3)),3,"],
      "\(expiring.stdout)")
    // Then the other; 30 days would be later than its own best-before, which stays.
    let second = try gym.run(["staples", "open", "Milk", "--days", "30"])
    #expect(second.stderr.contains("best before \(day(20))"), "\(second.stderr)")
    let none = try gym.run(["staples", "open", "Milk"])
    #expect(none.status == 66 && none.stderr.contains("no unopened lot of Milk"), "\(none.stderr)")
    #expect(try gym.run(["staples", "open", "Nothing"]).status == 66)
  }

  /// A recipe's units are checked when it is saved: one its item's unit cannot be converted from is
  /// refused, naming both, and nothing is saved; a new or unit-less item takes the ingredient's unit.
  @Test func recipeUnitsAreCheckedWhenSaved() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["staples", "buy", "Spinach", "200", "g", "--category", "Produce", "-q"]).status == 0)
    let refused = try gym.run(["staples", "recipe", "add", "Salad", "--ingredient", "Spinach:2 cup"])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("recipe 'Salad' was not saved: cannot convert"), "\(refused.stderr)")
    #expect(try gym.run(["staples", "recipe", "show", "Salad"]).status == 66)
    // With the item's own conversion (1 cup = 30 g) it is saved, and cooking takes 2 × 30 = 60 g.
    #expect(
      try gym.run(["staples", "set", "Spinach", "--unit-weight", "Spinach: 1 cup = 30 g", "-q"]).status == 0)
    #expect(try gym.run(["staples", "recipe", "add", "Salad", "--ingredient", "Spinach:2 cup", "-q"]).status == 0)
    #expect(try gym.run(["staples", "cook", "Salad", "-q"]).status == 0)
    let spinach = try gym.run(["staples", "stock", "-f", "csv"]).stdoutLines.first { $0.hasPrefix("Spinach,") }
    #expect(spinach?.hasPrefix("Spinach,Produce,140,g,") == true, "\(spinach ?? "")")  // 200 − 60
    // --create-missing: Oats arrives in grams; Flour, added without a unit, takes the recipe's.
    #expect(try gym.run(["staples", "add", "Flour", "--category", "Baking", "-q"]).status == 0)
    let porridge = try gym.run([
      "staples", "recipe", "add", "Porridge", "--ingredient", "Oats:80 g", "--ingredient", "Flour:10 g",
      "--create-missing", "-q",
    ])
    #expect(porridge.status == 0, "\(porridge.stderr)")
    for item in ["Oats", "Flour"] {
      let shown = try gym.run(["staples", "show", item, "-f", "json"])
      #expect(shown.stdout.contains("\"unit\":\"g\""), "\(item): \(shown.stdout)")
    }
  }

  /// A total of converted lots reads the same in `stock` and `expiring` as in what `buy` says: 1 kg
  /// and 2 lb (2 × 0.45359237 = 0.90718474 kg) make 1.90718474 kg, 1.907 to the gram.
  @Test func convertedTotalsReadAsBuySaysThem() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["staples", "add", "Flour", "--category", "Pantry", "--unit", "kg", "-q"]).status == 0)
    #expect(try gym.run(["staples", "buy", "Flour", "1", "kg", "--best-before", "2030-01-01", "-q"]).status == 0)
    let bought = try gym.run(["staples", "buy", "Flour", "2", "lb", "--best-before", "2030-01-02"])
    #expect(bought.stderr.contains("bought 0.907 kg of Flour; 1.907 kg in stock"), "\(bought.stderr)")
    let stock = try gym.run(["staples", "stock", "-f", "csv"])
    #expect(stock.stdoutLines == ["item,category,quantity,unit,lots,bestBefore", "Flour,Pantry,1.907,kg,2,2030-01-01"])
    let expiring = try gym.run(["staples", "expiring", "--days", "36500", "-f", "csv"]).stdoutLines
    #expect(expiring.dropFirst().map { $0.split(separator: ",")[1] } == ["1", "0.907"], "\(expiring)")
  }

  /// Pieces agree with their number: `bought 1 piece`, `3 pieces in stock`, `1 piece left`; other
  /// units stay as written.
  @Test func piecesAgreeWithTheirNumber() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["staples", "add", "Egg", "--category", "Dairy", "-q"]).status == 0)
    let one = try gym.run(["staples", "buy", "Egg", "1"])
    #expect(one.stderr.contains("bought 1 piece of Egg; 1 piece in stock"), "\(one.stderr)")
    let two = try gym.run(["staples", "buy", "Egg", "2", "pieces"])
    #expect(two.stderr.contains("bought 2 pieces of Egg; 3 pieces in stock"), "\(two.stderr)")
    let used = try gym.run(["staples", "use", "Egg", "2"])
    #expect(used.stderr.contains("used 2 pieces of Egg; 1 piece left"), "\(used.stderr)")
    #expect(try gym.run(["staples", "add", "Milk", "--category", "Dairy", "--unit", "l", "-q"]).status == 0)
    let milk = try gym.run(["staples", "buy", "Milk", "1", "l"])
    #expect(milk.stderr.contains("bought 1 l of Milk; 1 l in stock"), "\(milk.stderr)")
  }

  /// An item already counted in pieces keeps pieces: grams are refused without its own conversion
  /// (not added as 2 + 100 = 102 "g"), and with `1 pcs = 60 g` a recipe's 150 g is 150 / 60 = 2.5 pieces.
  @Test func anItemCountedInPiecesIsNeverRelabelled() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["staples", "buy", "Eggs", "2", "--category", "Dairy", "-q"]).status == 0)
    let grams = try gym.run(["staples", "buy", "Eggs", "100", "g"])
    #expect(grams.status == 64 && grams.stderr.contains("cannot convert g to pieces for Eggs"), "\(grams.stderr)")
    #expect(try lots(gym, "Eggs") == [2])
    #expect(
      try gym.run(["staples", "set", "Eggs", "--unit-weight", "Eggs: 1 pcs = 60 g", "-q"]).status == 0)
    #expect(
      try gym.run(["staples", "recipe", "add", "Omelette", "--ingredient", "Eggs:150 g", "-q"]).status == 0)
    let stock = try gym.run(["staples", "stock", "-f", "csv"]).stdoutLines
    #expect(stock.contains("Eggs,Dairy,2,,1,"), "\(stock)")
    #expect(try gym.run(["staples", "cook", "Omelette", "-q"]).status == 1)  // 2.5 pieces needed, 2 there
    // Given grams as its unit, the lot of 2 pieces becomes 2 × 60 = 120 g, not "2 g".
    #expect(try gym.run(["staples", "set", "Eggs", "--unit", "g", "-q"]).status == 0)
    #expect(try lots(gym, "Eggs") == [120])
    // An item nothing counts yet still takes its first amount's unit.
    #expect(try gym.run(["staples", "add", "Rice", "--category", "Pantry", "-q"]).status == 0)
    #expect(try gym.run(["staples", "buy", "Rice", "1", "kg", "-q"]).status == 0)
    #expect(try gym.run(["staples", "show", "Rice", "-f", "json"]).stdout.contains("\"unit\":\"kg\""))
  }

  /// A new unit takes every amount kept in the old one along: the lots, what was taken, and the
  /// minimum stock (2 kg, 0.3 kg taken, 1 kg bought → 2000 g, 300 g, 700 g).
  @Test func aNewUnitConvertsTheMinimumAndWhatWasTaken() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["staples", "buy", "Flour", "1", "kg", "--category", "Baking", "-q"]).status == 0)
    #expect(try gym.run(["staples", "set", "Flour", "--min-stock", "2", "-q"]).status == 0)
    #expect(try gym.run(["staples", "use", "Flour", "0.3", "-q"]).status == 0)
    #expect(try gym.run(["staples", "set", "Flour", "--unit", "g", "-q"]).status == 0)
    // 1 kg − 0.3 kg = 0.7 kg = 700 g.
    #expect(try lots(gym, "Flour").map { ($0 * 1000).rounded() / 1000 } == [700])
    let stored = try DatabaseQueue(path: gym.databasePath).read { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT minStock, (SELECT SUM(amount) FROM stock_use WHERE itemSeq = grocery_item.seq)
          FROM grocery_item WHERE name = 'Flour'
          """)
    }
    #expect(stored?[0] as Double? == 2000)
    #expect((stored?[1] as Double?).map { ($0 * 1000).rounded() / 1000 } == 300)
    // 1,500 g in stock against a minimum of 2,000 g: 2000 − 1500 = 500 g to buy.
    #expect(try gym.run(["staples", "set", "Flour", "--quantity", "1500", "-q"]).status == 0)
    let list = try gym.run(["staples", "shopping-list", "-f", "csv"])
    #expect(list.stdoutLines.contains("Baking,Flour,500,g,below its minimum of 2000"), "\(list.stdout)")
    // Another dimension cannot carry the minimum over: refused, nothing changed.
    let pieces = try gym.run(["staples", "set", "Flour", "--unit", "pcs"])
    #expect(pieces.status != 0, "\(pieces.stderr)")
    #expect(try lots(gym, "Flour").reduce(0, +) == 1500)
  }
}
