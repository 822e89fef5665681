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
      let scratch = try SyncBenchScratch("sync", modules: modules, options: options)
      defer { scratch.remove() }
      let first = try scratch.store("first")
      let second = try scratch.store("second")
      func sync(_ store: Store, _ device: String) throws -> Double {
        try scratch.timed { _ = try scratch.job(store, device).run() }
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
      compact.append(try scratch.timed { try scratch.compact(first, "first") })
      let third = try scratch.store("third")
      bootstrap.append(try sync(third, "third"))
      try third.close()
      let measured = try scratch.reference(first)
      reference.append(measured.milliseconds)
      rows = measured.rows
      try first.close()
      try second.close()
    }
    let target = Self.median(reference) * 10
    return [
      Self.row("sync: push \(changes) changes", "sync.push", changes, push, target: target),
      Self.row(
        "sync: pull \(changes), merge with \(changes) of its own, push them", "sync.merge", 2 * changes, merge,
        target: target),
      Self.row("sync: pull \(changes)", "sync.pull", changes, pull, target: target),
      Self.row("sync: compact the \(2 * changes) changes into a base", nil, 2 * changes, compact, target: nil),
      Self.row("sync: a new device starts from the base", "sync.bootstrap", rows, bootstrap, target: target),
      Self.row("export and import of the same rows (the reference)", nil, rows, reference, target: nil),
    ]
  }

  static func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

  static func row(_ name: String, _ id: String?, _ rows: Int, _ samples: [Double], target: Double?) -> [Cell] {
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
