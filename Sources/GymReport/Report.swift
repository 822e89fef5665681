import GymCLI
import GymCore

/// The report: the sections of each chosen module's contribution (`ModuleRegistry.reports`), read
/// in one read transaction, rendered and written (to a temporary name, then renamed). What
/// `gym report` and `export schedule --report` write.
public struct Report: Sendable {
  let store: Store
  let since: Timestamp
  let contributions: [ReportContribution]
  /// What the modules read their settings from (`library.goal`, `health.sources`).
  let configuration: Configuration

  public init(store: Store, since: Timestamp, contributions: [ReportContribution], configuration: Configuration) {
    self.store = store
    self.since = since
    self.contributions = contributions
    self.configuration = configuration
  }

  /// What a report covers when not told: the last 90 days before its end.
  public static let defaultSpan = TimeSpan(milliseconds: 90 * 86_400_000)

  /// Writes the report to `path` (`-`: stdout); returns what it holds, for a note or a log line.
  /// The report covers `since` up to `until` (now when not given).
  public func write(to path: String, until: Timestamp? = nil, now: Timestamp = .now()) throws -> String {
    // The last instant covered: just before --until (which is not included), as the period commands end.
    let end = until.map { $0.adding(milliseconds: -1) } ?? now
    let request = ReportRequest(since: since, now: end, configuration: configuration)
    let sections = try store.read { db in try contributions.flatMap { try $0.sections(db, request) } }
    let html = HTMLReport(
      title: "gym report",
      subtitle: "From \(CalendarDay(localDayOf: since).text) to \(request.today) · written \(now.localDescription)",
      sections: sections
    ).html
    if path == "-" {
      let output = BufferedOutput.standardOutput()
      output.write(html)
      output.flush()
    } else {
      try OutputFile.write(Array(html.utf8), to: path)
    }
    let charts = sections.reduce(0) { $0 + $1.charts.count }
    return "\(sections.count) section\(sections.count == 1 ? "" : "s"), \(charts) chart\(charts == 1 ? "" : "s"), "
      + "\(html.utf8.count / 1024) KiB"
  }
}
