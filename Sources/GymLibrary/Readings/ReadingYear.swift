import GRDB
import GymCLI
import GymCore

/// A year in books, from the readings finished in it (definitions: Docs/Library/Readings.md, The year):
/// each read reading finished that year is a book read — a re-read counts again, and is also
/// counted as a re-read; its pages are its work's longest edition's.
struct ReadingYear {
  struct Book {
    let work: Int64
    /// Read only for the longest and the shortest (one statement for the two, not one per book).
    var title = ""
    let finished: String
    let pages: Int?
    let rating: Double?
    let isReread: Bool
  }

  struct Month {
    let month: String
    var books = 0
    var pages = 0
  }

  enum Goal: Equatable {
    /// The current year: books expected by today at an even pace (rounded down), and how many behind.
    case inProgress(goal: Int, expected: Int, behind: Int)
    case reached(goal: Int)
    case missed(goal: Int, by: Int)
    case notStarted(goal: Int)
  }

  let year: Int
  let books: [Book]
  /// Authors by books read that year, most first, then by sort name: the first five.
  let authors: [(name: String, books: Int)]
  var goal: Goal?
  /// Readings put down that year (did not finish): counted apart, never as books read.
  var abandoned = 0

  var months: [Month] {
    var months = (1...12).map { Month(month: "\(year)-" + ($0 < 10 ? "0\($0)" : "\($0)")) }
    for book in books {
      guard let month = Int(book.finished.dropFirst(5).prefix(2)), (1...12).contains(month) else { continue }
      months[month - 1].books += 1
      months[month - 1].pages += book.pages ?? 0
    }
    return months
  }

  var pages: Int { books.reduce(0) { $0 + ($1.pages ?? 0) } }
  var rereads: Int { books.filter(\.isReread).count }
  /// Each work once, with its rating when it has one.
  var ratings: [Double] {
    var seen: Set<Int64> = []
    return books.compactMap { book in seen.insert(book.work).inserted ? book.rating : nil }
  }
  var averageRating: Double? {
    ratings.isEmpty ? nil : (ratings.reduce(0, +) / Double(ratings.count) * 100).rounded() / 100
  }
  /// The longest and shortest book with a known page count; of equal ones, the first finished.
  private(set) var longest: Book?
  private(set) var shortest: Book?

  /// The year's books: one range of `reading_book_finished`, which holds every figure (ReadingFigures).
  static let booksSQL = """
    SELECT workId, finished, pages, rating, isReread FROM reading_book
    WHERE finished >= ?1 AND finished < ?2
    ORDER BY finished, workId, readingId
    """

  /// The five authors with most books that year, then by sort name: the counts are kept per year,
  /// so only the authors tied with the fifth are looked up.
  static let authorsSQL = """
    SELECT a.name, y.books FROM reading_author_year y JOIN author a ON a.id = y.authorId
    WHERE y.year = ?3 AND y.books >= coalesce(
      (SELECT books FROM reading_author_year WHERE year = ?3 ORDER BY books DESC LIMIT 1 OFFSET 4), 0)
    ORDER BY y.books DESC, a.sortName LIMIT 5
    """

  /// The year's figures; `today` (local, `YYYY-MM-DD`) places the goal.
  static func compute(_ db: Database, year: Int, goal: Int?, today: String) throws -> ReadingYear {
    // Finish days are `YYYY-MM-DD`: the year is [1 January, next 1 January).
    let range: StatementArguments = ["\(year.padded(4))-01-01", "\((year + 1).padded(4))-01-01"]
    // A cursor reads each row in place (15,409 books: 19.8 ms as an array of rows, see PerformanceNotes.md).
    var books: [Book] = []
    let rows = try Row.fetchCursor(db, sql: booksSQL, arguments: range)
    while let row = try rows.next() {
      // Pages no import accepts (1e300, text written by another program) are unknown: sums stay numbers.
      books.append(
        Book(
          work: row[0], finished: row[1], pages: row.whole(at: 2, in: 0...1_000_000), rating: row.number(at: 3),
          isReread: row[4] as Bool))
    }
    let authors = try Row.fetchAll(db, sql: authorsSQL, arguments: range + [year]).map {
      (name: $0[0] as String, books: $0[1] as Int)
    }
    var result = ReadingYear(year: year, books: books, authors: authors)
    result.abandoned =
      try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM reading WHERE status = 'abandoned' AND finished >= ? AND finished < ?",
        arguments: range) ?? 0
    let paged = books.filter { $0.pages != nil }
    result.longest = paged.max { ($0.pages!, $1.finished) < ($1.pages!, $0.finished) }
    result.shortest = paged.min { ($0.pages!, $0.finished) < ($1.pages!, $1.finished) }
    let titles = try Self.titles(db, of: [result.longest?.work, result.shortest?.work].compactMap { $0 })
    if let work = result.longest?.work { result.longest?.title = titles[work] ?? "" }
    if let work = result.shortest?.work { result.shortest?.title = titles[work] ?? "" }
    if let goal { result.goal = Self.goal(goal, books: books.count, year: year, today: today) }
    return result
  }

  /// The titles of some works, in one statement (the year's books are read without them).
  static func titles(_ db: Database, of works: [Int64]) throws -> [Int64: String] {
    guard !works.isEmpty else { return [:] }
    let marks = works.map { _ in "?" }.joined(separator: ", ")
    return Dictionary(
      try Row.fetchAll(
        db, sql: "SELECT id, title FROM work WHERE id IN (\(marks))", arguments: StatementArguments(works)
      )
      .map { ($0[0] as Int64, $0[1] as String) }, uniquingKeysWith: { first, _ in first })
  }

  /// Where `books` stands against `goal` for `year`, seen on `today`.
  static func goal(_ goal: Int, books: Int, year: Int, today: String) -> Goal {
    let thisYear = Int(today.prefix(4)) ?? year
    if year < thisYear { return books >= goal ? .reached(goal: goal) : .missed(goal: goal, by: goal - books) }
    if year > thisYear { return .notStarted(goal: goal) }
    if books >= goal { return .reached(goal: goal) }
    let parts = today.split(separator: "-").compactMap { Int64($0) }
    let first = Timestamp.days(year: Int64(year), month: 1, day: 1)
    let days = Timestamp.days(year: Int64(year) + 1, month: 1, day: 1) - first
    // Day of the year, 1 for 1 January.
    let day = parts.count == 3 ? Timestamp.days(year: parts[0], month: parts[1], day: parts[2]) - first + 1 : 1
    let expected = Int(Int64(goal) * day / days)
    return .inProgress(goal: goal, expected: expected, behind: max(0, expected - books))
  }
}

extension Int {
  /// Zero-padded to `width` digits.
  func padded(_ width: Int) -> String {
    let text = String(self)
    return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
  }
}
