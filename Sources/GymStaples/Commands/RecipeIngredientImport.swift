import GRDB
import GymCLI
import GymCore

/// The ingredients a recipe record carries as `recipe show --format json` prints them: a recipe
/// whose record names `ingredients` ends up with exactly those lines (an item that is not in the
/// pantry yet is added in the record's category); one without the field keeps its own. Recipes are
/// few: the lines are held until the recipes are in, then written in the same transaction.
final class RecipeIngredientImport: NestedRecordImport {
  let fieldName = "ingredients"
  let fieldNames = RecipeCommand.Show.ingredientFields
  private var given: [(recipe: String, lines: [(item: String, category: String?, amount: Double?, unit: String?)])] = []
  /// Recipes whose lines the import changed.
  private(set) var changedRecipes = 0

  func prepare(_ db: Database?) throws {}

  func stage(_ records: [RecordValues], of parent: RecordValues, line: Int) throws {
    guard let nameIndex = parent.fieldNames.firstIndex(of: "name"), parent.kinds[nameIndex] == .string else {
      throw InputError(line: line, message: "a recipe with ingredients needs its name")
    }
    let entries = try records.map { record throws(InputError) in
      let row = try ImportRow(values: record, line: line)
      var amount: Double?
      if let i = record.fieldNames.firstIndex(of: "amount"), record.kinds[i] == .number || record.kinds[i] == .string {
        guard let value = DecimalNumber.parse(record.string(i)), value >= 0, value < PantryAmount.limit else {
          throw row.fail("amount", record.string(i), expected: "an amount (a number, 0 or more)")
        }
        amount = value
      }
      return (item: try row.required("item"), category: row.text("category"), amount: amount, unit: row.text("unit"))
    }
    given.append((parent.string(nameIndex).trimmed, entries))
  }

  func finish(_ db: Database?) throws {
    guard let db else { return }
    let now = Timestamp.now()
    for (recipe, entries) in given {
      guard let seq = try Int64.fetchOne(db, sql: "SELECT seq FROM recipe WHERE name = ?", arguments: [recipe]) else {
        continue
      }
      let current = try Row.fetchAll(
        db,
        sql: """
          SELECT grocery_item.name, ri.amount, ri.unit FROM recipe_ingredient ri
          JOIN grocery_item ON grocery_item.seq = ri.itemSeq WHERE ri.recipeSeq = ? ORDER BY grocery_item.name
          """, arguments: [seq]
      ).map { "\($0[0] as String)|\(($0[1] as Double?).map { String($0) } ?? "")|\(($0[2] as String?) ?? "")" }.sorted()
      let wanted = entries.map { "\($0.item)|\($0.amount.map { String($0) } ?? "")|\($0.unit ?? "")" }.sorted()
      guard current != wanted else { continue }
      changedRecipes += 1
      try db.execute(sql: "DELETE FROM recipe_ingredient WHERE recipeSeq = ?", arguments: [seq])
      for entry in entries {
        if try !Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM grocery_item WHERE name = ?)", arguments: [entry.item])!
        {
          try StaplesWrites.upsertItem(
            db, name: entry.item, changes: ItemChanges(category: entry.category ?? "Uncategorized"), now: now)
        }
        try db.execute(
          sql: """
            INSERT INTO recipe_ingredient (recipeSeq, itemSeq, amount, unit)
            SELECT ?, seq, ?, ? FROM grocery_item WHERE name = ?
            ON CONFLICT(recipeSeq, itemSeq) DO UPDATE SET amount = excluded.amount, unit = excluded.unit
            """, arguments: [seq, entry.amount, entry.unit, entry.item])
      }
    }
  }
}
