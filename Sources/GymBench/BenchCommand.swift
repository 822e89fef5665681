import ArgumentParser
import Foundation
import GRDB
import GymCLI
import GymCore
import GymExport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `gym bench`: times every registered module's workloads in-process and prints medians.
public struct BenchCommand: GymCommand {
  public static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure gym's queries against its performance targets.",
    discussion: HelpExamples.discussion(
      """
      Without --database, fills a temporary database with --scale generated records per module. \
      Times are of the query alone, in-process (no start-up); each workload runs until it has \
      --repeat samples, and the median (p50) and p95 are reported, with the process's peak memory \
      during the workload. Targets come from bench.targets in the configuration (the seeds' \
      targets by default). The export module times a full export and its import; the sync module, \
      asked for by name, two devices syncing --scale changes each way through a local directory (rclone), \
      beside an export and an import of the same rows.
      """,
      examples: [
        "gym bench --module staples --scale 1000 --repeat 3"
      ]))

  @OptionGroup(title: "Common options") public var global: GlobalOptions
  @Option(help: "Generated records per module, for a temporary database (the default runs in about a minute).")
  var scale = 20_000
  @Option(help: "Samples per workload (fewer when a workload's samples take over 3 s; at least 3).") var `repeat` = 50
  @Option(name: .customLong("module"), help: "Only this module (repeatable; default: all).") var only: [String] = []
  @Option(
    help: """
      With the sync module: also time a new device starting from a base of this many records \
      (history's workouts) that another device synced and compacted (0: not timed).
      """)
  var base = 0
  @OptionGroup var formatting: FormatOptions
  /// Not `output.format`: this output is meant for a pipe or a person as it is.
  var format: OutputFormat { formatting.format ?? .table }
  @Flag(help: "Exit 1 when a target is missed.") var check = false
  @Flag(help: "Keep the generated database and print its path.") var keep = false

  public init() {}

  public func validate() throws {
    if scale < 1 { throw ValidationError("--scale must be 1 or more") }
    if `repeat` < 1 { throw ValidationError("--repeat must be 1 or more") }
    if base < 0 { throw ValidationError("--base must be 0 or more") }
  }

  public func run(context: CommandContext) throws {
    let unknown = only.filter { name in
      name != "export" && name != "sync" && !ModuleRegistry.modules.contains { $0.name == name }
    }
    if !unknown.isEmpty {
      throw GymError.usage(
        "no module \(unknown.joined(separator: ", ")); modules: \(ModuleRegistry.modules.map(\.name).joined(separator: ", "))"
      )
    }
    let modules = ModuleRegistry.modules.filter { $0.benchmarks != nil && (only.isEmpty || only.contains($0.name)) }
    let (store, scratch) = try openStore(context, modules: modules)
    defer { if let scratch, !keep { try? FileManager.default.removeItem(atPath: scratch) } }
    let writer = RecordWriter(
      format: format,
      columns: ["module", "operation", "id", "rows", "p50_ms", "p95_ms", "peak_mib", "target_ms", "result", "plan"])
    let targets = context.configuration.numbers(.benchTargets)
    let workloads = try Self.workloads(store, modules: modules)
    if only.isEmpty { try Self.checkTargets(context.configuration, known: workloads.flatMap(\.1).compactMap(\.id)) }
    let measured = try Self.measure(store, workloads: workloads, repeat: `repeat`, targets: targets)
    for row in measured.rows { writer.write(row) }
    var missed = measured.missed
    if only.isEmpty || only.contains("export") {
      for row in try ExportBenchmark(store: store, repeat: min(`repeat`, 3)).run() {
        writer.write(row)
        if case .text("FAIL") = row[8] { missed = true }
      }
    }
    if only.contains("sync") {
      let sync = SyncBenchmark(
        modules: ModuleRegistry.modules, options: context.configuration.storeOptions, changes: scale,
        repeat: min(`repeat`, 3))
      var rows = try sync.run()
      if base > 0 {
        rows += try SyncBaseBenchmark(
          modules: ModuleRegistry.modules, options: context.configuration.storeOptions, records: base,
          repeat: min(`repeat`, 3)
        ).run()
      }
      for row in rows {
        writer.write(row)
        if case .text("FAIL") = row[8] { missed = true }
      }
    }
    writer.finish(next: nil)
    if keep, let scratch { printNote("kept the benchmark database: \(scratch)/gym.sqlite") }
    if check && missed { throw ExitCode(ExitStatus.failure.rawValue) }
  }

  /// Each module's workloads, prepared against the filled `store`. The modules are whichever the
  /// registry holds: bench names none of them.
  public static func workloads(_ store: Store, modules: [GymModule]) throws -> [(GymModule, [BenchWorkload])] {
    try modules.compactMap { module in
      guard let benchmarks = module.benchmarks else { return nil }
      return (module, try store.read { try benchmarks.workloads($0) })
    }
  }

  /// The workloads timed on `store`, one row each (module, operation, id, rows, p50, p95, peak,
  /// target, result, plan), and whether any missed its target.
  public static func measure(
    _ store: Store, workloads workloadsByModule: [(GymModule, [BenchWorkload])], repeat: Int,
    targets: [String: Double]
  ) throws -> (rows: [[Cell]], missed: Bool) {
    var table: [[Cell]] = []
    var missed = false
    for (module, workloads) in workloadsByModule {
      for workload in workloads {
        let progress = ProgressLine("bench \(module.name): \(workload.name)")
        var samples: [Double] = []
        var rows = 0
        PeakMemory.reset()
        // A write runs in a savepoint that is rolled back: every sample starts from the same data.
        let once: (Database) throws -> Int = { db in
          guard workload.writes else { return try workload.run(db) }
          var count = 0
          try db.inSavepoint {
            count = try workload.run(db)
            return .rollback
          }
          return count
        }
        let sample: (Database) throws -> Void = { db in
          rows = try once(db)  // warm the page cache and the statement cache
          // --repeat samples, or as many as fit in the time budget (at least three): a slow
          // workload on a large database does not hold the whole run up.
          let began = DispatchTime.now().uptimeNanoseconds
          for i in 0..<`repeat` {
            let start = DispatchTime.now().uptimeNanoseconds
            rows = try once(db)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            progress.update(i * 1024)
            if i >= 2 && Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9 > Self.budgetSeconds { break }
          }
        }
        if workload.writes { try store.write(sample) } else { try store.read(sample) }
        progress.finish()
        samples.sort()
        let p50 = samples[samples.count / 2]
        let p95 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.95))]
        let target = workload.id.flatMap { targets[$0] } ?? workload.targetMilliseconds
        let result = target.map { p50 <= $0 ? "pass" : "FAIL" } ?? ""
        if result == "FAIL" { missed = true }
        table.append([
          .text(module.name), .text(workload.name), workload.id.map(Cell.text) ?? .null, .integer(Int64(rows)),
          .real(Self.round(p50)), .real(Self.round(p95)), PeakMemory.mebibytes().map(Cell.real) ?? .null,
          target.map(Cell.real) ?? .null, .text(result), workload.plan.map(Cell.text) ?? .null,
        ])
      }
    }
    return (table, missed)
  }

  static func round(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

  /// A target for a workload that does not exist is a typo that would silently measure nothing.
  static func checkTargets(_ configuration: GymCLI.Configuration, known: [String]) throws {
    let entries = configuration.mappings[ConfigKey.benchTargets.name] ?? [:]
    for (id, entry) in entries.sorted(by: { $0.key < $1.key }) where !known.contains(id) {
      throw GymError(
        .configuration,
        "\(entry.source): unknown workload '\(id)' in bench.targets; workloads: \(known.sorted().joined(separator: ", "))"
      )
    }
  }

  /// Time one workload may take to gather its samples.
  static let budgetSeconds = 3.0

  /// The database given with --database, or a new temporary one filled with generated data.
  private func openStore(_ context: CommandContext, modules: [GymModule]) throws -> (Store, String?) {
    if global.database != nil { return (try context.openStore(), nil) }
    let scratch = NSTemporaryDirectory() + "gym-bench-" + UUID().uuidString
    let store = try Store(
      path: scratch + "/gym.sqlite", modules: ModuleRegistry.modules, options: context.configuration.storeOptions)
    let progress = ProgressLine("generating \(scale) records per module")
    try store.write { db in
      for module in modules { try module.benchmarks!.generate(db, scale) }
    }
    progress.finish()
    return (store, scratch)
  }
}
