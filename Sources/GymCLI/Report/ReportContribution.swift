import GRDB
import GymCore

/// What a feature module adds to `gym report`: its sections, read in the report's one read
/// transaction. Registered with the modules (`ModuleRegistry`), so the report knows no module.
public struct ReportContribution: Sendable {
  /// The module's name, as `--modules` takes it.
  public let module: String
  public let sections: @Sendable (Database, ReportRequest) throws -> [ReportSection]
  /// Where the module's data lies in time: the report's default period is the last 12 months of it,
  /// and a period without data says where the data is.
  public let extents: @Sendable (Database) throws -> [DataExtent]

  public init(
    module: String, extents: @escaping @Sendable (Database) throws -> [DataExtent] = { _ in [] },
    sections: @escaping @Sendable (Database, ReportRequest) throws -> [ReportSection]
  ) {
    self.module = module
    self.extents = extents
    self.sections = sections
  }
}

/// The first and last instant of one kind of record ("workout", "health sample").
public struct DataExtent: Sendable, Equatable {
  public let what: String
  public let first: Timestamp
  public let last: Timestamp

  public init(what: String, first: Timestamp, last: Timestamp) {
    self.what = what
    self.first = first
    self.last = last
  }

  /// The extent of `min(column)`..`max(column)` of a query's one row; nil when it has no rows.
  public static func read(_ db: Database, _ what: String, sql: String) throws -> DataExtent? {
    guard let row = try Row.fetchOne(db, sql: sql),
      let first = (row[0] as String?).flatMap(Timestamp.init(parsing:)),
      let last = (row[1] as String?).flatMap(Timestamp.init(parsing:))
    else { return nil }
    return DataExtent(what: what, first: first, last: last)
  }
}

/// What every section is drawn for: its period, and the configuration (a module reads its own keys).
public struct ReportRequest: Sendable {
  public let since: Timestamp
  /// The period's last instant: the latest record when the report follows the data.
  public let now: Timestamp
  public let configuration: Configuration
  /// The time the report is written: what is in stock or expiring is as of then, whatever the period.
  public let clock: Timestamp

  public init(since: Timestamp, now: Timestamp, configuration: Configuration, clock: Timestamp? = nil) {
    self.since = since
    self.now = now
    self.configuration = configuration
    self.clock = clock ?? now
  }

  /// The local date of the period's end, `YYYY-MM-DD`.
  public var today: String { CalendarDay.today(now).text }
}
