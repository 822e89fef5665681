import Foundation
import GymCLI
import GymCore
import GymExport

/// `gym bench --module sync --base N`: a device holding N records of its own before it ever synced
/// (history: N workouts, loaded as an import loads them) syncs for the first time (its rows get their
/// keys and become one change, pushed), compacts (a base of them all), and a new device starts from
/// that base. Beside them, the reference: an export of the same rows and its import into a new
/// database. Target: the new device's start within ten times the reference (the same order).
struct SyncBaseBenchmark {
  let modules: [GymModule]
  let options: Store.Options
  let records: Int
  let `repeat`: Int

  func run() throws -> [[Cell]] {
    let fills = modules.compactMap { $0.benchmarks?.base }
    guard !fills.isEmpty else { throw GymError.usage("no module fills a base for the sync benchmark") }
    var first: [Double] = []
    var compact: [Double] = []
    var bootstrap: [Double] = []
    var reference: [Double] = []
    var rows = 0
    for _ in 0..<max(1, `repeat`) {
      let scratch = try SyncBenchScratch("base", modules: modules, options: options)
      defer { scratch.remove() }
      let holder = try scratch.store("holder")
      try holder.write { db in
        for fill in fills { try fill(db, records) }
      }
      let measured = try scratch.reference(holder)
      reference.append(measured.milliseconds)
      rows = measured.rows
      first.append(try scratch.timed { _ = try scratch.job(holder, "holder").run() })
      compact.append(try scratch.timed { try scratch.compact(holder, "holder") })
      let newcomer = try scratch.store("newcomer")
      bootstrap.append(try scratch.timed { _ = try scratch.job(newcomer, "newcomer").run() })
      try newcomer.close()
      try holder.close()
    }
    let target = SyncBenchmark.median(reference) * 10
    return [
      SyncBenchmark.row("sync: first sync of \(rows) rows (keyed, one change)", nil, rows, first, target: nil),
      SyncBenchmark.row("sync: compact them into a base", nil, rows, compact, target: nil),
      SyncBenchmark.row(
        "sync: a new device starts from the base", "sync.bootstrap_base", rows, bootstrap,
        target: target),
      SyncBenchmark.row("export and import of the same rows (the reference)", nil, rows, reference, target: nil),
    ]
  }
}
