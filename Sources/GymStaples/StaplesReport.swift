import GRDB
import GymCLI
import GymCore

/// The pantry's part of `gym report`: what is expiring (lots past or within a week of their
/// best-before, soonest first, as `staples expiring --days 7` lists them), what is below its minimum
/// stock, and the recipes cooked most (their usage count, as `cook` keeps it).
public enum StaplesReport {
  /// How far ahead the report looks for best-before dates, and how many lots it lists at most.
  static let expiringDays: Int64 = 7
  static let expiringRows = 20

  public static func pantry(_ db: Database, now: Timestamp = .now()) throws -> ReportSection? {
    let cooked = try Row.fetchAll(
      db, sql: "SELECT name, usageCount FROM recipe WHERE usageCount > 0 ORDER BY usageCount DESC, name LIMIT 10")
    var section = ReportSection(id: "pantry", title: "Pantry")
    let today = CalendarDay.today(now).days
    let lots = try StockQueries.expiring(
      db, by: CalendarDay(days: today + expiringDays).text, location: nil, limit: expiringRows)
    if let table = ReportTable(
      title: "What is expiring (within \(expiringDays) days)",
      columns: ["item", "amount", "best before", "days", "where"],
      rows: lots.map { lot in
        let days = CalendarDay(lot.bestBefore).map { $0.days - today } ?? 0
        return [
          lot.item, "\(Quantity.text(lot.amount)) \(PantryUnit.name(lot.unit))", lot.bestBefore,
          days < 0 ? "\(-days) past" : days == 0 ? "today" : "in \(days)", lot.location ?? "",
        ]
      })
    {
      section.tables.append(table)
    }
    // Below the least stock to keep, as the shopping list counts it: lots still good today (an item
    // with none has none).
    let low = try Row.fetchAll(
      db,
      sql: """
        SELECT name, good, minStock, unit FROM (
          SELECT g.name, g.category, g.minStock, g.unit,
            (SELECT total(amount) FROM stock_lot WHERE itemSeq = g.seq AND \(Stock.good(today: "?1"))) AS good
          FROM grocery_item g WHERE g.minStock IS NOT NULL)
        WHERE good < minStock ORDER BY category, name LIMIT ?2
        """, arguments: [CalendarDay(days: today).text, expiringRows])
    if let table = ReportTable(
      title: "Low on stock", columns: ["item", "in stock", "keep at least"],
      rows: low.map { row in
        let unit = PantryUnit.name(row[3] as String?)
        return [
          row[0], "\(Quantity.text(row.number(at: 1) ?? 0)) \(unit)",
          "\(Quantity.text(row.number(at: 2) ?? 0)) \(unit)",
        ]
      })
    {
      section.tables.append(table)
    }
    if let chart = ReportChart(
      title: "Most-cooked recipes", kind: .categories, xLabel: "recipe", yLabel: "times cooked",
      points: cooked.map { .init($0[0], $0.number(at: 1) ?? 0) })
    {
      section.charts.append(chart)
    }
    return section.isEmpty ? nil : section
  }
}

extension StaplesReport {
  /// Cooking by its time, lots by the day they were added.
  static func extents(_ db: Database) throws -> [DataExtent] {
    [
      try DataExtent.read(db, "cooking", sql: "SELECT min(cookedAt), max(cookedAt) FROM cooking"),
      try DataExtent.read(db, "purchase", sql: "SELECT min(added), max(added) FROM stock_lot"),
    ].compactMap { $0 }
  }
}

/// The pantry in `gym report`.
public let staplesReport = ReportContribution(module: "staples", extents: StaplesReport.extents) { db, request in
  [try StaplesReport.pantry(db, now: request.clock)].compactMap { $0 }
}
