import GRDB
import GymCore

/// A bulk load into an empty library builds the full-text index once, after the rows, instead of
/// through the triggers row by row (which cost about 60% of a Goodreads import). Inside the
/// import's transaction: the triggers are dropped, the rows loaded, the index filled in one
/// statement, and the triggers recreated from their own text, so the schema is exactly what it was
/// (and a failed import rolls all of it back).
struct SearchIndexDeferral {
  private let triggers: [String]

  /// Defers the index when the library has no work yet; nil otherwise (the triggers keep it).
  init?(_ db: Database) throws {
    guard try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM work)") == true else { return nil }
    let found = try Row.fetchAll(
      db,
      sql:
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'work\\_search\\_%' ESCAPE '\\' ORDER BY rowid"
    )
    guard !found.isEmpty else { return nil }
    for trigger in found { try db.execute(sql: "DROP TRIGGER \(SQL.quote(trigger["name"] as String))") }
    triggers = found.map { $0["sql"] }
  }

  /// Fills the index from the works and their authors in order, through the triggers' own author
  /// query, and
  /// recreates the triggers.
  func finish(_ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO work_search (rowid, title, series, authors)
        SELECT w.id, w.title, w.series, coalesce((\(LibrarySchema.authorNames("w.id"))), '')
        FROM work w ORDER BY w.id
        """)
    for sql in triggers { try db.execute(sql: sql) }
  }
}
