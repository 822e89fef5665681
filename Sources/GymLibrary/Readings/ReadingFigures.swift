import GymCore

/// What a year in books reads, kept by triggers as the library is written (`library/005`), so
/// `library stats --year` reads only that year's rows instead of looking up three tables for each
/// book (100,000 works, 15,409 books in a year: 117 ms of lookups → one range of one index).
///
/// - `reading_book`: each read reading with a finish day, with its work's page count (its longest
///   edition's), the work's rating and whether an earlier read reading of the work exists (a
///   re-read). Refreshed per work whenever a reading, an edition or the entry of that work changes.
/// - `reading_author_year`: per year (the finish day's) and author, how many of those books are the
///   author's (a book of two authors counts for each), kept by adding and taking away as readings
///   and authorships come and go.
///
/// Neither is exported: both are rebuilt from the tables (a bulk load into an empty library drops
/// the triggers and fills them once after the rows, `DerivedIndexDeferral`). Definitions:
/// Docs/Library/Readings.md, "The year".
enum ReadingFigures {
  /// Whether reading `r` has an earlier read reading of its work: one without a finish day, one
  /// finished before it, or on the same day with a smaller id.
  static func isReread(_ r: String) -> String {
    """
    EXISTS (SELECT 1 FROM reading o WHERE o.workId = \(r).workId AND o.status = 'read' AND o.id <> \(r).id
      AND (o.finished IS NULL OR o.finished < \(r).finished OR (o.finished = \(r).finished AND o.id < \(r).id)))
    """
  }

  /// The rows of `reading_book` for the readings chosen by `condition` (on `r`).
  static func books(where condition: String) -> String {
    """
    INSERT INTO reading_book (readingId, finished, workId, pages, rating, isReread)
    SELECT r.id, r.finished, r.workId, (SELECT MAX(pageCount) FROM edition WHERE workId = r.workId),
      (SELECT rating FROM library_entry WHERE workId = r.workId), \(isReread("r"))
    FROM reading r WHERE r.status = 'read' AND r.finished IS NOT NULL AND \(condition) ORDER BY r.id
    """
  }

  /// Statements that make `reading_book` right again for work `work` (`new.workId`, `old.workId`).
  static func refresh(_ work: String) -> String {
    "DELETE FROM reading_book WHERE workId = \(work);\n  " + books(where: "r.workId = \(work)") + ";"
  }

  /// A finish day's year.
  static func year(_ finished: String) -> String { "CAST(substr(\(finished), 1, 4) AS INTEGER)" }

  /// A finish that falls in the year its first four characters name, as `stats --year` reads a year,
  /// [Y-01-01, Y+1-01-01): a day `YYYY-MM-DD` does; a date kept as written ("2019", "spring") does not.
  static func dated(_ finished: String) -> String {
    "\(finished) >= substr(\(finished), 1, 4) || '-01-01' AND substr(\(finished), 1, 4) GLOB '[0-9][0-9][0-9][0-9]'"
  }

  /// Adds `books` (an SQL expression, per row of `source`) to each (year, author) it names, then
  /// drops the pairs left at none.
  static func add(_ select: String) -> String {
    """
    INSERT INTO reading_author_year (year, authorId, books) \(select)
      ON CONFLICT (year, authorId) DO UPDATE SET books = books + excluded.books;
      DELETE FROM reading_author_year WHERE books <= 0;
    """
  }

  /// The authors' counts a reading (`row`: `new` or `old`) adds (`sign` 1) or takes away (-1).
  static func readingCounts(_ row: String, sign: Int) -> String {
    add(
      """
      SELECT \(year("\(row).finished")), authorId, \(sign) FROM work_author
        WHERE workId = \(row).workId AND \(row).status = 'read' AND \(dated("\(row).finished"))
      """)
  }

