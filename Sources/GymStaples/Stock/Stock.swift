import GRDB
import GymCLI
import GymCore

/// Stock kept as lots: buying adds one, using takes from the lot that expires first (then the
/// oldest), and an item's stock is the sum of its lots, in the item's unit. Every change is inside
/// the caller's write transaction, so two processes never take the same lot twice.
enum Stock {
  /// An item as stock needs it: its row, its unit and its own conversions.
  struct Item {
    let seq: Int64
    let name: String
    let category: String
    var units: ItemUnits
    var unit: String? { units.unit }
  }

  /// Lots amounts below this are used up: sums of decimal fractions are never exact.
  static let tolerance = 1e-9

  static func item(_ db: Database, named name: String) throws -> Item? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT seq, name, category, unit FROM grocery_item WHERE name = ?", arguments: [name])
    else { return nil }
    let seq: Int64 = row["seq"]
    let itemName: String = row["name"]
    return Item(
      seq: seq, name: itemName, category: row["category"],
      units: ItemUnits(item: itemName, unit: row["unit"], conversions: try conversions(db, item: seq)))
  }

  /// Whether an item without a unit already counts something in pieces: a lot (used up or not), a
  /// use, or a recipe's amount written without a unit. Its unit is then pieces, and a first amount
  /// in grams is converted (or refused), not taken as the item's unit: only an item nothing measures
  /// yet takes the unit of its first amount. (A minimum stock set before any unit is in the unit
  /// that comes: `add Milk --min-stock 2`, then `buy Milk 1 l`, is 2 l.)
  static func countsInPieces(_ db: Database, item: Int64) throws -> Bool {
    try Bool.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT EXISTS (SELECT 1 FROM stock_lot WHERE itemSeq = ?1)
            OR EXISTS (SELECT 1 FROM stock_use WHERE itemSeq = ?1)
            OR EXISTS (
              SELECT 1 FROM recipe_ingredient
              WHERE itemSeq = ?1 AND amount IS NOT NULL AND trim(coalesce(unit, '')) = '')
          """), arguments: [item]) ?? false
  }

  static func conversions(_ db: Database, item: Int64) throws -> [UnitConversion] {
    try Row.fetchAll(
      db, sql: "SELECT fromAmount, fromUnit, toAmount, toUnit FROM item_conversion WHERE itemSeq = ? ORDER BY seq",
      arguments: [item]
    ).map { UnitConversion(fromAmount: $0[0], fromUnit: $0[1], toAmount: $0[2], toUnit: $0[3]) }
  }

  /// Records (or replaces) an item's conversion between two units.
  static func setConversion(_ db: Database, item: Int64, _ conversion: UnitConversion) throws {
    try db.execute(
      sql: """
        INSERT INTO item_conversion (seq, itemSeq, fromAmount, fromUnit, toAmount, toUnit) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET fromAmount = excluded.fromAmount, toAmount = excluded.toAmount
        """,
      arguments: [
        StaplesKeys.conversion(item: item, from: conversion.fromUnit, to: conversion.toUnit), item,
        conversion.fromAmount, conversion.fromUnit, conversion.toAmount, conversion.toUnit,
      ])
  }

  /// A lot still good on `?` (a local day, `YYYY-MM-DD`): no best-before, or one not past. A lot past
  /// its best-before is kept apart: recorded and listed by `expiring` as expired, but not stock that
  /// cooking, `cookable` or the shopping list counts on (`cook --force` uses it).
  static func good(today parameter: String = "?") -> String {
    "(bestBefore IS NULL OR bestBefore >= \(parameter))"
  }

  /// The order lots are taken in: first-expiring first, then oldest (a lot without a best-before
  /// after every dated one).
  static let takingOrder = "ORDER BY bestBefore IS NULL, bestBefore, added, seq"

  /// The item's stock still good on `today` and in all (expired lots too); nil when it has no lots.
  static func amounts(_ db: Database, item: Int64, today: String) throws -> (good: Double, all: Double)? {
    guard
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT sum(CASE WHEN \(good(today: "?1")) THEN amount ELSE 0 END), sum(amount)
          FROM stock_lot WHERE itemSeq = ?2
          """, arguments: [today, item]),
      let all = row.number(at: 1)
    else { return nil }
    return (row.number(at: 0) ?? 0, all)
  }

  /// The sum of the item's lots; nil when it has none (its stock is unknown).
  static func total(_ db: Database, item: Int64) throws -> Double? {
    try Double.fetchOne(db, sql: "SELECT sum(amount) FROM stock_lot WHERE itemSeq = ?", arguments: [item])
  }

  /// A new lot of `amount` (in the item's unit).
  static func add(
    _ db: Database, item: Int64, amount: Double, bestBefore: String?, location: String?, opened: String? = nil,
    now: Timestamp
  ) throws {
    try db.execute(
      sql:
        "INSERT INTO stock_lot (seq, itemSeq, amount, bestBefore, location, opened, added) VALUES (?, ?, ?, ?, ?, ?, ?)",
      arguments: [GlobalKey.random(), item, amount, bestBefore, location, opened, now.canonical])
  }

  /// Takes up to `amount` (in the item's unit) from the lots, first-expiring first, then oldest
  /// first (a lot without a best-before after every dated one); with `goodOn`, only from lots still
  /// good that day. Returns what was taken.
  @discardableResult
  static func take(_ db: Database, item: Int64, amount: Double, goodOn today: String? = nil) throws -> Double {
    var left = amount
    let lots = try Row.fetchAll(
      db,
      sql: """
        SELECT seq, amount FROM stock_lot WHERE itemSeq = ?1 AND amount > 0 \(today == nil ? "" : "AND \(good(today: "?2"))")
        \(takingOrder)
        """, arguments: today.map { [item, $0] } ?? [item])
    for lot in lots where left > tolerance {
      let seq: Int64 = lot["seq"]
      let available: Double = lot["amount"]
      let taken = min(available, left)
      let remaining = available - taken
      try db.execute(
        sql: "UPDATE stock_lot SET amount = ? WHERE seq = ?", arguments: [remaining < tolerance ? 0 : remaining, seq])
      left -= taken
    }
    return amount - max(left, 0)
  }

  /// Records a taking of `amount` (in the item's unit): a use, spoiled or not, or an ingredient of
  /// the cooking `cooking`. A count that corrects the stock (`setTotal`) is not a taking.
  static func recordUse(
    _ db: Database, item: Int64, amount: Double, spoiled: Bool = false, cooking: Int64? = nil, now: Timestamp
  ) throws {
    guard amount > tolerance else { return }
    try db.execute(
      sql: "INSERT INTO stock_use (seq, itemSeq, amount, usedAt, spoiled, cookingSeq) VALUES (?, ?, ?, ?, ?, ?)",
      arguments: [GlobalKey.random(), item, amount, now.canonical, spoiled, cooking])
  }

  /// Sets the stock to exactly `total` (a count of what is there): takes the difference from the
  /// lots, or adds a lot of it; an item with no lots gets one of `total`, even 0 (known to be out).
  /// A lot it adds has `bestBefore`, when given.
  static func setTotal(_ db: Database, item: Int64, total: Double, bestBefore: String? = nil, now: Timestamp) throws {
    guard let current = try self.total(db, item: item) else {
      return try add(db, item: item, amount: total, bestBefore: bestBefore, location: nil, now: now)
    }
    if current > total + tolerance {
      try take(db, item: item, amount: current - total)
    } else if total > current + tolerance {
      try add(db, item: item, amount: total - current, bestBefore: bestBefore, location: nil, now: now)
    }
  }
}
