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

  /// Writes the report to `path` (`-`: stdout); returns what it holds, for a note or a log line.
  /// The report covers `since` up to `until` (now when not given).
  public func write(to path: String, until: Timestamp? = nil, now: Timestamp = .now()) throws -> String {
    let request = ReportRequest(since: since, now: until ?? now, configuration: configuration)
    let today = until.map { CalendarDay(localDayOf: $0.adding(milliseconds: -1)).text } ?? request.today
    let sections = try store.read { db in try contributions.flatMap { try $0.sections(db, request) } }
    let html = HTMLReport(
      title: "gym report",
      subtitle: "From \(since.localDescription.prefix(10)) to \(today) · written \(now.localDescription)",
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
