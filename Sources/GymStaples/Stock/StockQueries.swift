import GRDB
import GymCLI
import GymCore

/// The reads of `stock` and `expiring`, each one statement behind an index.
enum StockQueries {
  /// Items with stock: total, lots and nearest best-before, by category then name. One pass over
  /// `stock_lot_item` (item, amount, best-before), grouped, then a lookup of each item.
  static func stock(_ db: Database, location: String?) throws -> [[Cell]] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT g.name, g.category, s.total, g.unit, s.lots, s.nearest
        FROM (
          SELECT itemSeq, sum(amount) AS total, count(*) AS lots, min(bestBefore) AS nearest
          FROM stock_lot WHERE amount > 0 \(location == nil ? "" : "AND location = ?") GROUP BY itemSeq
        ) s
        JOIN grocery_item g ON g.seq = s.itemSeq
        ORDER BY g.category, g.name
        """, arguments: StatementArguments(location.map { [$0] } ?? [])
    ).map { row in
      [
        .text(row[0]), .text(row[1]), .real(Quantity.rounded(row[2])), (row[3] as String?).map(Cell.text) ?? .null,
        .integer(row[4]), (row[5] as String?).map(Cell.text) ?? .null,
      ]
    }
  }

  struct Lot {
    let item: String
    let amount: Double
    let unit: String?
    let bestBefore: String
    let location: String?
  }

  /// Lots not used up whose best-before is on or before `date`, soonest first: a range of the
  /// partial index `stock_lot_best_before`.
  static func expiring(_ db: Database, by date: String, location: String?, limit: Int? = nil) throws -> [Lot] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT g.name, l.amount, g.unit, l.bestBefore, l.location
        FROM stock_lot l JOIN grocery_item g ON g.seq = l.itemSeq
        WHERE l.amount > 0 AND l.bestBefore IS NOT NULL AND l.bestBefore <= ?
          \(location == nil ? "" : "AND l.location = ?")
        ORDER BY l.bestBefore, g.name\(limit.map { " LIMIT \($0)" } ?? "")
        """, arguments: StatementArguments([date] + (location.map { [$0] } ?? []))
    ).map { Lot(item: $0[0], amount: $0.number(at: 1) ?? 0, unit: $0[2], bestBefore: $0[3], location: $0[4]) }
  }
}
