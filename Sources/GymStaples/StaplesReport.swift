import GRDB
import GymCLI
import GymCore

/// The pantry's part of `gym report`: the recipes cooked most (their usage count, as `cook` keeps it).
public enum StaplesReport {
  public static func pantry(_ db: Database) throws -> ReportSection? {
    let cooked = try Row.fetchAll(
      db, sql: "SELECT name, usageCount FROM recipe WHERE usageCount > 0 ORDER BY usageCount DESC, name LIMIT 10")
    var section = ReportSection(id: "pantry", title: "Pantry")
    if let chart = ReportChart(
      title: "Most-cooked recipes", kind: .bars, xLabel: "recipe", yLabel: "times cooked",
      points: cooked.map { .init($0[0], Double($0[1] as Int64)) })
    {
      section.charts.append(chart)
    }
    return section.isEmpty ? nil : section
  }
}
