import GRDB
import GymCore

/// A reading goal per year (Goodreads' reading challenge): books to read that year. A year without
/// one takes `library.goal`, the default for every year.
enum ReadingGoal {
  static let table = TableSchema(
    name: "reading_goal", fields: [Field("year", .integer), Field("books", .integer)],
    indexes: [IndexSchema("reading_goal_year", on: ["year"], unique: true)], defaultSort: [SortKey("year")])

  /// `library/004`: the table, empty; `library.goal` stays the default.
  static let migration = Migration(
    "library/004-reading-goal", .additive,
    sql: """
      CREATE TABLE reading_goal (
        year INTEGER NOT NULL CHECK (year BETWEEN 1 AND 9999),
        books INTEGER NOT NULL CHECK (books BETWEEN 1 AND 100000)
      );
      CREATE UNIQUE INDEX reading_goal_year ON reading_goal(year);
      """)

  static let books = 1...100_000

  /// The year's goal: its own, else the default.
  static func goal(for year: Int, default fallback: Int?, _ db: Database) throws -> Int? {
    try Int.fetchOne(db, sql: "SELECT books FROM reading_goal WHERE year = ?", arguments: [year]) ?? fallback
  }

  static func set(_ books: Int?, year: Int, _ db: Database) throws {
    if let books {
      try db.execute(
        sql: """
          INSERT INTO reading_goal (year, books) VALUES (?, ?)
          ON CONFLICT(year) DO UPDATE SET books = excluded.books WHERE books IS NOT excluded.books
          """, arguments: [year, books])
    } else {
      try db.execute(sql: "DELETE FROM reading_goal WHERE year = ?", arguments: [year])
    }
  }

  /// Every year's own goal, newest first.
  static func all(_ db: Database) throws -> [(year: Int, books: Int)] {
    try Row.fetchAll(db, sql: "SELECT year, books FROM reading_goal ORDER BY year DESC").map { ($0[0], $0[1]) }
  }
}
