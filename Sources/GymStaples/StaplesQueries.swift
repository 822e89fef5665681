import GRDB
import GymCLI
import GymCore

/// The reads behind `staples`: lists through the shared query layer, the rest in SQL.
enum StaplesQueries {
  /// The staples (or all items) of a category, sorted by category then name.
  static func itemFilters(category: String?, all: Bool) -> [RecordFilter] {
    // Both values when --all: the compound index (isStaple, category, …) then still applies.
    var filters: [RecordFilter] = [
      all ? .isIn("isStaple", [.bool(false), .bool(true)]) : .compare("isStaple", .equal, .bool(true))
    ]
    if let category { filters.append(.compare("category", .equal, .text(category))) }
    return filters
  }

  /// Checks that `category` exists (case-insensitively); else an error naming the nearest ones.
  static func checkCategory(_ db: Database, _ category: String) throws {
    let exists = try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM grocery_item WHERE isStaple IN (0, 1) AND category = ?)",
      arguments: [category])!
    guard !exists else { return }
    let known = try String.fetchAll(db, sql: "SELECT DISTINCT category FROM grocery_item ORDER BY category")
    let nearest = Suggestions.nearest(to: category, in: known, count: 3)
    let hint =
      nearest.isEmpty
      ? "; there are no items yet (gym staples add, or gym staples seed)"
      : "; did you mean \(nearest.map { "'\($0)'" }.joined(separator: ", "))?"
    throw GymError.noInput("no category '\(category)'\(hint)")
  }

  /// Each category with its number of items and of staples.
  static func categories(_ db: Database) throws -> [[Cell]] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT category, COUNT(*), TOTAL(isStaple) FROM grocery_item WHERE isStaple IN (0, 1)
        GROUP BY category ORDER BY category
        """
    ).map { [.text($0[0]), .integer($0[1]), .integer(Int64($0[2] as Double))] }
  }

  /// The ingredients of a recipe, with whether each is in stock.
  static func ingredients(_ db: Database, recipe: String) throws -> [[Cell]] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT grocery_item.name, grocery_item.category, ri.amount, ri.unit,
               COALESCE((SELECT sum(l.amount) FROM stock_lot l WHERE l.itemSeq = grocery_item.seq), 0) > 0
        FROM recipe_ingredient ri
        JOIN recipe ON recipe.seq = ri.recipeSeq
        JOIN grocery_item ON grocery_item.seq = ri.itemSeq
        WHERE recipe.name = ? ORDER BY grocery_item.category, grocery_item.name
        """, arguments: [recipe]
    ).map { row in
      [
        .text(row[0]), .text(row[1]), (row[2] as Double?).map(Cell.real) ?? .null,
        (row[3] as String?).map(Cell.text) ?? .null, .bool(row[4]),
      ]
    }
  }

}
