import GRDB
import GymCLI
import GymCore

/// The library in Goodreads' own 24-column export layout, which Goodreads and the trackers that read
/// its export import: ISBNs as spreadsheet formulas (`="0140449132"`, empty as `=""`), dates
/// `YYYY/MM/DD`, rating 0 for none, the exclusive shelf and the other shelves, the read count.
///
/// What the layout cannot hold is left out (Docs/Library/README.md, Goodreads export): a reading's start date, the
/// finish dates before the last (the read count still counts them), progress, a series not written in
/// the title, subtitle, cover, language. `Average Rating`, `Spoiler`, `Private Notes` and the shelf
/// positions are Goodreads' own and written empty; a work with no Goodreads id has an empty `Book Id`.
enum GoodreadsExport {
  static let columns = [
    "Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating", "Average Rating",
    "Publisher", "Binding", "Number of Pages", "Year Published", "Original Publication Year", "Date Read",
    "Date Added", "Bookshelves", "Bookshelves with positions", "Exclusive Shelf", "My Review", "Spoiler",
    "Private Notes", "Read Count", "Owned Copies",
  ]

  /// Each status's shelf: the inverse of what the import reads.
  static let shelfOfStatus = GoodreadsFormat.shelfOfStatus

  /// One row per work, in id order; the edition is the one an import maintains, else the first.
  static let sql = """
    SELECT w.goodreadsId, w.title,
      (SELECT a.name FROM work_author wa JOIN author a ON a.id = wa.authorId WHERE wa.workId = w.id
        ORDER BY wa.position LIMIT 1) AS author,
      (SELECT a.sortName FROM work_author wa JOIN author a ON a.id = wa.authorId WHERE wa.workId = w.id
        ORDER BY wa.position LIMIT 1) AS authorLF,
      (SELECT group_concat(name, ', ') FROM (SELECT a.name FROM work_author wa JOIN author a ON a.id = wa.authorId
        WHERE wa.workId = w.id ORDER BY wa.position LIMIT -1 OFFSET 1)) AS additional,
      d.isbn10, d.isbn13, e.rating, d.publisher, d.binding, d.pageCount, d.year, w.firstPublished,
      (SELECT MAX(finished) FROM reading WHERE workId = w.id
        AND status = CASE e.readingStatus WHEN 'abandoned' THEN 'abandoned' ELSE 'read' END) AS lastRead,
      e.dateAdded, e.shelves, e.readingStatus, e.review,
      (SELECT COUNT(*) FROM reading WHERE workId = w.id AND status = 'read') AS reads, e.ownedCopies
    FROM work w LEFT JOIN library_entry e ON e.workId = w.id
    LEFT JOIN edition d ON d.id = (SELECT id FROM edition WHERE workId = w.id ORDER BY source IS 'goodreads' DESC, id LIMIT 1)
    ORDER BY w.id
    """

  /// Writes the header and every work; returns how many.
  static func write(_ db: Database, to out: BufferedOutput) throws -> Int {
    var line: [UInt8] = []
    func field(_ text: String?, last: Bool = false) {
      CSVText.append(Array((text ?? "").utf8), to: &line)
      line.append(last ? 10 : 44)
    }
    for (i, name) in columns.enumerated() { field(name, last: i == columns.count - 1) }
    out.write(bytes: line)
    var count = 0
    let rows = try Row.fetchCursor(db, sql: sql)
    while let row = try rows.next() {
      line.removeAll(keepingCapacity: true)
      let status: String = row["readingStatus"] ?? "toRead"
      let shelf = shelfOfStatus[status] ?? "to-read"
      let tags = (row["shelves"] as String?).map { [$0] } ?? []
      let shelves = (status == "toRead" || status == "reading" ? [shelf] : []) + tags
      field((row["goodreadsId"] as Int64?).map(String.init))
      field(row["title"])
      field(row["author"])
      field(row["authorLF"])
      field(row["additional"])
      field("=\"" + ((row["isbn10"] as String?) ?? "") + "\"")
      field("=\"" + ((row["isbn13"] as String?) ?? "") + "\"")
      // Goodreads rates in whole stars (0 is none): a quarter-star rating to the nearest, at least 1.
      field(String((row["rating"] as Double?).map(Stars.whole) ?? 0))
      field(nil)  // Average Rating: Goodreads' own
      field(row["publisher"])
      field(row["binding"])
      field((row["pageCount"] as Int?).map(String.init))
      field((row["year"] as Int?).map(String.init))
      field((row["firstPublished"] as Int?).map(String.init))
      field(slashed(row["lastRead"]))
      field(slashed(row["dateAdded"]))
      field(shelves.joined(separator: ", "))
      field(nil)  // Bookshelves with positions
      field(shelf)
      field(row["review"])
      field(nil)  // Spoiler
      field(nil)  // Private Notes
      // Goodreads counts the read in progress in Read Count, and on a did-not-finish shelf the session
      // its Date Read dates (the day the book was put down), as the import expects.
      let putDown = status == "abandoned" && (row["lastRead"] as String?) != nil
      field(String(((row["reads"] as Int?) ?? 0) + (status == "reading" || putDown ? 1 : 0)))
      field(String((row["ownedCopies"] as Int?) ?? 0), last: true)
      out.write(bytes: line)
      count += 1
    }
    return count
  }

  /// `2024-03-15` → `2024/03/15`.
  static func slashed(_ date: String?) -> String? { date.map { String($0.map { $0 == "-" ? "/" : $0 }) } }
}
