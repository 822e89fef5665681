import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym library stats [--year 2026]`: the year in books, against `library.goal`.
struct LibraryStats: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "A year in books: books and pages per month, rating, longest and shortest, authors, re-reads, goal.",
    discussion: HelpExamples.discussion(
      """
      Counts the readings finished in the year (a re-read counts again, and as a re-read); a book's pages \
      are its longest edition's. The goal is the year's own ('gym library goal'), else library.goal: on track while the books read reach \
      the share of it the days gone give. json is one object; csv, tsv and ndjson are the months.
      """,
      examples: [
        "gym library stats --year 2023",
        "gym library stats --year 2023 -f json",
        "GYM_LIBRARY_GOAL=24 gym library stats --year 2022 --chart none",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "The year (default: this year, local time).") var year: Int?
  @OptionGroup var formatting: FormatOptions
  @OptionGroup var chart: ChartOptions

  func validate() throws {
    if let year, !(1...9999).contains(year) { throw ValidationError("--year must be from 1 to 9999") }
  }

  func run(context: CommandContext) throws {
    let today = CalendarDay.today().text
    let year = self.year ?? Int(today.prefix(4))!
    let fallback = context.configuration.string(.readingGoal).flatMap { Int($0) }
    let stats = try context.openStore().read { db in
      try ReadingYear.compute(
        db, year: year, goal: try ReadingGoal.goal(for: year, default: fallback, db), today: today)
    }
    let format = context.format(formatting)
    let out = BufferedOutput.standardOutput()
    defer { out.flush() }
    let monthColumns = ["month", "books", "pages"]
    let monthRows = stats.months.map { [Cell.text($0.month), .integer(Int64($0.books)), .integer(Int64($0.pages))] }
    switch format {
    case .json:
      Self.json(stats).writeLine(to: out)
    case .ndjson, .csv, .tsv:
      let writer = RecordWriter(format: format, columns: monthColumns, out: out)
      for row in monthRows { writer.write(row) }
      writer.finish(next: nil)
    case .table:
      // Titles and names are data: shown with their controls escaped, like a table's cells.
      for line in Self.summary(stats) { out.write(Cell.lineForTerminal(line).withoutTrailingSpaces + "\n") }
      out.write("\n")
      chart.draw(
        stats.months.map { (label: $0.month, value: Double($0.books)) }, title: "books per month", default: .bars,
        context: context, format: format, to: out)
      let writer = RecordWriter(format: .table, columns: monthColumns, out: out)
      for row in monthRows { writer.write(row) }
      writer.finish(next: nil)
    }
  }

  /// The figures as labelled lines.
  static func summary(_ stats: ReadingYear) -> [String] {
    func book(_ book: ReadingYear.Book?) -> String {
      book.map { "\($0.title), \($0.pages!) page\($0.pages == 1 ? "" : "s")" } ?? ""
    }
    var lines: [(String, String)] = [
      (
        "books",
        "\(stats.books.count)"
          + (stats.rereads > 0 ? " (\(stats.rereads) re-read\(stats.rereads == 1 ? "" : "s"))" : "")
      ),
      ("pages", "\(stats.pages)"),
      // A known 0 is printed: blank is what this table shows for unknown.
      ("put down", stats.abandoned > 0 ? "\(stats.abandoned) (did not finish)" : "0"),
      (
        "rating",
        stats.averageRating.map {
          "\(Cell.real($0).plainText(localTime: false)) average of \(stats.ratings.count) rated"
        } ?? ""
      ),
      ("longest", book(stats.longest)), ("shortest", book(stats.shortest)),
      ("authors", stats.authors.map { "\($0.name) \($0.books)" }.joined(separator: ", ")),
    ]
    switch stats.goal {
    case .inProgress(let goal, let expected, let behind)?:
      lines.append(
        (
          "goal",
          "\(goal) a year: " + (behind == 0 ? "on track" : "behind by \(behind)") + " (\(expected) expected by today)"
        ))
    case .reached(let goal)?: lines.append(("goal", "\(goal) a year: reached"))
    case .missed(let goal, let by)?: lines.append(("goal", "\(goal) a year: missed by \(by)"))
    case .notStarted(let goal)?: lines.append(("goal", "\(goal) a year: not started"))
    case nil: break
    }
    let width = lines.map(\.0.count).max() ?? 0
    return ["\(stats.year) in books"]
      + lines.map { "\($0.0)\(String(repeating: " ", count: width - $0.0.count))  \($0.1)" }
  }

  /// One object: the figures, the months, the goal.
  static func json(_ stats: ReadingYear) -> JSONValue {
    func book(_ book: ReadingYear.Book?) -> JSONValue {
      guard let book else { return .null }
      return ["workId": .cell(.integer(book.work)), "title": .text(book.title), "pages": .integer(book.pages!)]
    }
    let goal: JSONValue
    switch stats.goal {
    case .inProgress(let books, let expected, let behind)?:
      goal = [
        "books": .integer(books), "status": .text(behind == 0 ? "onTrack" : "behind"), "expected": .integer(expected),
        "behind": .integer(behind),
      ]
    case .reached(let books)?: goal = ["books": .integer(books), "status": .text("reached")]
    case .missed(let books, let by)?:
      goal = ["books": .integer(books), "status": .text("missed"), "behind": .integer(by)]
    case .notStarted(let books)?: goal = ["books": .integer(books), "status": .text("notStarted")]
    case nil: goal = .null
    }
    return [
      "year": .integer(stats.year), "books": .integer(stats.books.count), "pages": .integer(stats.pages),
      "rereads": .integer(stats.rereads), "didNotFinish": .integer(stats.abandoned),
      "averageRating": .number(stats.averageRating), "rated": .integer(stats.ratings.count),
      "longest": book(stats.longest), "shortest": book(stats.shortest),
      "authors": .array(stats.authors.map { ["name": .text($0.name), "books": .integer($0.books)] }),
      "months": .array(
        stats.months.map { ["month": .text($0.month), "books": .integer($0.books), "pages": .integer($0.pages)] }),
      "goal": goal,
    ]
  }
}
