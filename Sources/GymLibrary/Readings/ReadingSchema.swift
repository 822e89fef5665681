import GymCore

/// Readings: each time a work was read (or is being read, or was put down), with its own dates and
/// progress. The entry keeps what belongs to the book itself: its shelf (status), tags, rating,
/// review, copies. Definitions: Docs/Library/Readings.md.
enum ReadingSchema {
  static let statuses = ["reading", "read", "abandoned"]

  static let readings = TableSchema(
    name: "reading",
    fields: [
      Field("id", .integer), Field("workId", .integer), Field("started", .text, nullable: true),
      Field("finished", .text, nullable: true), Field("status", .enumeration(statuses)),
      Field("pages", .integer, nullable: true), Field("percent", .real, nullable: true),
    ],
    indexes: [
      IndexSchema("reading_work", on: ["workId", "status", "finished"]),
      IndexSchema("reading_finished", on: ["status", "finished", "workId"]),
    ],
    defaultSort: [SortKey("id", descending: true)])

  /// The readings list (`library_readings`, a view): each reading with its work's title.
  static let list = TableSchema(
    name: "library_readings",
    fields: [
      Field("id", .integer), Field("workId", .integer), Field("title", .text), Field("status", .enumeration(statuses)),
      Field("started", .text, nullable: true), Field("finished", .text, nullable: true),
      Field("pages", .integer, nullable: true), Field("percent", .real, nullable: true),
    ],
    indexes: [], defaultSort: [SortKey("id", descending: true)], rowKey: "id")

