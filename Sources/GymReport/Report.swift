import GymCLI
import GymCore
import GymHistory
import GymLibrary
import GymStaples

/// The report: each chosen module's section, read in one read transaction, rendered and written
/// (to a temporary name, then renamed). What `gym report` and `export schedule --report` write.
public struct Report: Sendable {
  public enum Module: String, CaseIterable, Sendable { case history, library, staples }

  let store: Store
  let since: Timestamp
  let modules: Set<Module>
  /// `library.goal` and `health.sources`, from the configuration.
  let goal: Int?
  let sources: [String]

  public init(store: Store, since: Timestamp, modules: Set<Module>, goal: Int?, sources: [String]) {
    self.store = store
    self.since = since
    self.modules = modules
    self.goal = goal
    self.sources = sources
  }

  /// Writes the report to `path` (`-`: stdout); returns what it holds, for a note or a log line.
  public func write(to path: String, now: Timestamp = .now()) throws -> String {
    let today = String(now.localDescription.prefix(10))
    let sections = try store.read { db -> [ReportSection] in
      var sections: [ReportSection?] = []
      if modules.contains(.history) {
        sections.append(try HistoryReport.training(db, since: since, now: now))
        sections.append(try HistoryReport.health(db, since: since, now: now, sourcePriority: sources))
      }
      if modules.contains(.library) { sections.append(try LibraryReport.reading(db, goal: goal, today: today)) }
      if modules.contains(.staples) { sections.append(try StaplesReport.pantry(db)) }
      return sections.compactMap { $0 }
    }
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
