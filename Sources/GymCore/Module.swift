import GRDB

/// How a feature module describes itself to the store: registered once, used by every
/// cross-cutting command (migrate, export, bench) without importing the module.
///
/// Every command registers every module, but opening the store needs only the migrations: the
/// table descriptions and benchmarks are built when first asked for (a short command's start-up
/// is mostly one-time work like building them).
public struct GymModule: Sendable {
  public let name: String
  public let migrations: [Migration]
  private let describeTables: @Sendable () -> [TableSchema]
  private let describeBenchmarks: @Sendable () -> ModuleBenchmarks?
  private let describeDerivedIndexes: @Sendable () -> [DerivedIndex]

  public var tables: [TableSchema] { describeTables() }
  public var benchmarks: ModuleBenchmarks? { describeBenchmarks() }
  /// Tables its triggers keep in step (a full-text index), which a bulk load may build once instead.
  public var derivedIndexes: [DerivedIndex] { describeDerivedIndexes() }

  public init(
    name: String, migrations: [Migration], tables: @autoclosure @escaping @Sendable () -> [TableSchema],
    benchmarks: @autoclosure @escaping @Sendable () -> ModuleBenchmarks? = nil,
    derivedIndexes: @autoclosure @escaping @Sendable () -> [DerivedIndex] = []
  ) {
    self.name = name
    self.migrations = migrations
    self.describeTables = tables
    self.describeBenchmarks = benchmarks
    self.describeDerivedIndexes = derivedIndexes
  }
}
