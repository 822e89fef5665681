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
  /// (rebuilt, and their rating a number of quarter stars, as StoryGraph rates: 3.75).
  /// - An entry with a start or finish date becomes one reading with those dates: read when finished,
  ///   else abandoned when the entry says so, else being read.
  /// - An entry being read or abandoned without dates becomes one undated reading of that status.
  /// - Reads the dated reading does not account for (`readCount` above it; at least one for an entry
  ///   on the read shelf) become undated readings.
  static let migration = Migration(
    "library/003-readings", .custom, touches: ["reading", "library_list"],
    sql: """
      CREATE TABLE reading (
        id INTEGER PRIMARY KEY,
        workId INTEGER NOT NULL REFERENCES work(id) ON DELETE CASCADE,
        started TEXT CHECK (started IS NULL OR started GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        finished TEXT CHECK (finished IS NULL OR finished GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        status TEXT NOT NULL CHECK (status IN ('reading', 'read', 'abandoned')),
        pages INTEGER CHECK (pages IS NULL OR pages >= 0),
        percent REAL CHECK (percent IS NULL OR (percent >= 0 AND percent <= 100)),
        CHECK (status <> 'reading' OR finished IS NULL)
      );
      CREATE INDEX reading_work ON reading(workId, status, finished);
      CREATE INDEX reading_finished ON reading(status, finished, workId);
      INSERT INTO reading (workId, started, finished, status)
      SELECT workId, dateStarted, dateFinished,
        CASE WHEN dateFinished IS NOT NULL THEN 'read' WHEN readingStatus = 'abandoned' THEN 'abandoned'
          ELSE 'reading' END
      FROM library_entry WHERE dateStarted IS NOT NULL OR dateFinished IS NOT NULL
        OR readingStatus IN ('reading', 'abandoned')
      ORDER BY workId;
      WITH RECURSIVE missing(workId, n) AS (
        SELECT e.workId,
          max(e.readCount, CASE WHEN e.readingStatus = 'read' THEN 1 ELSE 0 END)
            - (SELECT COUNT(*) FROM reading r WHERE r.workId = e.workId AND r.status = 'read')
        FROM library_entry e
        UNION ALL
        SELECT workId, n - 1 FROM missing WHERE n > 1
      )
      INSERT INTO reading (workId, status) SELECT workId, 'read' FROM missing WHERE n > 0 ORDER BY workId;
      DROP VIEW library_list;
      CREATE TABLE library_entry_new (
        id INTEGER PRIMARY KEY,
        workId INTEGER NOT NULL REFERENCES work(id) ON DELETE CASCADE,
        readingStatus TEXT NOT NULL DEFAULT 'toRead' CHECK (readingStatus IN ('toRead', 'reading', 'read', 'abandoned')),
        rating REAL CHECK (rating IS NULL OR (rating >= 0.25 AND rating <= 5 AND rating * 4 = CAST(rating * 4 AS INTEGER))),
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
