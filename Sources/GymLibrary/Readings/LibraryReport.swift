import GRDB
import GymCLI
import GymCore

/// The library's part of `gym report`: this year's books per month (as `library stats` counts them)
/// and where the year stands against `library.goal`.
public enum LibraryReport {
  public static func reading(_ db: Database, goal: Int?, today: String) throws -> ReportSection? {
    let year = Int(today.prefix(4)) ?? 1970
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
        title: "Goal \(year): \(goal) books", kind: .bars, xLabel: "", yLabel: "books",
        points: [
          .init("read", Double(stats.books.count)), .init("expected by today", Double(expected)),
          .init("goal", Double(goal)),
        ])
      {
        section.charts.append(progress)
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

/// This year's reading in `gym report`.
public let libraryReport = ReportContribution(module: "library") { db, request in
  let goal = request.configuration.string(.readingGoal).flatMap { Int($0) }
  return [try LibraryReport.reading(db, goal: goal, today: request.today)].compactMap { $0 }
}
