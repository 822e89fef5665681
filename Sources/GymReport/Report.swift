import GymCLI
import GymCore

/// The report: the sections of each chosen module's contribution (`ModuleRegistry.reports`), read
/// in one read transaction, rendered and written (to a temporary name, then renamed). What
/// `gym report` and `export schedule --report` write.
public struct Report: Sendable {
  let store: Store
  let period: ReportPeriod.Request
  let contributions: [ReportContribution]
  /// What the modules read their settings from (`library.goal`, `health.sources`).
  let configuration: Configuration

  /// `since` nil and `sinceAll` false: the last 12 months of the data (ReportPeriod).
  public init(
    store: Store, since: Timestamp?, sinceAll: Bool = false, until: Timestamp? = nil,
    contributions: [ReportContribution], configuration: Configuration
  ) {
    self.store = store
    self.period = ReportPeriod.Request(since: since, sinceAll: sinceAll, until: until)
    self.contributions = contributions
    self.configuration = configuration
  }

  /// Writes the report to `path` (`-`: stdout); returns what it holds, for a note or a log line.
  public func write(to path: String, now: Timestamp = .now()) throws -> String {
    let (period, extents, sections) = try store.read { db in
      let extents = try contributions.flatMap { try $0.extents(db) }
      let period = ReportPeriod.resolve(self.period, extents: extents, now: now)
      let request = ReportRequest(since: period.since, now: period.end, configuration: configuration, clock: now)
      return (period, extents, try contributions.flatMap { try $0.sections(db, request) })
    }
    let empty =
      ReportPeriod.emptyMessage(extents, period: period)
      ?? "No data yet: import workouts, health samples, books or a pantry, then run gym report again."
    var report = HTMLReport(
      title: "gym report", subtitle: period.subtitle + " · written \(now.localDescription)", sections: sections,
      empty: empty)
    if !sections.isEmpty { report.outside = ReportPeriod.outsideNote(extents, period: period) }
    let html = report.html
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
