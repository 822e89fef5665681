import GRDB
import GymCore

/// What a feature module adds to `gym report`: its sections, read in the report's one read
/// transaction. Registered with the modules (`ModuleRegistry`), so the report knows no module.
public struct ReportContribution: Sendable {
  /// The module's name, as `--modules` takes it.
  public let module: String
  public let sections: @Sendable (Database, ReportRequest) throws -> [ReportSection]

  public init(module: String, sections: @escaping @Sendable (Database, ReportRequest) throws -> [ReportSection]) {
    self.module = module
    self.sections = sections
  }
}

/// What every section is drawn for: its period, and the configuration (a module reads its own keys).
public struct ReportRequest: Sendable {
  public let since: Timestamp
  public let now: Timestamp
  public let configuration: Configuration

  public init(since: Timestamp, now: Timestamp, configuration: Configuration) {
    self.since = since
    self.now = now
    self.configuration = configuration
  }

  /// Today's local date, `YYYY-MM-DD`.
  public var today: String { CalendarDay.today(now).text }
}
