import Foundation
import GymCLI
import GymCore
import GymExport

/// `gym bench --module sync`: two devices, each with `changes` changes of its own (one small write
/// each, in its own transaction: a module's `ModuleBenchmarks.change`), sync through a local
/// directory remote (rclone's local backend). The first pushes its changes; the second pulls them,
/// merges them with its own (its own sort after them: undone and applied again) and pushes its own;
/// the first pulls those. Then the first compacts (a base of every row both hold) and a third
/// device starts from that base. Beside them, the reference: an export of the same rows (the first
/// device's, every change of both) and its import into a new database. Target: each sync, and the
/// new device's start, within ten times the export and the import together (the same order of
/// magnitude), in the same run; the compaction is shown without one.
struct SyncBenchmark {
  let modules: [GymModule]
  let options: Store.Options
  let changes: Int
  let `repeat`: Int

  func run() throws -> [[Cell]] {
    guard let change = modules.compactMap({ $0.benchmarks?.change }).first else {
      throw GymError.usage("no module makes changes for the sync benchmark")
    }
    var push: [Double] = []
    var merge: [Double] = []
    var pull: [Double] = []
    var compact: [Double] = []
    var bootstrap: [Double] = []
    var reference: [Double] = []
    var rows = 0
    for _ in 0..<max(1, `repeat`) {
      let scratch = NSTemporaryDirectory() + "gym-bench-sync-" + UUID().uuidString
      defer { try? FileManager.default.removeItem(atPath: scratch) }
      let remote = scratch + "/remote"
      try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
      let identities = [try AgeIdentity(parsing: AgeIdentity.generate().identity)]
      let first = try Store(path: scratch + "/first.sqlite", modules: modules, options: options)
      let second = try Store(path: scratch + "/second.sqlite", modules: modules, options: options)
      func job(_ store: Store, _ device: String) -> SyncJob {
        SyncJob(store: store, remote: SyncRemote(remote: remote), identities: identities, configuredDevice: device)
      }
      func sync(_ store: Store, _ device: String) throws -> Double {
        let start = Date()
        _ = try job(store, device).run()
        return Date().timeIntervalSince(start) * 1000
      }
      _ = try sync(first, "first")
      _ = try sync(second, "second")
      let progress = ProgressLine("bench sync: \(changes) changes on each device")
      for i in 0..<changes {
        try first.write { try change($0, i) }
        progress.update(i)
      }
      for i in changes..<(2 * changes) {
        try second.write { try change($0, i) }
        progress.update(i)
      }
      progress.finish()
      push.append(try sync(first, "first"))
      merge.append(try sync(second, "second"))
      pull.append(try sync(first, "first"))
      let compacting = Date()
      guard try SyncCompaction(job: job(first, "first"), margin: 0).run().base != nil else {
        throw GymError(.failure, "bench sync: the compaction wrote no base")
      }
      compact.append(Date().timeIntervalSince(compacting) * 1000)
      let third = try Store(path: scratch + "/third.sqlite", modules: modules, options: options)
      bootstrap.append(try sync(third, "third"))
      try third.close()
      let start = Date()
      let (path, manifest) = try ExportJob(
        store: first, options: ExportOptions(out: scratch + "/exports"), gymVersion: "bench"
      ).run()
      _ = try ImportJob(
        reader: try ExportReader(path: path), target: scratch + "/restored.sqlite", modules: modules, options: options
      ).run()
      reference.append(Date().timeIntervalSince(start) * 1000)
      rows = manifest.totalRows ?? 0
      try first.close()
      try second.close()
    }
    let target = median(reference) * 10
    return [
      row("sync: push \(changes) changes", "sync.push", changes, push, target: target),
      row(
        "sync: pull \(changes), merge with \(changes) of its own, push them", "sync.merge", 2 * changes, merge,
        target: target),
      row("sync: pull \(changes)", "sync.pull", changes, pull, target: target),
      row("sync: compact the \(2 * changes) changes into a base", nil, 2 * changes, compact, target: nil),
      row("sync: a new device starts from the base", "sync.bootstrap", rows, bootstrap, target: target),
      row("export and import of the same rows (the reference)", nil, rows, reference, target: nil),
    ]
  }

  private func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

  private func row(_ name: String, _ id: String?, _ rows: Int, _ samples: [Double], target: Double?) -> [Cell] {
    let sorted = samples.sorted()
    let p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
    return [
      .text("sync"), .text(name), id.map(Cell.text) ?? .null, .integer(Int64(rows)),
      .real(BenchCommand.round(median(samples))), .real(BenchCommand.round(p95)), .null,
      target.map { .real(BenchCommand.round($0)) } ?? .null,
      .text(target.map { median(samples) <= $0 ? "pass" : "FAIL" } ?? ""), .null,
    ]
  }
}
