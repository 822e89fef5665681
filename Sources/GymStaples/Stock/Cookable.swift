import Foundation
import GRDB
import GymCLI
import GymCore

/// "What can I cook?": every recipe with its share of ingredients in stock (enough of each for the
/// recipe as written; one to taste counts when there is any), how many of them would use up a lot
/// near its best-before, and what is missing. Read in four statements, worked out here.
enum Cookable {
  struct Ranked: Equatable {
    let recipe: String
    let have: Int
    let ingredients: Int
    /// Ingredients with a lot that is past or near its best-before, which cooking would use.
    let expiring: Int
    let missing: [String]
    var share: Double { ingredients == 0 ? 0 : Double(have) / Double(ingredients) }
  }

  /// `today`: lots past their best-before then are not stock; a lot expiring by `expiringBy` counts.
  static func rank(_ db: Database, expiringBy: String, today: String) throws -> [Ranked] {
    var totals: [Int64: Double] = [:]
    for row in try Row.fetchAll(
      db, sql: "SELECT itemSeq, sum(amount) FROM stock_lot WHERE amount > 0 AND \(Stock.good()) GROUP BY itemSeq",
      arguments: [today])
    {
      totals[row[0]] = row[1]
    }
    let expiring = Set(
      try Int64.fetchAll(
        db,
        sql: """
          SELECT DISTINCT itemSeq FROM stock_lot
          WHERE amount > 0 AND bestBefore IS NOT NULL AND bestBefore <= ? AND bestBefore >= ?
          """, arguments: [expiringBy, today]))
    var conversions: [Int64: [UnitConversion]] = [:]
    for row in try Row.fetchAll(
      db, sql: "SELECT itemSeq, fromAmount, fromUnit, toAmount, toUnit FROM item_conversion ORDER BY seq")
    {
      conversions[row[0], default: []].append(
        UnitConversion(
          fromAmount: row.number(at: 1) ?? 0, fromUnit: row[2], toAmount: row.number(at: 3) ?? 0, toUnit: row[4]))
    }
    var ranked: [Ranked] = []
    var current: (name: String, have: Int, count: Int, expiring: Int, missing: [(item: String, text: String)])?
    func close() {
      if let current {
        let missing = current.missing.sorted { $0.item.lowercased() < $1.item.lowercased() }.map(\.text)
        ranked.append(
          Ranked(
            recipe: current.name, have: current.have, ingredients: current.count, expiring: current.expiring,
            missing: missing))
      }
    }
    // In the order of the pair index (recipe, item): no sort; each recipe's missing items are sorted here.
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT ri.recipeSeq, r.name, g.seq, g.name, g.unit, ri.amount, ri.unit
        FROM recipe_ingredient ri JOIN recipe r ON r.seq = ri.recipeSeq JOIN grocery_item g ON g.seq = ri.itemSeq
        ORDER BY ri.recipeSeq
        """)
    var recipeSeq: Int64?
    while let row = try rows.next() {
      let seq: Int64 = row[0]
      if seq != recipeSeq {
        close()
        recipeSeq = seq
        current = (row[1], 0, 0, 0, [])
      }
      let item: Int64 = row[2]
      let name: String = row[3]
      let unit: String? = row[4]
      let have = totals[item] ?? 0
      current!.count += 1
      if expiring.contains(item) { current!.expiring += 1 }
      guard let amount = row[5] as Double? else {
        if have > Stock.tolerance { current!.have += 1 } else { current!.missing.append((name, name)) }
        continue
      }
      let units = ItemUnits(item: name, unit: unit, conversions: conversions[item] ?? [])
      guard let need = try? units.convert(amount, from: row[6] as String?) else {
        current!.missing.append(
          (name, "\(name) (\(PantryUnit.name(row[6] as String?)) does not convert to \(PantryUnit.name(unit)))"))
        continue
      }
      if have + Stock.tolerance >= need {
        current!.have += 1
      } else {
        current!.missing.append((name, Cooking.Short(name: name, missing: need - have, unit: unit).description))
      }
    }
    close()
    return ranked.sorted {
      ($0.share, $0.expiring) != ($1.share, $1.expiring)
        ? ($0.share, $0.expiring) > ($1.share, $1.expiring)
        : $0.recipe.localizedCaseInsensitiveCompare($1.recipe) == .orderedAscending
    }
  }
}
