import GymCLI

/// A book as it arrives from `gym library add` or an import row: the work, its authors in order,
/// an edition and the reader's entry. nil fields are "not given": an update leaves them alone.
struct LibraryBook: Equatable {
  struct Author: Equatable {
    var name: String
    var sortName: String

    /// `Tamsyn Muir` → `Muir, Tamsyn`: the last word first, as catalogues file names.
    init(name: String, sortName: String? = nil) {
      self.name = name
      // Goodreads writes `Homer, ` for a single name: the dangling comma is not part of it.
      var given = sortName?.trimmed ?? ""
      while given.hasSuffix(",") { given = String(given.dropLast()).trimmed }
      if !given.isEmpty {
        self.sortName = given
      } else if let space = name.lastIndex(of: " ") {
        self.sortName = "\(name[name.index(after: space)...]), \(name[..<space])"
      } else {
        self.sortName = name
      }
    }
  }

  struct Edition: Equatable {
    var isbn10: String?
    var isbn13: String?
    var publisher: String?
    var binding: String?
    var pageCount: Int?
    var year: Int?
    /// Where the edition came from (`goodreads`); the imports that carry it say.
    var source: String?

    /// Whether it says nothing of the edition itself (where it came from aside).
    var isEmpty: Bool { self == Edition(source: source) }
  }

  /// A reading as a source gives it in full (StoryGraph's `Dates Read`, `library show`).
  struct Reading: Equatable {
    var started: String?
    var finished: String?
    var status: String
    var pages: Int?
    var percent: Double?
  }

  /// The entry, and what the source says about the readings: each one it gives in full, or the last
  /// start and finish dates and how many reads, which `Readings.record` turns into readings.
  struct Entry: Equatable {
    var status = "toRead"
    /// Stars, 0.25 to 5 in quarter stars (StoryGraph rates so; Goodreads and `add` in whole ones).
    var rating: Double?
    var dateAdded: String?
    var dateStarted: String?
    var dateFinished: String?
    var review: String?
    var readCount: Int?
    var readings: [Reading] = []
    var ownedCopies = 0
    var shelves: String?
  }

  var goodreadsId: Int64?
  var title: String
  var subtitle: String?
  var series: String?
  var seriesPosition: String?
  var coverImageURL: String?
  var originalLanguage: String?
  var firstPublished: Int?
  var authors: [Author] = []
  var edition = Edition()
  var entry = Entry()

  /// `Gideon the Ninth (The Locked Tomb, #1)` → (`The Locked Tomb`, `1`): Goodreads writes the
  /// series into the title; the title is kept as given and the series filled from it.
  static func series(inTitle title: String) -> (name: String, position: String)? {
    guard title.hasSuffix(")"), let open = title.lastIndex(of: "(") else { return nil }
    let inside = title[title.index(after: open)..<title.index(before: title.endIndex)]
    guard let hash = inside.lastIndex(of: "#") else { return nil }
    var name = inside[..<hash].trimmed
    if name.hasSuffix(",") { name = String(name.dropLast()).trimmed }
    let position = inside[inside.index(after: hash)...].trimmed
    guard !name.isEmpty, !position.isEmpty, position.first!.isNumber else { return nil }
    return (name, position)
  }
}
