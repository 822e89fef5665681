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
  private let describeDoctorChecks: @Sendable () -> [DoctorCheck]
  private let describeSyncedTables: @Sendable () -> [SyncedTable]
  /// Gives rows of the synced tables that lack one their global key (rows a bulk load added by
  /// rowid), moving references along: run when sync begins, before the tables' rows are recorded.
  public let assignSyncKeys: @Sendable (Database) throws -> Void
  /// Synced tables whose new rows get their keys at the end of each write, before it is recorded
  /// (rows a load added at SQLite's next rowid), parents first.
  public let rowKeyings: [RowKeying]

  public var tables: [TableSchema] { describeTables() }
  public var benchmarks: ModuleBenchmarks? { describeBenchmarks() }
  /// Tables its triggers keep in step (a full-text index), which a bulk load may build once instead.
  public var derivedIndexes: [DerivedIndex] { describeDerivedIndexes() }
  /// What `gym doctor` asks of the module's data, beside its own checks of the file and schema.
  public var doctorChecks: [DoctorCheck] { describeDoctorChecks() }
  /// Tables `gym sync` shares between devices: their keys are global (`GlobalKey`), and the store
  /// records every change to them once sync has begun.
  public var syncedTables: [SyncedTable] { describeSyncedTables() }

  public init(
    name: String, migrations: [Migration], tables: @autoclosure @escaping @Sendable () -> [TableSchema],
    benchmarks: @autoclosure @escaping @Sendable () -> ModuleBenchmarks? = nil,
    derivedIndexes: @autoclosure @escaping @Sendable () -> [DerivedIndex] = [],
    doctorChecks: @autoclosure @escaping @Sendable () -> [DoctorCheck] = [],
    syncedTables: @autoclosure @escaping @Sendable () -> [SyncedTable] = [],
    assignSyncKeys: @escaping @Sendable (Database) throws -> Void = { _ in },
    rowKeyings: [RowKeying] = []
  ) {
    self.name = name
    self.migrations = migrations
    self.describeTables = tables
    self.describeBenchmarks = benchmarks
    self.describeDerivedIndexes = derivedIndexes
    self.describeDoctorChecks = doctorChecks
    self.describeSyncedTables = syncedTables
    self.assignSyncKeys = assignSyncKeys
    self.rowKeyings = rowKeyings
  }
}

/// One check `gym doctor` runs on a module's data, read only: its name, and what it found —
/// `ok` with what holds, or a note on what to do (a warning: it does not fail the doctor).
public struct DoctorCheck: Sendable {
  public let name: String
  public let run: @Sendable (Database) throws -> (ok: Bool, detail: String)

  public init(name: String, run: @escaping @Sendable (Database) throws -> (ok: Bool, detail: String)) {
    self.name = name
    self.run = run
  }
}
