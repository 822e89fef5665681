import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym staples open ITEM [--days N]`: the first-expiring unopened lot is opened today, and with
/// `--days` keeps that long at most (milk good until the 30th is good three days once opened).
struct StaplesOpen: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "open",
    abstract: "Open the lot that expires first: dated opened today, with --days a shorter best-before.",
    discussion: HelpExamples.discussion(
      """
      The lot is the item's first-expiring one still good and not yet opened (use and cook take from it \
      first). With --days N its best-before becomes today + N when that is sooner; a lot past it is no \
      longer stock for cooking (see 'gym staples expiring').
      """,
      examples: [
        "gym staples open Milk --days 3",
        "gym staples open 'Olive Oil'",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The item's name.", completion: .custom(StaplesCompletion.itemNames)) var name: String
  @Option(help: ArgumentHelp("Good for this many days once opened (0 to 3650).", valueName: "days")) var days: Int?

  func validate() throws {
    try checkName(name, "item")
    if let days, !(0...3650).contains(days) { throw ValidationError("--days must be 0 to 3650") }
  }

  func run(context: CommandContext) throws {
    let today = CalendarDay.today()
    let (item, amount, bestBefore) = try context.openStoreForWriting().write { db in
      guard let item = try Stock.item(db, named: name.trimmed) else {
        throw GymError.noInput("no item named '\(name.trimmed)'; see 'gym staples --all'")
      }
      guard
        let lot = try Row.fetchOne(
          db,
          sql: """
            SELECT seq, amount, bestBefore FROM stock_lot
            WHERE itemSeq = ?1 AND amount > 0 AND opened IS NULL AND \(Stock.good(today: "?2"))
            \(Stock.takingOrder) LIMIT 1
            """, arguments: [item.seq, today.text])
      else {
        throw GymError.noInput("no unopened lot of \(item.name) in stock; see 'gym staples stock'")
      }
      let current: String? = lot["bestBefore"]
      let shorter = days.map { today.adding(days: Int64($0)).text }
      // `YYYY-MM-DD` sorts as the days do.
      let bestBefore = [current, shorter].compactMap { $0 }.min()
      try db.execute(
        sql: "UPDATE stock_lot SET opened = ?, bestBefore = ? WHERE seq = ?",
        arguments: [today.text, bestBefore, lot["seq"] as Int64])
      return (item, lot["amount"] as Double, bestBefore)
    }
    printNote(
      "opened \(PantryUnit.amount(amount, item.unit)) of \(item.name)"
        + (bestBefore.map { "; best before \($0)" } ?? ""))
  }
}
