import GRDB
import GymCLI
import GymCore

/// The shopping list: for each item, what brings its stock back to its minimum after the named
/// recipes are cooked — `minStock + what the recipes need - stock`, when above zero — in the item's
/// unit, grouped by category. An item with no lots counts as none in stock.
enum ShoppingList {
  struct Line: Equatable {
    let category: String
    let item: String
    /// nil: a recipe needs it to taste and there is none.
    let amount: Double?
    let unit: String?
    let reason: String
  }

  /// `today`: a lot past its best-before then is not stock.
  static func lines(_ db: Database, recipes: [String], today: String) throws -> [Line] {
    var needed: [Int64: (need: Cooking.Need, amount: Double, toTaste: Bool, for: [String])] = [:]
    for name in recipes {
      let recipe = try Cooking.recipe(db, named: name)
      for need in try Cooking.needs(db, recipe: recipe.seq, scale: 1) {
        var entry = needed[need.item] ?? (need, 0, false, [])
        if let amount = need.amount { entry.amount += amount } else { entry.toTaste = true }
        if !entry.for.contains(name) { entry.for.append(name) }
        needed[need.item] = entry
      }
    }
    let items = try Row.fetchAll(
      db,
      sql: """
        SELECT g.seq, g.category, g.name, g.unit, g.minStock,
          (SELECT sum(l.amount) FROM stock_lot l WHERE l.itemSeq = g.seq AND \(Stock.good())) AS stock
        FROM grocery_item g WHERE g.minStock IS NOT NULL
        """, arguments: [today])
    var lines: [Line] = []
    var minimums: [Int64: Double] = [:]
    for row in items {
      let seq: Int64 = row[0]
      minimums[seq] = row.number(at: 4)
      if needed[seq] != nil { continue }
      let stock = row.number(at: 5) ?? 0
      guard let minimum = row.number(at: 4) else { continue }
      let short = minimum - stock
      if short > Stock.tolerance {
        lines.append(
          Line(
            category: row[1], item: row[2], amount: short, unit: row[3],
            reason: "below its minimum of \(Quantity.text(minimum))"))
      }
    }
    for (seq, entry) in needed {
      let stock = try Stock.amounts(db, item: seq, today: today)?.good ?? 0
      let minimum = minimums[seq] ?? 0
      let short = minimum + entry.amount - stock
      let reason = entry.for.joined(separator: ", ") + (minimum > 0 ? "; keeping \(Quantity.text(minimum))" : "")
      if short > Stock.tolerance {
        lines.append(
          Line(
            category: entry.need.category, item: entry.need.name, amount: short, unit: entry.need.unit, reason: reason))
      } else if entry.toTaste && entry.amount == 0 && stock <= Stock.tolerance {
        lines.append(Line(category: entry.need.category, item: entry.need.name, amount: nil, unit: nil, reason: reason))
      }
    }
    return lines.sorted {
      ($0.category.lowercased(), $0.item.lowercased()) < ($1.category.lowercased(), $1.item.lowercased())
    }
  }
}
