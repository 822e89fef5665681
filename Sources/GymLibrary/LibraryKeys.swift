import GRDB
import GymCore

/// The library's keys, the same on every device (`GlobalKey`), so `gym sync` addresses one row by
/// one key everywhere:
/// - an author: from the name as the table compares it (`COLLATE NOCASE`, ASCII lowered);
/// - a work: from its Goodreads id when it has one, else from its title and its authors' names
///   (lowered, sorted bytewise, joined by U+001F), as `library add` tells a work it has;
/// - an authorship, an entry: from the work (and the author);
/// - an edition: from the work and the source that maintains it (one per source), else from the
///   work and its ISBNs;
/// - a reading: its day (the finish, else the start: days since 1900-01-01, 0 when not a
///   `YYYY-MM-DD` day) in the high bits, so readings still sort by key as they were read, and 36
///   bits of the key of its work, status and dates;
/// - a year's goal: the year (`reading_goal.year` is the table's key).
/// Two different records that would share a key (two undated readings of one work) are told apart
/// by an ordinal (`GlobalKey.firstFree`): the second is keyed from the same parts and "1"; a new
/// reading starts from the number of readings of its work with its status and dates.
enum LibraryKeys {
  static let readingHashMask: Int64 = (1 << 36) - 1
  /// The smallest work id `library import gym` keeps for a new work: a key is below 2^32 once in two
  /// million, an id from a database before keys (1, 2, 3 …) always.
  static let smallestKept: Int64 = 1 << 32

  static func author(_ name: String) -> Int64 { GlobalKey.derived("author", GlobalKey.lowered(name)) }
  static func authorship(work: Int64, author: Int64) -> Int64 {
    GlobalKey.derived("work_author", String(work), String(author))
  }
  static func entry(work: Int64) -> Int64 { GlobalKey.derived("library_entry", String(work)) }

  /// A new work's key: the first free of its parts' keys.
  static func work(_ db: Database, goodreadsId: Int64?, title: String, authors: [String]) throws -> Int64 {
    let parts =
      goodreadsId.map { ["work", "goodreads", String($0)] }
      ?? ["work", GlobalKey.lowered(title), authorList(authors)]
    return try GlobalKey.firstFree(db, table: "work") { GlobalKey.numbered(parts, $0) }
  }

