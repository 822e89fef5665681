import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// The one work a command acts on: its id, or an ISBN of one of its editions.
struct WorkArgument: ParsableArguments {
  @Argument(help: "The work's id, or an ISBN of one of its editions.", completion: .custom(LibraryCompletion.workIDs))
  var work: String
}

/// `--date`, shared by `start`, `finish` and `abandon`: the day it happened, today by default.
struct ReadingDateOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The day (2026-03-15, 2d; default: today, local time).", valueName: "date"))
  var date: String?

  func validate() throws {
    if let date { do { _ = try WhereParser.parseDay(date, option: "--date") } catch { throw ValidationError(error) } }
  }

  func day() throws(GymError) -> String {
    try (date.map { text throws(GymError) in try WhereParser.parseDay(text, option: "--date") } ?? CalendarDay.today())
      .text
  }
}

/// What the reading commands share: the work, its title, and the entry's shelf set to the status.
enum ReadingCommand {
  static func work(_ db: Database, _ key: String) throws -> (id: Int64, title: String) {
    let id = try LibraryQueries.workId(db, key)
    return (id, try String.fetchOne(db, sql: "SELECT title FROM work WHERE id = ?", arguments: [id]) ?? "")
  }

  /// The entry's shelf (made when the work has no entry yet) and the work's `lastModified`.
  static func shelve(_ db: Database, work: Int64, status: String) throws {
    let now = Timestamp.now()
    try db.execute(
      sql: """
        INSERT INTO library_entry (id, workId, readingStatus, dateAdded) VALUES (?, ?, ?, ?)
        ON CONFLICT(workId) DO UPDATE SET readingStatus = excluded.readingStatus
        """, arguments: [LibraryKeys.entry(work: work), work, status, CalendarDay.today().text])
    try db.execute(sql: "UPDATE work SET lastModified = ? WHERE id = ?", arguments: [now.canonical, work])
  }

  static func times(_ count: Int) -> String { count == 1 ? "once" : count == 2 ? "twice" : "\(count) times" }
}

