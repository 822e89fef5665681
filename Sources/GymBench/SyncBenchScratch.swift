import Foundation
import GymCLI
import GymCore
import GymExport

/// One run of a sync benchmark: a scratch directory, a local directory remote (rclone's local
/// backend) and a new identity; removed with `remove()`.
struct SyncBenchScratch {
  let directory: String
  let remote: String
  let identities: [AgeIdentity]
  let modules: [GymModule]
  let options: Store.Options

  init(_ name: String, modules: [GymModule], options: Store.Options) throws {
    directory = NSTemporaryDirectory() + "gym-bench-\(name)-" + UUID().uuidString
    remote = directory + "/remote"
    try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
    identities = [try AgeIdentity(parsing: AgeIdentity.generate().identity)]
    self.modules = modules
    self.options = options
  }

  func store(_ name: String) throws -> Store {
    try Store(path: directory + "/\(name).sqlite", modules: modules, options: options)
  }

  func job(_ store: Store, _ device: String) -> SyncJob {
    SyncJob(store: store, remote: SyncRemote(remote: remote), identities: identities, configuredDevice: device)
  }

  /// Milliseconds `body` took.
  func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = Date()
    try body()
    return Date().timeIntervalSince(start) * 1000
  }

  /// The reference: an export of `store`'s rows and its import into a new database; the time and
  /// the rows.
  func reference(_ store: Store) throws -> (milliseconds: Double, rows: Int) {
    var rows = 0
    let milliseconds = try timed {
      let (path, manifest) = try ExportJob(
        store: store, options: ExportOptions(out: directory + "/exports"), gymVersion: "bench"
      ).run()
      _ = try ImportJob(
        reader: try ExportReader(path: path), target: directory + "/restored.sqlite", modules: modules,
        options: options
      ).run()
      rows = manifest.totalRows ?? 0
    }
    return (milliseconds, rows)
  }

  /// A compaction that must write a base.
  func compact(_ store: Store, _ device: String) throws {
    guard try SyncCompaction(job: job(store, device), margin: 0).run().base != nil else {
      throw GymError(.failure, "bench sync: the compaction wrote no base")
    }
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
