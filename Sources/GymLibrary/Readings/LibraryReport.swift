import GRDB
import GymCLI
import GymCore

/// The library's part of `gym report`: this year's books per month (as `library stats` counts them)
/// and where the year stands against `library.goal`.
public enum LibraryReport {
  /// `year`: the period's last year (default: `today`'s); `today`: the day the report is written,
  /// which places the goal (a past year is reached or missed, this one on track or behind).
  public static func reading(_ db: Database, goal: Int?, today: String, year: Int? = nil) throws -> ReportSection? {
    let year = year ?? Int(today.prefix(4)) ?? 1970
    let goal = try ReadingGoal.goal(for: year, default: goal, db)
    let stats = try ReadingYear.compute(db, year: year, goal: goal, today: today)
    var section = ReportSection(id: "reading", title: "Reading")
    if let months = ReportChart(
      title: "Books per month, \(year)", kind: .bars, xLabel: "month", yLabel: "books",
      points: stats.months.map { .init($0.month, Double($0.books)) })
    {
      section.charts.append(months)
    }
    if let goal {
      let expected: Int
      switch stats.goal {
      case .inProgress(_, let by, _)?: expected = by
      default: expected = goal
      }
      if let progress = ReportChart(
        title: "Goal \(year): \(goal) books", kind: .categories, xLabel: "", yLabel: "books",
        points: [
          .init("read", Double(stats.books.count)), .init("expected by today", Double(expected)),
          .init("goal", Double(goal)),
        ], sorted: false)
      {
        section.charts.append(progress)
      }
    }
    if !stats.books.isEmpty {
      func book(_ book: ReadingYear.Book?) -> String {
        guard let book else { return "" }
        return "\(book.title) (\(book.pages.map { "\($0) page\($0 == 1 ? "" : "s")" } ?? "pages unknown"))"
      }
      let rated = stats.ratings.count
      let rows: [[String]] = [
        [
          "books",
          "\(stats.books.count)"
            + (stats.rereads > 0 ? " (\(stats.rereads) re-read\(stats.rereads == 1 ? "" : "s"))" : ""),
        ],
        ["pages", "\(stats.pages)"], ["longest", book(stats.longest)], ["shortest", book(stats.shortest)],
        [
          "average rating",
          // As `library stats` prints it (3.38, not a chart label's 3.4).
          stats.averageRating.map { "\(Cell.real($0).plainText(localTime: false)) of 5 (\(rated) rated)" }
            ?? "none rated",
        ],
      ]
      if let table = ReportTable(title: "The year in books, \(year)", columns: ["", ""], rows: rows) {
        section.tables.append(table)
      }
    }
    let last = Array(stats.books.suffix(10).reversed())
    let titles = try ReadingYear.titles(db, of: last.map(\.work))
    let rows = last.map { [$0.finished, titles[$0.work] ?? "", $0.pages.map(String.init) ?? ""] }
    if let table = ReportTable(title: "Finished this year", columns: ["finished", "title", "pages"], rows: rows) {
      section.tables.append(table)
    }
    return section.isEmpty ? nil : section
  }
}

extension LibraryReport {
  /// Books by their finish day (the day's noon, UTC: a day, not an instant).
  static func extents(_ db: Database) throws -> [DataExtent] {
    [
      try DataExtent.read(
        db, "book finished",
        sql: """
          SELECT min(finished) || 'T12:00:00.000Z', max(finished) || 'T12:00:00.000Z' FROM reading_book
          WHERE finished GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
          """)
    ].compactMap { $0 }
  }
}

/// This year's reading in `gym report`.
public let libraryReport = ReportContribution(module: "library", extents: LibraryReport.extents) { db, request in
  let goal = request.configuration.string(.readingGoal).flatMap { Int($0) }
  return [
    try LibraryReport.reading(
      db, goal: goal, today: CalendarDay.today(request.clock).text, year: Int(request.today.prefix(4)))
  ].compactMap { $0 }
}
