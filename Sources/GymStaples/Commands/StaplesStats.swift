import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym staples stats [--since DATE] [--until DATE]`: per item, what was taken from stock in the
/// period: used, cooked and spoiled, in the item's unit, with the spoiled share (Grocy's "spoiled"
/// figure). Counts only takings recorded since staples/003; earlier ones are unknown.
struct StaplesStats: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "What was used, cooked and spoiled per item, and the share that spoiled.",
    discussion: HelpExamples.discussion(
      """
      Each 'use' counts as used (with --spoiled, as spoiled) and each ingredient 'cook' took as cooked, \
      in the item's unit. spoiledPercent is spoiled / (used + cooked + spoiled) × 100. Items that spoiled \
      most come first. A count that corrects the stock ('set --quantity') is not a use.
      """,
      examples: [
        "gym staples stats --since 30d",
        "gym staples stats --since 2026-01-01 -f csv",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var dates: DateRangeOptions
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func run(context: CommandContext) throws {
    let (since, until) = try dates.bounds()
    let rows = try context.openStore().read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT g.name, g.category, g.unit, u.used, u.cooked, u.spoiled FROM (
            SELECT itemSeq,
              total(CASE WHEN spoiled = 0 AND cookingSeq IS NULL THEN amount END) AS used,
              total(CASE WHEN spoiled = 0 AND cookingSeq IS NOT NULL THEN amount END) AS cooked,
              total(CASE WHEN spoiled = 1 THEN amount END) AS spoiled
            FROM stock_use WHERE usedAt >= ?1 AND usedAt < ?2 GROUP BY itemSeq
          ) u JOIN grocery_item g ON g.seq = u.itemSeq
          ORDER BY u.spoiled DESC, u.used + u.cooked DESC, g.name
          """,
        arguments: [since?.canonical ?? "", until?.canonical ?? "9999"])
    }
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat,
      columns: ["item", "category", "unit", "used", "cooked", "spoiled", "spoiledPercent"])
    for row in rows {
      let used = row.number(at: 3) ?? 0
      let cooked = row.number(at: 4) ?? 0
      let spoiled = row.number(at: 5) ?? 0
      writer.write([
        .text(row[0]), .text(row[1]), (row[2] as String?).map(Cell.text) ?? .null, .real(used), .real(cooked),
        .real(spoiled), .real((spoiled / (used + cooked + spoiled) * 1000).rounded() / 10),
      ])
    }
    writer.finish(next: nil)
  }
}
