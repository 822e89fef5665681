import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym library add TITLE --author A [--author B] [--isbn N] …`: a new work with its entry.
struct LibraryAdd: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Add a work with its authors, an optional edition (ISBN …) and your entry.",
    discussion: HelpExamples.discussion(examples: [
      "gym library add Piranesi --author 'Susanna Clarke' --pages 272",
      "gym library add 'The Overstory' --author 'Richard Powers' --status reading",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The title.") var title: String
  @Option(name: .customLong("author"), help: "An author, in order; repeat for several.") var authors: [String] = []
  @Option(help: "An ISBN-10 or ISBN-13 of the edition you have.") var isbn: String?
  @Option(help: "The edition's publisher.") var publisher: String?
  @Option(help: "The edition's year.") var year: Int?
  @Option(help: "The edition's number of pages.") var pages: Int?
  @Option(help: "The series, e.g. 'The Locked Tomb'.") var series: String?
  @Option(help: "The cover image's URL.") var cover: String?
  @OptionGroup var entry: EntryOptions
  @Flag(help: "Add it even when a work of the same title by the same authors is already there.")
  var allowDuplicate = false

  func validate() throws {
    if title.trimmed.isEmpty { throw ValidationError("the title is empty; give a title such as 'Dune'") }
    if authors.contains(where: { $0.trimmed.isEmpty }) { throw ValidationError("--author must not be empty") }
    if let isbn, ISBN.parse(isbn) == nil {
      throw ValidationError("--isbn '\(isbn)' is not a valid ISBN-10 or ISBN-13 (check the digits)")
    }
    try LibraryBounds.check(pages, LibraryBounds.pages, option: "--pages")
    try LibraryBounds.check(year, LibraryBounds.year, option: "--year")
  }

  func run(context: CommandContext) throws {
    var book = LibraryBook(title: title.trimmed, series: series?.trimmed, coverImageURL: cover)
    if series == nil, let (name, position) = LibraryBook.series(inTitle: book.title) {
      book.series = name
      book.seriesPosition = position
    }
    book.authors = authors.map { LibraryBook.Author(name: $0.trimmed) }
    let parsed = isbn.flatMap(ISBN.parse)
    book.edition = .init(
      isbn10: parsed?.isbn10, isbn13: parsed?.isbn13, publisher: publisher, pageCount: pages, year: year)
    book.entry.dateAdded = CalendarDay.today().text
    try entry.apply(to: &book.entry, today: CalendarDay.today().text)
    let id = try context.openStoreForWriting().write { db -> Int64 in
      if let code = parsed.flatMap({ $0.isbn13 ?? $0.isbn10 }),
        let other = try LibraryQueries.works(db, isbn: code).first
      {
        throw GymError.data("ISBN \(code) is already in the library as work \(other); see 'gym library show \(other)'")
      }
      if !allowDuplicate, let other = try Self.sameWork(db, title: book.title, authors: book.authors.map(\.name)) {
        throw GymError.data(
          "'\(book.title)' by these authors is already in the library as work \(other); "
            + "see 'gym library show \(other)', or pass --allow-duplicate")
      }
      return try LibraryWriter(db, now: .now()).save(book).id
    }
    printIdentifier(String(id))
    printNote("added work \(id): '\(book.title)'")
  }
}

extension LibraryAdd {
  /// A work with this title (any case) and exactly these authors (any case, any order), if there is one.
  static func sameWork(_ db: Database, title: String, authors: [String]) throws -> Int64? {
    let wanted = Set(authors.map { $0.lowercased() })
    for id in try Int64.fetchAll(db, sql: "SELECT id FROM work WHERE title = ? COLLATE NOCASE", arguments: [title]) {
      let names = try String.fetchAll(
        db, sql: "SELECT a.name FROM work_author wa JOIN author a ON a.id = wa.authorId WHERE wa.workId = ?",
        arguments: [id])
      if Set(names.map { $0.lowercased() }) == wanted { return id }
    }
    return nil
  }
}

/// `gym library set ID|ISBN --status reading …`: changes your entry (and `lastModified`).
struct LibrarySet: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "set",
    abstract: "Change a work's entry: status, rating, dates, review, copies.",
    discussion: HelpExamples.discussion(
      """
      --status reading starts a reading and --status read finishes one (today unless --started or \
      --finished say otherwise), as 'gym library start' and 'finish' do. Without --status, --started and \
      --finished correct the dates of the latest reading.
      """,
      examples: [
        "gym library set 9781250313195 --status read --rating 5 --finished 2026-11-20",
        "gym library set 0140268863 --review 'Slow start, great end.'",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var target: WorkArgument
  var work: String { target.work }
  @OptionGroup var entry: EntryOptions

  func validate() throws {
    if !entry.changesSomething { throw ValidationError("nothing to change; give --status, --rating or another field") }
  }

  func run(context: CommandContext) throws {
    let id = try context.openStore().write { db -> Int64 in
      let id = try LibraryQueries.workId(db, work)
      let current = try Row.fetchOne(db, sql: "SELECT * FROM library_entry WHERE workId = ?", arguments: [id])
      var values = LibraryBook.Entry()
      if let current {
        values = LibraryBook.Entry(
          status: current["readingStatus"], rating: current["rating"], dateAdded: current["dateAdded"],
          review: current["review"], ownedCopies: current["ownedCopies"], shelves: current["shelves"])
      }
      let before = values
      try entry.apply(to: &values, today: CalendarDay.today().text)
      var changed = false
      if entry.status == nil, entry.started != nil || entry.finished != nil,
        let latest = try Row.fetchOne(
          db,
          sql:
            "SELECT id, status, started, finished FROM reading WHERE workId = ? ORDER BY \(Readings.latestFirst) LIMIT 1",
          arguments: [id])
      {
        // A correction: the latest reading's dates, not a new reading.
        let status: String = latest["status"]
        if status == "reading" && entry.finished != nil {
          throw GymError.usage(
            "the latest reading of work \(id) is in progress: 'gym library finish \(id) --date …' ends it")
        }
        let started: String? = values.dateStarted ?? latest["started"]
        let finished: String? = values.dateFinished ?? latest["finished"]
        if let started, let finished, started > finished {
          throw GymError.usage("the start \(started) would come after the finish \(finished); give both dates")
        }
        try db.execute(
          sql: "UPDATE reading SET started = ?, finished = ? WHERE id = ?",
          arguments: [started, finished, latest["id"] as Int64])
        changed = db.changesCount > 0
        (values.dateStarted, values.dateFinished) = (nil, nil)
      }
      guard values != before || changed else { return id }
      _ = try LibraryWriter(db, now: .now()).saveEntry(work: id, values, endsReadingInProgress: true)
      try db.execute(
        sql: "UPDATE work SET lastModified = ? WHERE id = ?", arguments: [Timestamp.now().canonical, id])
      return id
    }
    printNote("updated work \(id)")
  }
}

/// `gym library remove ID|ISBN…` (also `rm`, `delete`): the works, their editions, entries and author
/// links, all or none; authors no other work names go with them.
struct LibraryRemove: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Remove works with their editions and entries (and authors left without works), all or none.",
    discussion: HelpExamples.discussion(examples: [
      "gym library remove 9781250313195 0140268863 --dry-run",
      "gym library rm 0140268863 99 --ignore-missing",
    ]),
    aliases: ["rm", "delete"])

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "Work ids, or ISBNs of their editions.", completion: .custom(LibraryCompletion.workIDs))
  var works: [String]
  @OptionGroup var removal: RemoveOptions

  func validate() throws {
    if works.isEmpty { throw ValidationError("give at least one work id or ISBN") }
  }

  func run(context: CommandContext) throws {
    try RecordRemoval.run(store: try context.openStore(), keys: works, noun: "work", options: removal) { db, key in
      let id: Int64
      do {
        id = try LibraryQueries.workId(db, key)
      } catch let error as GymError where error.status == .noInput {
        return nil
      }
      let title = try String.fetchOne(db, sql: "SELECT title FROM work WHERE id = ?", arguments: [id]) ?? ""
      try db.execute(sql: "DELETE FROM work WHERE id = ?", arguments: [id])
      return "work \(id): '\(title)'"
    }
  }
}

/// The fields of a reading entry that `add` and `set` take; nil leaves a field as it is.
struct EntryOptions: ParsableArguments {
  @Option(help: "Your reading status.") var status: ReadingStatus?
  @Option(help: "1 to 5 stars, in quarters (3.75) if you like; 0 clears the rating.") var rating: Double?
  @Option(help: "When you started it (YYYY-MM-DD).") var started: String?
  @Option(help: "When you finished it (YYYY-MM-DD).") var finished: String?
  @Option(help: "Your review (free text).") var review: String?
  @Option(help: "How many copies you own.") var ownedCopies: Int?

  var changesSomething: Bool {
    status != nil || rating != nil || started != nil || finished != nil || review != nil || ownedCopies != nil
  }

  func validate() throws {
    if let rating, rating != 0 && !Stars.isValid(rating) {
      throw ValidationError("--rating must be from 0.25 to 5 in quarter stars (such as 4 or 3.75), or 0 to clear it")
    }
    var days: [CalendarDay] = []
    for (name, value) in [("--started", started), ("--finished", finished)] {
      if let value {
        do { days.append(try WhereParser.parseDay(value, option: name)) } catch { throw ValidationError(error) }
      }
    }
    if days.count == 2, days[0] > days[1] {
      throw ValidationError("--started \(days[0].text) would come after --finished \(days[1].text)")
    }
    try LibraryBounds.check(ownedCopies, LibraryBounds.ownedCopies, option: "--owned-copies")
  }

  /// The entry as these options change it; the dates are what `Readings.record` is told.
  func apply(to entry: inout LibraryBook.Entry, today: String) throws(GymError) {
    if let rating { entry.rating = rating == 0 ? nil : rating }
    if let started { entry.dateStarted = try WhereParser.parseDay(started, option: "--started").text }
    if let finished { entry.dateFinished = try WhereParser.parseDay(finished, option: "--finished").text }
    if let review { entry.review = review.isEmpty ? nil : review }
    if let ownedCopies { entry.ownedCopies = ownedCopies }
    guard let status, status.rawValue != entry.status else { return }
    entry.status = status.rawValue
    switch status {
    case .reading: entry.dateStarted = entry.dateStarted ?? today
    case .read: entry.dateFinished = entry.dateFinished ?? today
    default: break
    }
  }
}