  /// The counts an authorship (`row`) adds or takes away: its work's books per year.
  static func authorshipCounts(_ row: String, sign: Int) -> String {
    add(
      """
      SELECT \(year("r.finished")), \(row).authorId, \(sign) * COUNT(*) FROM reading r
        WHERE r.workId = \(row).workId AND r.status = 'read' AND \(dated("r.finished")) GROUP BY 1
      """)
  }

  static let tablesSQL = """
    CREATE TABLE reading_book (
      readingId INTEGER PRIMARY KEY,
      finished TEXT NOT NULL,
      workId INTEGER NOT NULL,
      pages INTEGER,
      rating REAL,
      isReread INTEGER NOT NULL
    );
    CREATE INDEX reading_book_finished ON reading_book(finished, workId, readingId, pages, rating, isReread);
    CREATE INDEX reading_book_work ON reading_book(workId);
    CREATE TABLE reading_author_year (
      year INTEGER NOT NULL,
      authorId INTEGER NOT NULL,
      books INTEGER NOT NULL,
      PRIMARY KEY (year, authorId)
    ) WITHOUT ROWID;
    CREATE INDEX reading_author_year_books ON reading_author_year(year, books);
    """

  /// Three triggers named `<prefix><name>_insert|delete|update` on `table`: `body` of the new row
  /// after an insert, of the old one after a delete, and of both (old first) after an update of
  /// `columns`.
  static func triggers(_ prefix: String, _ name: String, on table: String, columns: String, body: (String) -> String)
    -> String
  {
    """
    CREATE TRIGGER \(prefix)\(name)_insert AFTER INSERT ON \(table) BEGIN
      \(body("new"))
    END;
    CREATE TRIGGER \(prefix)\(name)_delete AFTER DELETE ON \(table) BEGIN
      \(body("old"))
    END;
    CREATE TRIGGER \(prefix)\(name)_update AFTER UPDATE OF \(columns) ON \(table) BEGIN
      \(body("old"))
      \(body("new"))
    END;
    """
  }

  static let bookTriggersSQL = [
    triggers("reading_book_", "reading", on: "reading", columns: "workId, status, finished") {
      refresh("\($0).workId")
    },
    triggers("reading_book_", "edition", on: "edition", columns: "workId, pageCount") { refresh("\($0).workId") },
    triggers("reading_book_", "entry", on: "library_entry", columns: "workId, rating") { refresh("\($0).workId") },
  ].joined(separator: "\n")

  /// A new row adds its counts, an old one takes them away.
  static let authorTriggersSQL = [
    triggers("reading_author_", "reading", on: "reading", columns: "workId, status, finished") {
      readingCounts($0, sign: $0 == "new" ? 1 : -1)
    },
    triggers("reading_author_", "authorship", on: "work_author", columns: "workId, authorId") {
      authorshipCounts($0, sign: $0 == "new" ? 1 : -1)
    },
  ].joined(separator: "\n")

  /// Fills `reading_book` from the tables in one pass.
  static let fillBooks = books(where: "1")

  /// Fills `reading_author_year` from the tables in one pass.
  static let fillAuthors = """
    INSERT INTO reading_author_year (year, authorId, books)
    SELECT \(year("r.finished")), wa.authorId, COUNT(*) FROM reading r JOIN work_author wa ON wa.workId = r.workId
    WHERE r.status = 'read' AND \(dated("r.finished")) GROUP BY 1, 2
    """

  static let bookIndex = DerivedIndex(
    table: "reading_book", source: "reading", triggerPrefix: "reading_book_", fill: fillBooks)
  static let authorIndex = DerivedIndex(
    table: "reading_author_year", source: "reading", triggerPrefix: "reading_author_", fill: fillAuthors)

  /// `library/005`: both tables, filled from the library as it is, and their triggers.
  static let migration = Migration(
    "library/005-reading-year-figures", .additive,
    sql: tablesSQL + "\n" + fillBooks + ";\n" + fillAuthors + ";\n" + bookTriggersSQL + "\n" + authorTriggersSQL)
}
