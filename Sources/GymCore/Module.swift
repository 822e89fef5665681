import GRDB

/// How a feature module describes itself to the store: registered once, used by every
/// cross-cutting command (migrate, export, bench) without importing the module.
public struct GymModule: Sendable {
  public let name: String
  public let migrations: [Migration]
  public let tables: [TableSchema]
  public let benchmarks: ModuleBenchmarks?

  public init(name: String, migrations: [Migration], tables: [TableSchema], benchmarks: ModuleBenchmarks? = nil) {
    self.name = name
    self.migrations = migrations
    self.tables = tables
    self.benchmarks = benchmarks
  }
}
