import GRDB
import GymCLI
import GymCore

/// A book library (seed 001): works, their authors (many-to-many, ordered), editions, the
/// reader's entry for each work (its shelf, tags, rating, review) and its readings (`ReadingSchema`).
///
/// Delete rules: deleting a work deletes its editions, its entry and its author links (CASCADE);
/// an author cannot be deleted while a work names them (RESTRICT), and is deleted with the last
/// link that names them (trigger `work_author_orphan`): authors live exactly as long as they are
/// referenced.
public enum LibrarySchema {
  public static let statuses = ["toRead", "reading", "read", "abandoned"]
  public static let reviewStatuses = ["verified", "needsReview", "userEdited"]

  public static let works = TableSchema(
    name: "work",
    fields: [
      Field("id", .integer), Field("goodreadsId", .integer, nullable: true), Field("title", .text),
      Field("subtitle", .text, nullable: true), Field("series", .text, nullable: true),
      Field("seriesPosition", .text, nullable: true), Field("coverImageURL", .text, nullable: true),
      Field("reviewStatus", .enumeration(reviewStatuses)), Field("originalLanguage", .text, nullable: true),
      Field("firstPublished", .integer, nullable: true), Field("lastModified", .timestamp),
    ],
    indexes: [
      IndexSchema("work_goodreads", on: ["goodreadsId"], unique: true),
      IndexSchema("work_lastModified", on: ["lastModified"]),
      IndexSchema("work_title", on: ["title"]),
    ],
    defaultSort: [SortKey("lastModified", descending: true)])

  public static let authors = TableSchema(
    name: "author",
    fields: [Field("id", .integer), Field("name", .text), Field("sortName", .text)],
    indexes: [
      IndexSchema("author_name", on: ["name"], unique: true), IndexSchema("author_sortName", on: ["sortName"]),
    ],
    defaultSort: [SortKey("sortName")])

  public static let workAuthors = TableSchema(
    name: "work_author",
    fields: [Field("workId", .integer), Field("authorId", .integer), Field("position", .integer)],
    indexes: [
      IndexSchema("work_author_position", on: ["workId", "position", "authorId"], unique: true),
      IndexSchema("work_author_author", on: ["authorId", "workId"], unique: true),
    ],
    defaultSort: [SortKey("workId"), SortKey("position")])

  public static let editions = TableSchema(
    name: "edition",
    fields: [
      Field("id", .integer), Field("workId", .integer), Field("isbn10", .text, nullable: true),
      Field("isbn13", .text, nullable: true), Field("publisher", .text, nullable: true),
      Field("binding", .text, nullable: true), Field("pageCount", .integer, nullable: true),
      Field("year", .integer, nullable: true), Field("source", .text, nullable: true),
    ],
    indexes: [
      IndexSchema("edition_work", on: ["workId"]), IndexSchema("edition_isbn13", on: ["isbn13"]),
      IndexSchema("edition_isbn10", on: ["isbn10"]), IndexSchema("edition_goodreads", on: ["workId"], unique: true),
    ],
    defaultSort: [SortKey("workId")])

  public static let entries = TableSchema(
    name: "library_entry",
    fields: [
      Field("id", .integer), Field("workId", .integer), Field("readingStatus", .enumeration(statuses)),
      Field("rating", .real, nullable: true), Field("dateAdded", .text, nullable: true),
      Field("review", .text, nullable: true), Field("ownedCopies", .integer), Field("shelves", .text, nullable: true),
    ],
    indexes: [
      IndexSchema("library_entry_work", on: ["workId"], unique: true),
      IndexSchema("library_entry_status", on: ["readingStatus"]),
    ],
    defaultSort: [SortKey("workId")])

  /// The list view (`library_list`, a SQL view): a work with its authors in order, its entry and
  /// its first ISBN. SQLite computes only the columns a query selects, so a list of titles never
  /// runs the authors subquery, and the view's join to the entry is dropped when unused.
  public static let list = TableSchema(
    name: "library_list",
    fields: [
      Field("id", .integer), Field("title", .text), Field("authors", .text, nullable: true),
      Field("status", .enumeration(statuses), nullable: true), Field("rating", .real, nullable: true),
      Field("coverImageURL", .text, nullable: true), Field("subtitle", .text, nullable: true),
      Field("series", .text, nullable: true), Field("seriesPosition", .text, nullable: true),
      Field("reviewStatus", .enumeration(reviewStatuses)), Field("originalLanguage", .text, nullable: true),
      Field("firstPublished", .integer, nullable: true), Field("lastModified", .timestamp),
      Field("dateAdded", .text, nullable: true), Field("dateStarted", .text, nullable: true),
      Field("dateFinished", .text, nullable: true), Field("readCount", .integer, nullable: true),
      Field("ownedCopies", .integer, nullable: true), Field("shelves", .text, nullable: true),
      Field("isbn", .text, nullable: true),
    ],
    indexes: [],
    defaultSort: [SortKey("lastModified", descending: true)],
    rowKey: "id")

