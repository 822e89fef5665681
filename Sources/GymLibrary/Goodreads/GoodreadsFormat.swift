import GymCLI
import GymCore

/// The Goodreads library export (`goodreads_library_export.csv`), read by column name: older
/// files stop at `Owned Copies` (24 columns), newer ones go on to `BCID` (31).
///
/// Its quirks: ISBNs are spreadsheet formulas (`="0140449132"`, empty as `=""`); dates are
/// `YYYY/MM/DD` or blank; `My Rating` 0 means unrated; reviews hold HTML, quotes, commas and line
/// breaks; the series is in the title (`Gideon the Ninth (The Locked Tomb, #1)`); `Additional
/// Authors` is a comma-separated list; `Exclusive Shelf` is read, currently-reading, to-read or a
/// shelf of the user's own; `Read Count` on currently-reading counts the read in progress, and on a
/// did-not-finish shelf with a `Date Read` the session put down.
struct GoodreadsFormat: LibraryExportFormat {
  static let name = "Goodreads"
  static let whereToExport = "export it from My Books → Import and export"
  static let columns = [
    "Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating",
    "Publisher", "Binding", "Number of Pages", "Year Published", "Original Publication Year", "Date Read",
    "Date Added", "Bookshelves", "Exclusive Shelf", "My Review", "Read Count", "Owned Copies",
  ]
  /// Without these the file is not a Goodreads export.
  static let required = [["Book Id"], ["Title"], ["Author"], ["Exclusive Shelf"]]
  /// Goodreads' exclusive shelves, and the did-not-finish shelves people make (Goodreads has none of
  /// its own): `abandoned`, which gym writes for an abandoned book, `did-not-finish`, `dnf`, `dropped`,
  /// `stopped`; any case, as Goodreads keeps the name as typed.
  static let statusOfShelf = [
    "read": "read", "currently-reading": "reading", "to-read": "toRead", "abandoned": "abandoned",
    "did-not-finish": "abandoned", "dnf": "abandoned", "dropped": "abandoned", "stopped": "abandoned",
  ]

  /// The shelf gym writes for each status (the inverse of `statusOfShelf`, one shelf each).
  static let shelfOfStatus = [
    "read": "read", "reading": "currently-reading", "toRead": "to-read", "abandoned": "abandoned",
  ]

  /// A shelf's status, in any case (`DNF`, `Did-Not-Finish`).
  static func status(ofShelf shelf: String) -> String? { statusOfShelf[shelf] ?? statusOfShelf[shelf.lowercased()] }

  static func shelf(_ row: ImportRow) -> String { row.text("Exclusive Shelf") ?? "" }
  static func isOwnShelf(_ shelf: String) -> Bool { status(ofShelf: shelf) != nil }

  /// One row as a book; a bad ISBN is dropped with a warning, anything else wrong is an error.
  static func book(_ row: ImportRow, warn: (String) -> Void) throws(InputError) -> LibraryBook {
    // Blank for a work Goodreads never knew (a file gym wrote): matched by title and authors instead.
    var goodreadsId: Int64?
    if let idText = row.text("Book Id") {
      guard let id = Int64(idText), id > 0 else {
        throw row.fail("Book Id", idText, expected: "a positive whole number")
      }
      goodreadsId = id
    }
    let title = try row.required("Title")
    var book = LibraryBook(goodreadsId: goodreadsId, title: title)
    if let (series, position) = LibraryBook.series(inTitle: title) {
      book.series = series
      book.seriesPosition = position
    }
    var names: [LibraryBook.Author] = []
    if let author = row.name("Author") { names.append(.init(name: author, sortName: row.name("Author l-f"))) }
    for name in (row.name("Additional Authors") ?? "").split(separator: ",").map(\.trimmed) where !name.isEmpty {
      names.append(.init(name: name))
    }
    for author in names where !book.authors.contains(where: { $0.name.lowercased() == author.name.lowercased() }) {
      book.authors.append(author)
    }
    for column in ["ISBN", "ISBN13"] {
      guard let text = row.text(column), let cleaned = ISBN.cleaned(text) else { continue }
      guard let (isbn10, isbn13) = ISBN.parse(cleaned) else {
        warn("column '\(column)': '\(cleaned)' is not a valid ISBN (check digit); imported without it")
        continue
      }
      book.edition.isbn10 = book.edition.isbn10 ?? isbn10
      book.edition.isbn13 = book.edition.isbn13 ?? isbn13
    }
    book.edition.publisher = row.text("Publisher")
    book.edition.binding = row.text("Binding")
    book.edition.pageCount = try row.integer("Number of Pages", in: LibraryBounds.pages.ofInt)
    book.edition.year = try row.integer("Year Published", in: LibraryBounds.year.ofInt)
    book.firstPublished = try row.integer("Original Publication Year", in: -5000...9999)
    let rating = try row.integer("My Rating", in: 0...5) ?? 0
    book.entry.rating = rating == 0 ? nil : Double(rating)
    book.entry.dateFinished = try row.date("Date Read")
    book.entry.dateAdded = try row.date("Date Added")
    let shelf = try row.required("Exclusive Shelf")
    book.entry.status = status(ofShelf: shelf) ?? "toRead"
    var shelves = (row.text("Bookshelves") ?? "").split(separator: ",").map(\.trimmed)
      .filter { !$0.isEmpty && status(ofShelf: $0) == nil }
    if status(ofShelf: shelf) == nil && !shelves.contains(shelf) { shelves.insert(shelf, at: 0) }
    book.entry.shelves = shelves.isEmpty ? nil : shelves.joined(separator: ", ")
    book.entry.review = row.exactText("My Review")
    // Goodreads counts the read in progress: on currently-reading, one of the count is not finished.
    let isReading = book.entry.status == "reading"
    // So is the session a Date Read records on a did-not-finish shelf (the day it was put down):
    // neither is a finished read.
    let putDown = book.entry.status == "abandoned" && book.entry.dateFinished != nil
    let sessions = (isReading ? 1 : 0) + (putDown ? 1 : 0)
    let count = try row.integer("Read Count", in: 0...(Readings.maximumReads + sessions))
    book.entry.readCount = count.map { max(0, $0 - sessions) }
    book.entry.ownedCopies = try row.integer("Owned Copies", in: 0...100_000) ?? 0
    return book
  }
}

extension ImportRow {
  /// `2024/03/15` (or `2024-03-15`) → `2024-03-15`; blank → nil.
  func date(_ column: String) throws(InputError) -> String? {
    guard let text = text(column) else { return nil }
    guard let date = CalendarDay(text)?.text else { throw fail(column, text, expected: "a date (YYYY/MM/DD)") }
    return date
  }
}
