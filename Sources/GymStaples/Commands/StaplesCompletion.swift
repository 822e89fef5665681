import GymCLI

/// What the shell completes for staples commands: item and recipe names and categories, matched
/// without regard to case as the commands match them (a pantry is small: a scan is quick).
enum StaplesCompletion {
  static func names(_ column: String, of table: String, _ words: [String], _ prefix: String) -> [String] {
    DynamicCompletion.values(
      words,
      sql: """
        SELECT DISTINCT \(column) FROM \(table) WHERE lower(substr(\(column), 1, length(?1))) = lower(?1)
        ORDER BY \(column) LIMIT ?2
        """, prefix: prefix)
  }

  @Sendable static func itemNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    names("name", of: "grocery_item", words, prefix)
  }

  @Sendable static func recipeNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    names("name", of: "recipe", words, prefix)
  }

  @Sendable static func categories(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    names("category", of: "grocery_item", words, prefix)
  }
}