/// `gym library start ID|ISBN [--date D]`: a new reading, and the work on the reading shelf.
struct LibraryStart: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "start", abstract: "Start reading a work: a new reading from today (or --date).",
    discussion: HelpExamples.discussion(
      "Prints the reading's id. A work already being read is left as it is, and the command says so.",
      examples: [
        "gym library start 0140268863",
        "gym library start 9781250313195 --date 2026-11-01",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var target: WorkArgument
  var work: String { target.work }
  @OptionGroup var when: ReadingDateOptions

  func run(context: CommandContext) throws {
    let day = try when.day()
    let (work, started, reading) = try context.openStore().write { db in
      let work = try ReadingCommand.work(db, self.work)
      if let open = try Readings.open(db, work: work.id) { return (work, open.started, nil as Int64?) }
      try Readings.checkRoom(db, work: work.id)
      let reading = try Readings.insert(db, work: work.id, started: day, finished: nil, status: "reading")
      try ReadingCommand.shelve(db, work: work.id, status: "reading")
      return (work, day, reading)
    }
    guard let reading else {
      printNote(
        "'\(work.title)' is already being read" + (started.map { " (since \($0))" } ?? "")
          + "; nothing changed. 'gym library finish \(work.id)' or 'abandon \(work.id)' ends that reading")
      return
    }
    printIdentifier(String(reading))
    printNote("started '\(work.title)' on \(day) (reading \(reading))")
  }
}

/// `gym library finish ID|ISBN [--date D]`: the reading in progress ends read; without one, a re-read.
struct LibraryFinish: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "finish", abstract: "Finish reading a work today (or --date); a work read before counts a re-read.",
    discussion: HelpExamples.discussion(
      """
      Ends the reading in progress. When none is, records a reading finished that day (a re-read when \
      the work was read before). Prints the reading's id.
      """,
      examples: [
        "gym library finish 9781250313195",
        "gym library finish 9781250313195 --date 2026-11-20",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var target: WorkArgument
  var work: String { target.work }
  @OptionGroup var when: ReadingDateOptions

  func run(context: CommandContext) throws {
    let day = try when.day()
    let (work, reading, reads) = try context.openStore().write { db in
      let work = try ReadingCommand.work(db, self.work)
      let reading: Int64
      if let open = try Readings.open(db, work: work.id) {
        if let started = open.started, started > day {
          throw GymError.usage(
            "'\(work.title)' was started on \(started), after \(day); give --date on or after the start")
        }
        try Readings.end(db, reading: open.id, status: "read", finished: day)
        reading = open.id
      } else {
        try Readings.checkRoom(db, work: work.id)
        reading = try Readings.insert(db, work: work.id, started: nil, finished: day, status: "read")
      }
      try ReadingCommand.shelve(db, work: work.id, status: "read")
      return (work, reading, try Readings.count(db, work: work.id, status: "read"))
    }
    printIdentifier(String(reading))
    printNote(
      "finished '\(work.title)' on \(day)"
        + (reads > 1 ? ": a re-read, read \(ReadingCommand.times(reads)) now" : "") + " (reading \(reading))")
  }
}

/// `gym library abandon ID|ISBN [--date D]`: the reading in progress ends unfinished.
struct LibraryAbandon: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "abandon", abstract: "Stop reading a work without finishing it, today (or --date).",
    discussion: HelpExamples.discussion(examples: [
      "gym library start 0140268863 --date 2026-11-01 && gym library abandon 0140268863 --date 2026-11-15"
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var target: WorkArgument
  var work: String { target.work }
  @OptionGroup var when: ReadingDateOptions

  func run(context: CommandContext) throws {
    let day = try when.day()
    let (work, reading) = try context.openStore().write { db in
      let work = try ReadingCommand.work(db, self.work)
      guard let open = try Readings.open(db, work: work.id) else {
        throw GymError.data(
          "'\(work.title)' is not being read; nothing to abandon (see 'gym library readings \(work.id)')")
      }
      if let started = open.started, started > day {
        throw GymError.usage(
          "'\(work.title)' was started on \(started), after \(day); give --date on or after the start")
      }
      try Readings.end(db, reading: open.id, status: "abandoned", finished: day)
      try ReadingCommand.shelve(db, work: work.id, status: "abandoned")
      return (work, open.id)
    }
    printNote("abandoned '\(work.title)' on \(day) (reading \(reading))")
  }
}

/// `gym library progress ID|ISBN 120|45%`: where the reading in progress has got to.
struct LibraryProgress: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "progress", abstract: "Record how far you are: a page (120) or a percentage (45%).",
    discussion: HelpExamples.discussion(
      "Starts a reading today when none is in progress. A page past the work's longest edition is refused.",
      examples: [
        "gym library progress 9781250313195 120",
        "gym library progress 9781250313195 45%",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var target: WorkArgument
  var work: String { target.work }
  @Argument(help: "A page number, or a percentage with %.") var position: String

  /// The page or the percentage the argument gives.
  var parsed: (pages: Int?, percent: Double?)? {
    if position.hasSuffix("%") {
      guard let value = Double(position.dropLast()), value.isFinite, (0...100).contains(value) else { return nil }
      return (nil, value)
    }
    guard let page = Int(position), (0...1_000_000).contains(page) else { return nil }
    return (page, nil)
  }

  func validate() throws {
    if parsed == nil {
      throw ValidationError(
        "'\(position)' is neither a page nor a percentage; write a page such as 120, or a percentage such as 45%")
    }
  }

  func run(context: CommandContext) throws {
    let (pages, percent) = parsed!
    let (work, started) = try context.openStore().write { db in
      let work = try ReadingCommand.work(db, self.work)
      if let pages,
        let length = try Int.fetchOne(
          db, sql: "SELECT MAX(pageCount) FROM edition WHERE workId = ?", arguments: [work.id]),
        pages > length
      {
        throw GymError.usage(
          "page \(pages) is past the end of '\(work.title)' (\(length) pages in its longest edition)")
      }
      var started: String?
      let reading: Int64
      if let open = try Readings.open(db, work: work.id) {
        reading = open.id
      } else {
        started = CalendarDay.today().text
        try Readings.checkRoom(db, work: work.id)
        reading = try Readings.insert(db, work: work.id, started: started, finished: nil, status: "reading")
        try ReadingCommand.shelve(db, work: work.id, status: "reading")
      }
      try db.execute(
        sql: "UPDATE reading SET pages = ?, percent = ? WHERE id = ?", arguments: [pages, percent, reading])
      return (work, started)
    }
    printNote(
      "'\(work.title)': \(pages.map { "page \($0)" } ?? "\(Cell.real(percent!).plainText(localTime: false))%")"
        + (started.map { " (started it today, \($0))" } ?? ""))
  }
}

/// `gym library readings [ID|ISBN]`: every reading, or one work's, a list like the others.
struct LibraryReadingsList: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "readings", abstract: "List readings (each time a work was read), newest recorded first.",
    discussion: HelpExamples.discussion(
      FieldHelp.line(ReadingSchema.list),
      examples: [
        "gym library readings",
        "gym library readings 9781250313195",
        "gym library readings -w 'finished >= \"2026-01-01\" && status == \"read\"' --sort finished",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "Only this work's readings (its id, or an ISBN).", completion: .custom(LibraryCompletion.workIDs))
  var work: String?
  @OptionGroup var filter: FilterOptions
  @OptionGroup var sorting: SortOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var paging: PagingOptions

  func run(context: CommandContext) throws {
    let table = ReadingSchema.list
    let store = try context.openStore()
    var filters = [try filter.predicate(for: table)].compactMap { $0 }
    if let work {
      let id = try store.read { db in try LibraryQueries.workId(db, work) }
      filters.append(.compare("workId", .equal, .integer(id)))
    }
    let query = try RecordListing.query(
      table: table, filters: filters, output: output, paging: paging, context: context, sort: sorting.keys)
    try RecordListing.write(query, store: store, format: context.format(output), ids: output.ids)
  }
}

extension LibraryReadingsList: ListsTable {
  static var listedTable: TableSchema { ReadingSchema.list }
}