  /// The authors' part of a work's key: what the migration's SQL builds from `work_author`.
  static func authorList(_ names: [String]) -> String {
    Set(names.map(GlobalKey.lowered)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      .joined(separator: "\u{1F}")
  }

  /// A new edition's key: the first free of its parts' keys.
  static func edition(_ db: Database, work: Int64, source: String?, isbn13: String?, isbn10: String?) throws -> Int64 {
    let parts =
      source.map { ["edition", String(work), $0] } ?? ["edition", String(work), "", isbn13 ?? "", isbn10 ?? ""]
    return try GlobalKey.firstFree(db, table: "edition") { GlobalKey.numbered(parts, $0) }
  }

  /// A new reading's key, worked out by `readingKey`'s SQL, which the migration runs too.
  static func reading(_ db: Database, work: Int64, status: String, started: String?, finished: String?) throws
    -> Int64
  {
    let statement = try db.cachedStatement(
      sql: "SELECT " + readingKey(work: "?1", status: "?2", started: "?3", finished: "?4", ordinal: "?5"))
    let same =
      try Int.fetchOne(
        db.cachedStatement(
          sql: "SELECT COUNT(*) FROM reading WHERE workId = ? AND status = ? AND finished IS ? AND started IS ?"),
        arguments: [work, status, finished, started]) ?? 0
    return try GlobalKey.firstFree(db, table: "reading", start: same) { ordinal in
      try Int64.fetchOne(statement, arguments: [work, status, started, finished, ordinal]) ?? 0
    }
  }

  /// `gym_key(parts…)`, with the ordinal as a last part unless it is 0 (`GlobalKey.numbered`).
  static func numberedSQL(_ parts: String, ordinal: String) -> String {
    "CASE WHEN \(ordinal) = 0 THEN gym_key(\(parts)) ELSE gym_key(\(parts), \(ordinal)) END"
  }

  /// The day a date names, as days since 1900-01-01 (0 to 131,071: 17 bits), 0 for anything else.
  static func day(_ date: String) -> String {
    """
    (CASE WHEN substr(\(date), 1, 10) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
      AND date(substr(\(date), 1, 10)) = substr(\(date), 1, 10)
      THEN max(0, min(131071, CAST(julianday(substr(\(date), 1, 10)) - 2415020.5 AS INTEGER))) ELSE 0 END)
    """
  }

  /// A reading's key as SQL over expressions for its work (key), status, dates and ordinal.
  static func readingKey(work: String, status: String, started: String, finished: String, ordinal: String) -> String {
    let parts = "'reading', \(work), \(status), coalesce(\(started), ''), coalesce(\(finished), '')"
    return
      "((\(day("coalesce(\(finished), \(started))")) << 36) | ((\(numberedSQL(parts, ordinal: ordinal))) & \(readingHashMask)))"
  }

  /// `coalesce(new key of <table> for <column>, <column>)` over the temporary map.
  private static func moved(_ table: String, _ column: String) -> String {
    "coalesce((SELECT new FROM library_key WHERE tbl = '\(table)' AND old = \(column)), \(column))"
  }

  /// Gives every row of the library its key and moves what points at it along (migration
  /// `library/006-global-keys`, on a library whose ids were rowids). It is not run again at the first
  /// sync: every path gym writes by gives a row its key, and a second pass would order rows of the
  /// same parts by their keys, not as they were made, and trade their ordinals (and ids).
  static let rekeySQL = """
    CREATE TEMP TABLE library_key (tbl TEXT NOT NULL, old INTEGER NOT NULL, new INTEGER NOT NULL, PRIMARY KEY (tbl, old));
    INSERT INTO library_key SELECT 'author', id, gym_key('author', lower(name)) FROM author;
    WITH parts AS (
      SELECT w.id,
        CASE WHEN w.goodreadsId IS NOT NULL THEN 'goodreads' ELSE lower(w.title) END AS a,
        CASE WHEN w.goodreadsId IS NOT NULL THEN CAST(w.goodreadsId AS TEXT) ELSE coalesce((
          SELECT group_concat(n, char(31)) FROM (
            SELECT DISTINCT lower(au.name) AS n FROM work_author wa JOIN author au ON au.id = wa.authorId
            WHERE wa.workId = w.id ORDER BY 1)), '') END AS b
      FROM work w),
    numbered AS (SELECT id, a, b, ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY id) - 1 AS n FROM parts)
    INSERT INTO library_key SELECT 'work', id, \(numberedSQL("'work', a, b", ordinal: "n")) FROM numbered;
    WITH parts AS (
      SELECT id, \(moved("work", "workId")) AS w, source AS s, coalesce(isbn13, '') AS i13, coalesce(isbn10, '') AS i10
      FROM edition),
    numbered AS (
      SELECT *, ROW_NUMBER() OVER (
        PARTITION BY w, s IS NULL, s, CASE WHEN s IS NULL THEN i13 END, CASE WHEN s IS NULL THEN i10 END ORDER BY id) - 1 AS n
      FROM parts)
    INSERT INTO library_key SELECT 'edition', id, CASE WHEN s IS NOT NULL THEN \(numberedSQL("'edition', w, s", ordinal: "n"))
      ELSE \(numberedSQL("'edition', w, '', i13, i10", ordinal: "n")) END FROM numbered;
    INSERT INTO library_key SELECT 'library_entry', id, gym_key('library_entry', \(moved("work", "workId"))) FROM library_entry;
    INSERT INTO library_key SELECT 'work_author', id,
      gym_key('work_author', \(moved("work", "workId")), \(moved("author", "authorId"))) FROM work_author;
    WITH parts AS (SELECT id, \(moved("work", "workId")) AS w, status, started, finished FROM reading),
    numbered AS (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY w, status, started, finished ORDER BY id) - 1 AS n FROM parts)
    INSERT INTO library_key SELECT 'reading', id,
      \(readingKey(work: "w", status: "status", started: "started", finished: "finished", ordinal: "n")) FROM numbered;
    DELETE FROM library_key WHERE new = old;
    UPDATE work_author SET workId = \(moved("work", "workId")), authorId = \(moved("author", "authorId"));
    UPDATE edition SET workId = \(moved("work", "workId"));
    UPDATE library_entry SET workId = \(moved("work", "workId"));
    UPDATE reading SET workId = \(moved("work", "workId"));
    UPDATE author SET id = \(moved("author", "id")) WHERE id IN (SELECT old FROM library_key WHERE tbl = 'author');
    UPDATE work SET id = \(moved("work", "id")) WHERE id IN (SELECT old FROM library_key WHERE tbl = 'work');
    UPDATE edition SET id = \(moved("edition", "id")) WHERE id IN (SELECT old FROM library_key WHERE tbl = 'edition');
    UPDATE library_entry SET id = \(moved("library_entry", "id"))
      WHERE id IN (SELECT old FROM library_key WHERE tbl = 'library_entry');
    UPDATE work_author SET id = \(moved("work_author", "id"))
      WHERE id IN (SELECT old FROM library_key WHERE tbl = 'work_author');
    UPDATE reading SET id = \(moved("reading", "id")) WHERE id IN (SELECT old FROM library_key WHERE tbl = 'reading');
    DELETE FROM work_search;
    \(LibrarySchema.searchIndex.fill);
    DELETE FROM reading_book;
    \(ReadingFigures.fillBooks);
    DELETE FROM reading_author_year;
    \(ReadingFigures.fillAuthors);
    DROP TABLE temp.library_key;
    """

  /// `sql` run with the year's figures' triggers dropped and made again after it: moving 150,000
  /// authorships would otherwise run their per-row upkeep (a scan of `reading_author_year` each) for
  /// nothing, since `rekeySQL` fills both tables again from the moved rows.
  static func withoutFigureTriggers(_ sql: String) -> String {
    let names = [
      "reading_book_reading", "reading_book_edition", "reading_book_entry", "reading_author_reading",
      "reading_author_authorship",
    ].flatMap { name in ["insert", "delete", "update"].map { "\(name)_\($0)" } }
    return names.map { "DROP TRIGGER \($0);" }.joined(separator: "\n") + "\n" + sql + "\n"
      + ReadingFigures.bookTriggersSQL + "\n" + ReadingFigures.authorTriggersSQL + "\n"
  }

  /// Migration `library/006-global-keys`: every row keyed, and a year's goal keyed by its year.
  static let migration = Migration(
    "library/006-global-keys", .custom,
    touches: [
      "work", "author", "work_author", "edition", "library_entry", "reading", "reading_goal", "work_search",
      "reading_book", "reading_author_year",
    ],
    sql: withoutFigureTriggers(rekeySQL) + """

      CREATE TABLE reading_goal_new (
        year INTEGER PRIMARY KEY CHECK (year BETWEEN 1 AND 9999),
        books INTEGER NOT NULL CHECK (books BETWEEN 1 AND 100000)
      );
      INSERT INTO reading_goal_new (year, books) SELECT year, books FROM reading_goal ORDER BY year;
      DROP TABLE reading_goal;
      ALTER TABLE reading_goal_new RENAME TO reading_goal;
      CREATE UNIQUE INDEX reading_goal_year ON reading_goal(year);
      """)

  /// The tables `gym sync` shares. The full-text index and the year's figures are not: each device's
  /// triggers keep its own from the rows.
  static let synced = [
    SyncedTable("work"), SyncedTable("author"), SyncedTable("work_author"), SyncedTable("edition"),
    SyncedTable("library_entry"), SyncedTable("reading"), SyncedTable("reading_goal"),
  ]
}
