import GRDB
import GymCLI
import GymCore

/// The stock fields of an item as `staples list` prints them: `quantity` sets the item's stock
/// through its lots (as `staples set --quantity` does), and a lot it adds takes the record's
/// `bestBefore`: a list imports back as one lot per item, the same totals and nearest dates.
final class ItemStockImport: ExtraFieldImport {
  let fieldNames = ["quantity", "bestBefore"]
  private var given: [(item: String, quantity: Double, bestBefore: String?)] = []
  /// Items whose stock the import changed (their rows may be unchanged: the stock is in its lots).
  private(set) var changedItems = 0

  func stage(_ values: RecordValues, line: Int) throws {
    guard let nameIndex = values.fieldNames.firstIndex(of: "name"), values.kinds[nameIndex] == .string,
      let index = values.fieldNames.firstIndex(of: "quantity")
    else { return }
    switch values.kinds[index] {
    case .missing, .null: return
    case .number, .string:
      let text = values.string(index)
      guard let quantity = DecimalNumber.parse(text), quantity.isFinite, quantity >= 0, quantity < 1e12 else {
        throw InputError(line: line, message: "field 'quantity': '\(text)' is not a stock (a number, 0 or more)")
      }
      var bestBefore: String?
      if let dateIndex = values.fieldNames.firstIndex(of: "bestBefore"), values.kinds[dateIndex] == .string {
        let text = values.string(dateIndex)
        guard let day = CalendarDay(text.trimmed) else {
          throw InputError(line: line, message: "field 'bestBefore': '\(text)' is not a date (YYYY-MM-DD)")
        }
        bestBefore = day.text
      }
      given.append((values.string(nameIndex).trimmed, quantity, bestBefore))
    default:
      throw InputError(line: line, message: "field 'quantity' is not a number")
    }
  }

  func finish(_ db: Database?) throws {
    guard let db else { return }
    let now = Timestamp.now()
    for (item, quantity, bestBefore) in given {
      guard let seq = try Int64.fetchOne(db, sql: "SELECT seq FROM grocery_item WHERE name = ?", arguments: [item])
      else { continue }
      let changes = db.totalChangesCount
      try Stock.setTotal(db, item: seq, total: quantity, bestBefore: bestBefore, now: now)
      if db.totalChangesCount != changes { changedItems += 1 }
    }
  }
}
