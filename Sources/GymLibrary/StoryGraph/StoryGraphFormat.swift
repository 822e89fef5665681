import GymCLI
import GymCore

/// The StoryGraph library export (Manage Account → Export StoryGraph Library), read by column name.
/// Its layouts: the first wrote `Author` and `ISBN`, then `Authors` (2021), then `ISBN/UID` (2022).
///
/// Its quirks: authors comma-separated in one field; `Contributors` (translators, narrators: not
/// authors) likewise; `ISBN/UID` an ISBN-10 or -13, an ASIN or nothing, and an ISBN that went
/// through a spreadsheet lost its leading zeros; `Read Status` `read`, `currently-reading`, `to-read`,
/// `did-not-finish` (`paused`, by some accounts), or empty; `Dates Read` each reading newest first,
/// `2023/01/05-2023/01/20` or a finish date alone, comma-separated; `Read Count` may exceed the dated
/// readings; `Star Rating` in quarter stars (`3.75`); `Tags` comma-separated; `Owned?` `Yes` or `No`.
/// Definitions: Docs/Library/README.md, StoryGraph import.
enum StoryGraphFormat: LibraryExportFormat {
  static let name = "StoryGraph"
  static let whereToExport = "export it from StoryGraph: Manage Account → Export StoryGraph Library"
  static let columns = [
    "Title", "Authors", "Author", "Contributors", "ISBN/UID", "ISBN", "Format", "Read Status", "Date Added",
    "Last Date Read", "Dates Read", "Read Count", "Star Rating", "Review", "Tags", "Owned?",
  ]
  static let required = [["Title"], ["Authors", "Author"], ["Read Status"]]
  static let statusOfShelf = [
    "read": "read", "currently-reading": "reading", "to-read": "toRead", "did-not-finish": "abandoned",
    "paused": "reading",
  ]

  static func shelf(_ row: ImportRow) -> String { row.text("Read Status") ?? "" }
  static func isOwnShelf(_ shelf: String) -> Bool { shelf.isEmpty || statusOfShelf[shelf] != nil }

  static func book(_ row: ImportRow, warn: (String) -> Void) throws(InputError) -> LibraryBook {
    var book = LibraryBook(title: try row.required("Title"))
    for name in (row.text("Authors") ?? row.text("Author") ?? "").split(separator: ",").map(\.trimmed)
    where !name.isEmpty && !book.authors.contains(where: { $0.name.lowercased() == name.lowercased() }) {
      book.authors.append(.init(name: name))
    }
    if let text = row.text("ISBN/UID") ?? row.text("ISBN") { isbn(text, into: &book.edition, warn: warn) }
    book.edition.binding = row.text("Format")
    book.edition.source = "storygraph"
    let status = row.text("Read Status") ?? ""
    guard let shelf = status.isEmpty ? "toRead" : statusOfShelf[status] else {
      throw row.fail(
        "Read Status", status, expected: "one of " + statusOfShelf.keys.sorted().joined(separator: ", ") + " or empty")
    }
    book.entry.status = shelf
    book.entry.dateAdded = try row.date("Date Added")
    book.entry.readings = try readings(row, status: status, warn: warn)
    if book.entry.readings.isEmpty, let last = try row.date("Last Date Read") {
      book.entry.readings = [.init(finished: last, status: status == "did-not-finish" ? "abandoned" : "read")]
    }
    // The read count counts the readings given and the reads it has no dates for; a did-not-finish
    // reading is in it too, so the reads are what is left.
    if let count = try row.integer("Read Count", in: 0...Readings.maximumReads) {
      book.entry.readCount = max(0, count - book.entry.readings.filter { $0.status == "abandoned" }.count)
    }
    if let stars = row.text("Star Rating") {
      guard let value = DecimalNumber.parse(stars), value == 0 || Stars.isValid(value) else {
        throw row.fail("Star Rating", stars, expected: "a rating from 0.25 to 5 in quarter stars")
      }
      book.entry.rating = value == 0 ? nil : value
    }
    book.entry.review = row.exactText("Review")
    let tags = (row.text("Tags") ?? "").split(separator: ",").map(\.trimmed).filter { !$0.isEmpty }
    book.entry.shelves = tags.isEmpty ? nil : tags.joined(separator: ", ")
    switch row.text("Owned?")?.lowercased() {
    case "yes": book.entry.ownedCopies = 1
    case "no", nil: book.entry.ownedCopies = 0
    case let other?: throw row.fail("Owned?", other, expected: "Yes or No")
    }
    return book
  }

