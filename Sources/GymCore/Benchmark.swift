import GRDB

/// One operation a module asks `gym bench` to time, on a database filled with its sample data.
public struct BenchWorkload: Sendable {
  public let name: String
  /// A stable id for `bench.targets` in the configuration (`history.list_newest`); nil when the
  /// workload has no target to configure.
  public let id: String?
  /// The figure to meet, in milliseconds of median query time, if the module sets one.
  public let targetMilliseconds: Double?
  /// The query plan, when the workload is one query whose plan is the point (index or not).
  public let plan: String?
  /// Runs the operation once and returns how many rows it produced.
  public let run: @Sendable (Database) throws -> Int
  /// A write (a cook): each sample runs in a write transaction, inside a savepoint rolled back
  /// after it, so every sample starts from the same data.
  public let writes: Bool

  public init(
    _ name: String, id: String? = nil, targetMilliseconds: Double? = nil, plan: String? = nil, writes: Bool = false,
    run: @escaping @Sendable (Database) throws -> Int
  ) {
    self.name = name
    self.id = id
    self.targetMilliseconds = targetMilliseconds
    self.plan = plan
    self.writes = writes
    self.run = run
  }
}

/// What a module gives `gym bench`: how to fill a database and what to time on it.
public struct ModuleBenchmarks: Sendable {
  /// Inserts `count` generated records (sample data, only ever on request).
  public let generate: @Sendable (Database, Int) throws -> Void
  /// The workloads, prepared against the filled database (for example a cursor deep in a list).
  public let workloads: @Sendable (Database) throws -> [BenchWorkload]
  /// The `i`-th of many small writes a device makes, each its own transaction and so one change to
  /// sync (`gym bench --module sync`); different `i`, different records.
  public let change: (@Sendable (Database, Int) throws -> Void)?
  /// `count` records of what a device holds before its first sync, for a new device starting from
  /// their base (`gym bench --module sync --base`): history's are workouts.
  public let base: (@Sendable (Database, Int) throws -> Void)?

  public init(
    generate: @escaping @Sendable (Database, Int) throws -> Void,
    workloads: @escaping @Sendable (Database) throws -> [BenchWorkload],
    change: (@Sendable (Database, Int) throws -> Void)? = nil,
    base: (@Sendable (Database, Int) throws -> Void)? = nil
  ) {
    self.generate = generate
    self.workloads = workloads
    self.change = change
    self.base = base
  }
}
