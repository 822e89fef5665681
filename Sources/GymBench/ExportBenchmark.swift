import Foundation
import GymCLI
import GymCore
import GymExport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Export and import throughput on the benchmark database: a full NDJSON+gzip export, the same
/// export encrypted to an age recipient (target: 1.3× the plain one's median in the same run), then
/// the plain export's restore into a new database (target: 300,000 rows a second), each timed end
/// to end (median of `repeat`), rows per second. Plain and encrypted runs alternate, so a drift in the machine touches both alike.
/// Each timed step starts after `sync()`, as `make bench`'s whole-process runs do: otherwise the kernel
/// is still writing back the previous step's hundreds of megabytes on the same two cores.
struct ExportBenchmark {
  let store: Store
  let `repeat`: Int

  func run() throws -> [[Cell]] {
    let scratch = NSTemporaryDirectory() + "gym-bench-export-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    var exportSamples: [Double] = []
    var encryptedSamples: [Double] = []
    var importSamples: [Double] = []
    var rows = 0
    var exportPeak: Double?
    var encryptedPeak: Double?
    var importPeak: Double?
    var encrypted = ExportOptions(out: "")
    encrypted.recipients = [try AgeRecipient(parsing: AgeIdentity.generate().recipient)]
    for run in 0..<max(1, `repeat`) {
      let out = scratch + "/exports-\(run)"
      sync()
      PeakMemory.reset()
      var start = Date()
      let (path, manifest) = try ExportJob(store: store, options: ExportOptions(out: out), gymVersion: "bench").run()
      exportSamples.append(Date().timeIntervalSince(start) * 1000)
      exportPeak = PeakMemory.mebibytes()
      rows = manifest.totalRows ?? 0
      encrypted.out = scratch + "/encrypted-\(run)"
      sync()
      PeakMemory.reset()
      start = Date()
      _ = try ExportJob(store: store, options: encrypted, gymVersion: "bench").run()
      encryptedSamples.append(Date().timeIntervalSince(start) * 1000)
      encryptedPeak = PeakMemory.mebibytes()
      try? FileManager.default.removeItem(atPath: encrypted.out)
      sync()
      PeakMemory.reset()
      start = Date()
      _ = try ImportJob(
        reader: try ExportReader(path: path), target: scratch + "/restored-\(run).sqlite", modules: store.modules,
        options: Store.Options(busyTimeoutMilliseconds: store.options.busyTimeoutMilliseconds)
      ).run()
      importSamples.append(Date().timeIntervalSince(start) * 1000)
      importPeak = PeakMemory.mebibytes()
      try? FileManager.default.removeItem(atPath: scratch + "/restored-\(run).sqlite")
      try? FileManager.default.removeItem(atPath: out)
    }
    return [
      row(
        "export, NDJSON + gzip -6 (rows/s: \(perSecond(rows, exportSamples)))", "export.ndjson_gzip", rows,
        exportSamples, exportPeak),
      row(
        "export, + age encryption (rows/s: \(perSecond(rows, encryptedSamples)); "
          + String(format: "%.2f× plain)", median(encryptedSamples) / max(median(exportSamples), 0.001)),
        "export.ndjson_gzip_age", rows, encryptedSamples, encryptedPeak, target: median(exportSamples) * 1.3),
      // Target: 300,000 rows a second, the export being at this gym's schema (the one-pass load).
      row(
        "import of that export (rows/s: \(perSecond(rows, importSamples)))", "export.import", rows, importSamples,
        importPeak, target: Double(rows) / 300),
    ]
  }

  private func perSecond(_ rows: Int, _ samples: [Double]) -> Int {
    Int(Double(rows) / max(median(samples), 0.001) * 1000)
  }

  private func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

  private func row(
    _ name: String, _ id: String, _ rows: Int, _ samples: [Double], _ peak: Double?, target: Double? = nil
  ) -> [Cell] {
    let sorted = samples.sorted()
    let p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
    return [
      .text("export"), .text(name), .text(id), .integer(Int64(rows)), .real((median(samples) * 1000).rounded() / 1000),
      .real((p95 * 1000).rounded() / 1000), peak.map(Cell.real) ?? .null,
      target.map { .real(($0 * 1000).rounded() / 1000) } ?? .null,
      .text(target.map { median(samples) <= $0 ? "pass" : "FAIL" } ?? ""), .null,
    ]
  }
}