  /// `Dates Read`, newest first: `start-end`, `start-` (in progress), or a finish date alone. The
  /// newest of a did-not-finish book is where it was put down; one still open of a book being read
  /// is the reading in progress.
  ///
  /// StoryGraph accepts a range entered backwards (`2025/04/14-2025/04/04`). When one of its ends is
  /// the book's `Last Date Read`, the reading finished then and its start is unknown; otherwise the
  /// ends are swapped. Either way with a warning.
  static func readings(_ row: ImportRow, status: String, warn: (String) -> Void) throws(InputError)
    -> [LibraryBook.Reading]
  {
    guard let text = row.text("Dates Read") else { return [] }
    var readings: [LibraryBook.Reading] = []
    for (index, part) in text.split(separator: ",").map(\.trimmed).filter({ !$0.isEmpty }).enumerated() {
      let ends = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(\.trimmed)
      func day(_ text: String) throws(InputError) -> String? {
        guard !text.isEmpty else { return nil }
        guard let date = CalendarDay(text)?.text else {
          throw row.fail("Dates Read", part, expected: "dates as YYYY/MM/DD-YYYY/MM/DD or YYYY/MM/DD")
        }
        return date
      }
      var started = ends.count == 2 ? try day(ends[0]) : nil
      var finished = try day(ends.count == 2 ? ends[1] : ends[0])
      if let start = started, let end = finished, start > end {
        if index == 0, let last = try row.date("Last Date Read"), last == start || last == end {
          (started, finished) = (nil, last)
          warn(
            "column 'Dates Read': '\(part)' ends before it starts; read as finished \(last) (its Last Date Read), start unknown"
          )
        } else {
          (started, finished) = (end, start)
          warn("column 'Dates Read': '\(part)' ends before it starts; read as \(end) to \(start)")
        }
      }
      var kind = "read"
      if index == 0 && status == "did-not-finish" {
        kind = "abandoned"
      } else if finished == nil {
        kind = index == 0 && (status == "currently-reading" || status == "paused") ? "reading" : "abandoned"
      }
      readings.append(.init(started: started, finished: finished, status: kind))
    }
    return readings.reversed()  // oldest first, as gym records them
  }

  /// An ISBN-10 or -13; digits a spreadsheet shortened (a lost leading zero) are padded back when the
  /// check digit then holds. An ASIN or StoryGraph's own id is no ISBN: left out without a word.
  static func isbn(_ text: String, into edition: inout LibraryBook.Edition, warn: (String) -> Void) {
    guard let cleaned = ISBN.cleaned(text) else { return }
    var candidates = [cleaned]
    if cleaned.allSatisfy(\.isNumber) {
      for width in [10, 13] where cleaned.count < width && width - cleaned.count <= 2 {
        candidates.append(String(repeating: "0", count: width - cleaned.count) + cleaned)
      }
    }
    guard let parsed = candidates.lazy.compactMap(ISBN.parse).first else {
      if cleaned.allSatisfy({ $0.isNumber || $0 == "X" }) && (9...13).contains(cleaned.count) {
        warn("column 'ISBN/UID': '\(cleaned)' is not a valid ISBN (check digit); imported without it")
      }
      return
    }
    edition.isbn10 = parsed.isbn10
    edition.isbn13 = parsed.isbn13
  }
}