  /// The authors list (`library_authors`, a view): each author and how many works name them.
  public static let authorsList = TableSchema(
    name: "library_authors",
    fields: [Field("id", .integer), Field("name", .text), Field("sortName", .text), Field("works", .integer)],
    indexes: [], defaultSort: [SortKey("sortName")], rowKey: "id")

  /// What `gym library list` shows unless `--fields` says otherwise.
  public static let listFields = ["id", "title", "authors", "status", "rating", "coverImageURL"]

  /// Released migrations: never edit one; add the next.
  static let migrations = [
    Migration("library/001-works-authors-editions-entries", .additive, sql: tablesSQL + "\n" + searchSQL),
    // Authors as a list like any other (--where, --sort, --fields, cursors): a view, so nothing is
    // copied and the count stays true whatever writes the tables.
    Migration(
      "library/002-authors-view", .additive,
      sql: """
        CREATE VIEW library_authors AS
        SELECT a.id AS id, a.name AS name, a.sortName AS sortName,
          (SELECT COUNT(*) FROM work_author wa WHERE wa.authorId = a.id) AS works
        FROM author a;
        """),
    ReadingSchema.migration, ReadingGoal.migration, ReadingFigures.migration, LibraryKeys.migration,
  ]

  private static let tablesSQL = """
    CREATE TABLE work (
      id INTEGER PRIMARY KEY,
      goodreadsId INTEGER,
      title TEXT NOT NULL CHECK (trim(title) <> ''),
      subtitle TEXT,
      series TEXT,
      seriesPosition TEXT,
      coverImageURL TEXT,
      reviewStatus TEXT NOT NULL DEFAULT 'verified' CHECK (reviewStatus IN ('verified', 'needsReview', 'userEdited')),
      originalLanguage TEXT,
      firstPublished INTEGER,
      lastModified TEXT NOT NULL
    );
    CREATE UNIQUE INDEX work_goodreads ON work(goodreadsId) WHERE goodreadsId IS NOT NULL;
    CREATE INDEX work_lastModified ON work(lastModified);
    CREATE INDEX work_title ON work(title COLLATE NOCASE);
    CREATE TABLE author (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL COLLATE NOCASE CHECK (trim(name) <> ''),
      sortName TEXT NOT NULL COLLATE NOCASE
    );
    CREATE UNIQUE INDEX author_name ON author(name);
    CREATE INDEX author_sortName ON author(sortName);
    CREATE TABLE work_author (
      id INTEGER PRIMARY KEY,
      workId INTEGER NOT NULL REFERENCES work(id) ON DELETE CASCADE,
      authorId INTEGER NOT NULL REFERENCES author(id) ON DELETE RESTRICT,
      position INTEGER NOT NULL CHECK (position >= 0)
    );
    CREATE UNIQUE INDEX work_author_position ON work_author(workId, position, authorId);
    CREATE UNIQUE INDEX work_author_author ON work_author(authorId, workId);
    CREATE TRIGGER work_author_orphan AFTER DELETE ON work_author
      WHEN NOT EXISTS (SELECT 1 FROM work_author WHERE authorId = old.authorId)
    BEGIN
      DELETE FROM author WHERE id = old.authorId;
    END;
    CREATE TABLE edition (
      id INTEGER PRIMARY KEY,
      workId INTEGER NOT NULL REFERENCES work(id) ON DELETE CASCADE,
      isbn10 TEXT CHECK (isbn10 IS NULL OR length(isbn10) = 10),
      isbn13 TEXT CHECK (isbn13 IS NULL OR length(isbn13) = 13),
      publisher TEXT,
      binding TEXT,
      pageCount INTEGER CHECK (pageCount IS NULL OR pageCount >= 0),
      year INTEGER,
      source TEXT
    );
    CREATE INDEX edition_work ON edition(workId);
    CREATE INDEX edition_isbn13 ON edition(isbn13) WHERE isbn13 IS NOT NULL;
    CREATE INDEX edition_isbn10 ON edition(isbn10) WHERE isbn10 IS NOT NULL;
    CREATE UNIQUE INDEX edition_goodreads ON edition(workId) WHERE source = 'goodreads';
    CREATE TABLE library_entry (
      id INTEGER PRIMARY KEY,
      workId INTEGER NOT NULL REFERENCES work(id) ON DELETE CASCADE,
      readingStatus TEXT NOT NULL DEFAULT 'toRead' CHECK (readingStatus IN ('toRead', 'reading', 'read', 'abandoned')),
      rating INTEGER CHECK (rating IS NULL OR rating BETWEEN 1 AND 5),
      dateAdded TEXT,
      dateStarted TEXT,
      dateFinished TEXT,
      review TEXT,
      readCount INTEGER NOT NULL DEFAULT 0 CHECK (readCount >= 0),
      ownedCopies INTEGER NOT NULL DEFAULT 0 CHECK (ownedCopies >= 0),
      shelves TEXT
    );
    CREATE UNIQUE INDEX library_entry_work ON library_entry(workId);
    CREATE INDEX library_entry_status ON library_entry(readingStatus);
    CREATE VIEW library_list AS
    SELECT w.id AS id, w.title AS title,
      (SELECT group_concat(a.name, ', ') FROM work_author wa JOIN author a ON a.id = wa.authorId
        WHERE wa.workId = w.id) AS authors,
      e.readingStatus AS status, e.rating AS rating, w.coverImageURL AS coverImageURL, w.subtitle AS subtitle,
      w.series AS series, w.seriesPosition AS seriesPosition, w.reviewStatus AS reviewStatus,
      w.originalLanguage AS originalLanguage, w.firstPublished AS firstPublished, w.lastModified AS lastModified,
      e.dateAdded AS dateAdded, e.dateStarted AS dateStarted, e.dateFinished AS dateFinished,
      e.readCount AS readCount, e.ownedCopies AS ownedCopies, e.shelves AS shelves,
      (SELECT coalesce(isbn13, isbn10) FROM edition WHERE workId = w.id AND coalesce(isbn13, isbn10) IS NOT NULL
        ORDER BY id LIMIT 1) AS isbn
    FROM work w LEFT JOIN library_entry e ON e.workId = w.id;
    """