  /// `library/003`: the reading table, filled from the entries, which lose their dates and read count
  /// (rebuilt, and their rating a number of stars, as StoryGraph rates: 3.75). Nothing is lost:
  /// - dates SQLite can read (`2024/01/02`, `2024-01-02 10:00`) are made `YYYY-MM-DD`, others kept as written;
  /// - an entry with a finish date becomes a read reading (abandoned on the abandoned shelf) with its dates;
  ///   on the reading shelf it is being read again besides: a reading in progress, from the start date when
  ///   that comes after the finish;
  /// - one with a start date alone becomes a reading in progress on the reading shelf, a read one on the read
  ///   shelf, else an abandoned one (started, not finished, not being read);
  /// - one on the reading or abandoned shelf without dates, one undated reading of that status;
  /// - reads the dated reading does not account for (`readCount` above it, at most 10,000; at least one on the
  ///   read shelf) become undated read readings.
  static let migration = Migration(
    "library/003-readings", .custom, touches: ["reading", "library_list"],
    sql: """
      CREATE TABLE reading (
        id INTEGER PRIMARY KEY,
        workId INTEGER NOT NULL REFERENCES work(id) ON DELETE CASCADE,
        started TEXT,
        finished TEXT,
        status TEXT NOT NULL CHECK (status IN ('reading', 'read', 'abandoned')),
        pages INTEGER CHECK (pages IS NULL OR pages >= 0),
        percent REAL CHECK (percent IS NULL OR (percent >= 0 AND percent <= 100)),
        CHECK (status <> 'reading' OR finished IS NULL)
      );
      CREATE INDEX reading_work ON reading(workId, status, finished);
      CREATE INDEX reading_finished ON reading(status, finished, workId);
      CREATE TEMP TABLE entry_dates AS
      SELECT workId, readingStatus AS shelf, readCount,
        CASE WHEN dateStarted IS NULL THEN NULL
          ELSE coalesce(date(replace(trim(dateStarted), '/', '-')), dateStarted) END AS s,
        CASE WHEN dateFinished IS NULL THEN NULL
          ELSE coalesce(date(replace(trim(dateFinished), '/', '-')), dateFinished) END AS f
      FROM library_entry;
      INSERT INTO reading (workId, started, finished, status)
      SELECT workId, CASE WHEN shelf = 'reading' AND f IS NOT NULL AND s > f THEN NULL ELSE s END, f,
        CASE WHEN f IS NOT NULL THEN CASE WHEN shelf = 'abandoned' THEN 'abandoned' ELSE 'read' END
          WHEN shelf IN ('reading', 'read') THEN shelf ELSE 'abandoned' END
      FROM entry_dates WHERE s IS NOT NULL OR f IS NOT NULL OR shelf IN ('reading', 'abandoned')
      ORDER BY workId;
      INSERT INTO reading (workId, started, status)
      SELECT workId, CASE WHEN s > f THEN s END, 'reading' FROM entry_dates
      WHERE shelf = 'reading' AND f IS NOT NULL ORDER BY workId;
      WITH RECURSIVE missing(workId, n) AS (
        SELECT e.workId,
          min(max(e.readCount, CASE WHEN e.shelf = 'read' THEN 1 ELSE 0 END), 10000)
            - (SELECT COUNT(*) FROM reading r WHERE r.workId = e.workId AND r.status = 'read')
        FROM entry_dates e
        UNION ALL
        SELECT workId, n - 1 FROM missing WHERE n > 1
      )
      INSERT INTO reading (workId, status) SELECT workId, 'read' FROM missing WHERE n > 0 ORDER BY workId;
      DROP TABLE entry_dates;
      DROP VIEW library_list;
      CREATE TABLE library_entry_new (
        id INTEGER PRIMARY KEY,
        workId INTEGER NOT NULL REFERENCES work(id) ON DELETE CASCADE,
        readingStatus TEXT NOT NULL DEFAULT 'toRead' CHECK (readingStatus IN ('toRead', 'reading', 'read', 'abandoned')),
        rating REAL CHECK (rating IS NULL OR (rating > 0 AND rating <= 5)),
        dateAdded TEXT,
        review TEXT,
        ownedCopies INTEGER NOT NULL DEFAULT 0 CHECK (ownedCopies >= 0),
        shelves TEXT
      );
      INSERT INTO library_entry_new (id, workId, readingStatus, rating, dateAdded, review, ownedCopies, shelves)
      SELECT id, workId, readingStatus, rating, dateAdded, review, ownedCopies, shelves FROM library_entry;
      DROP TABLE library_entry;
      ALTER TABLE library_entry_new RENAME TO library_entry;
      CREATE UNIQUE INDEX library_entry_work ON library_entry(workId);
      CREATE INDEX library_entry_status ON library_entry(readingStatus);
      CREATE VIEW library_list AS
      SELECT w.id AS id, w.title AS title,
        (SELECT group_concat(a.name, ', ') FROM work_author wa JOIN author a ON a.id = wa.authorId
          WHERE wa.workId = w.id) AS authors,
        e.readingStatus AS status, e.rating AS rating, w.coverImageURL AS coverImageURL, w.subtitle AS subtitle,
        w.series AS series, w.seriesPosition AS seriesPosition, w.reviewStatus AS reviewStatus,
        w.originalLanguage AS originalLanguage, w.firstPublished AS firstPublished, w.lastModified AS lastModified,
        e.dateAdded AS dateAdded,
        (SELECT started FROM reading r WHERE r.workId = w.id ORDER BY r.status = 'reading' DESC,
          coalesce(r.finished, r.started) DESC, r.id DESC LIMIT 1) AS dateStarted,
        (SELECT MAX(finished) FROM reading r WHERE r.workId = w.id AND r.status = 'read') AS dateFinished,
        (SELECT COUNT(*) FROM reading r WHERE r.workId = w.id AND r.status = 'read') AS readCount,
        e.ownedCopies AS ownedCopies, e.shelves AS shelves,
        (SELECT coalesce(isbn13, isbn10) FROM edition WHERE workId = w.id AND coalesce(isbn13, isbn10) IS NOT NULL
          ORDER BY id LIMIT 1) AS isbn
      FROM work w LEFT JOIN library_entry e ON e.workId = w.id;
      CREATE VIEW library_readings AS
      SELECT r.id AS id, r.workId AS workId, w.title AS title, r.status AS status, r.started AS started,
        r.finished AS finished, r.pages AS pages, r.percent AS percent
      FROM reading r JOIN work w ON w.id = r.workId;
      """)
}