  /// Full-text search over titles, series and author names, kept in step by triggers: whatever
  /// writes the tables (gym, an import, the sqlite3 shell) keeps the index right.
  private static let searchSQL = """
    CREATE VIRTUAL TABLE work_search USING fts5(title, series, authors, tokenize = 'unicode61 remove_diacritics 2');
    CREATE TRIGGER work_search_insert AFTER INSERT ON work BEGIN
      INSERT INTO work_search(rowid, title, series, authors) VALUES (new.id, new.title, new.series, '');
    END;
    CREATE TRIGGER work_search_update AFTER UPDATE OF title, series ON work BEGIN
      UPDATE work_search SET title = new.title, series = new.series WHERE rowid = new.id;
    END;
    CREATE TRIGGER work_search_delete AFTER DELETE ON work BEGIN
      DELETE FROM work_search WHERE rowid = old.id;
    END;
    CREATE TRIGGER work_search_link AFTER INSERT ON work_author BEGIN
      UPDATE work_search SET authors = (\(authorNames("new.workId"))) WHERE rowid = new.workId;
    END;
    CREATE TRIGGER work_search_unlink AFTER DELETE ON work_author BEGIN
      UPDATE work_search SET authors = coalesce((\(authorNames("old.workId"))), '') WHERE rowid = old.workId;
    END;
    CREATE TRIGGER work_search_relink AFTER UPDATE OF position ON work_author BEGIN
      UPDATE work_search SET authors = (\(authorNames("new.workId"))) WHERE rowid = new.workId;
    END;
    CREATE TRIGGER work_search_rename AFTER UPDATE OF name ON author BEGIN
      UPDATE work_search SET authors = (\(authorNames("work_search.rowid")))
      WHERE rowid IN (SELECT workId FROM work_author WHERE authorId = new.id);
    END;
    """

  /// The full-text index as a bulk load into an empty library builds it: once, after the rows,
  /// each work with its authors in order, through the triggers' own author query.
  static let searchIndex = DerivedIndex(
    table: "work_search", source: "work", triggerPrefix: "work_search_",
    fill: """
      INSERT INTO work_search (rowid, title, series, authors)
      SELECT w.id, w.title, w.series, coalesce((\(authorNames("w.id"))), '')
      FROM work w ORDER BY w.id
      """)

  /// A work's author names in their order (the `work_author_position` index walks them so).
  static func authorNames(_ work: String) -> String {
    "SELECT group_concat(a.name, ', ') FROM work_author wa JOIN author a ON a.id = wa.authorId WHERE wa.workId = \(work)"
  }
}

/// The library module as the store and the cross-cutting commands see it.
public let libraryModule = GymModule(
  name: "library", migrations: LibrarySchema.migrations,
  tables: [
    LibrarySchema.works, LibrarySchema.authors, LibrarySchema.workAuthors, LibrarySchema.editions,
    LibrarySchema.entries, ReadingSchema.readings, ReadingGoal.table,
  ],
  benchmarks: LibraryBenchmarks.definition,
  derivedIndexes: [LibrarySchema.searchIndex, ReadingFigures.bookIndex, ReadingFigures.authorIndex],
  syncedTables: LibraryKeys.synced)

/// The module as the executable registers it: the store's part, the `gym library` commands, the report.
public let libraryFeature = FeatureModule(libraryModule, command: LibraryCommand.self, report: libraryReport)
