import Foundation
import GRDB
import GymCLI
import GymCore

/// `gym sync compact`: replaces the changes every device holds with a base. Every device's applied
/// marker is read first, then this device syncs (so it holds every change made before any of those
/// markers); the base is the longest run of the log, in its order, that every marker covers and
/// that no change yet to come can sort before: none after the earliest of the markers' clock
/// readings (each device's later changes are later), and none newer than `margin` (a device that
/// joins meanwhile sorts its first change after what it found and after its own clock, which may
/// be behind, but not by that much). The base
/// is written to the remote, then each device's files it wholly stands for and the older bases are
/// removed (advisory: a failure there leaves the base, and the files, with a note).
public struct SyncCompaction: Sendable {
  let job: SyncJob
  /// How far behind now a base ends at the latest.
  let margin: TimeInterval

  public init(job: SyncJob, margin: TimeInterval = 3600) {
    self.job = job
    self.margin = max(0, margin)
  }

  public struct Report: Sendable {
    public internal(set) var sync = SyncJob.Report()
    /// The base written, known by its clock reading; nil when there was nothing new to compact.
    public internal(set) var base: Int64?
    /// Per device, the changes 1 through this that the base stands for.
    public internal(set) var covers: [String: Int64] = [:]
    public internal(set) var removed = 0
    /// Why the files the base stands for were not removed, when they were not.
    public internal(set) var removalFailure: String?
    /// The other device whose marker's clock is the earliest, when it is earlier than the margin:
    /// what holds the cut back.
    public internal(set) var earliest: String?
  }

  public func run(now: Date = Date()) throws -> Report {
    do {
      return try attempt(now: now)
    } catch let failure as Rclone.Failure {
      throw GymError(
        Rclone.status(of: failure),
        "compacting '\(job.remote.remote)' failed: \(failure.message) (try again later)")
    }
  }

  private func attempt(now: Date) throws -> Report {
    let remote = job.remote
    let store = job.store
    let recipient = try ChangeFile.recipient(of: job.identities)
    // The markers before the sync's listing: every change made before one of them is on the remote
    // by then, and the sync pulls it.
    // This device's own is made anew after its sync.
    let own = try store.read { try ChangeLog.device($0) }
    let devices = try remote.list().files.keys.sorted().filter { $0 != own }
    let sealed = try remote.downloadMarkers(devices)
    var markers: [String: AppliedMarker] = [:]
    for device in devices {
      guard let bytes = sealed[device] else {
        throw GymError(
          .temporaryFailure,
          "'\(device)' has not said what it has applied yet: compact after it syncs (with this gym)")
      }
      let marker: AppliedMarker
      do { marker = try AppliedMarker.open(bytes, identities: job.identities, device: device) } catch {
        throw GymError(.dataError, "refused \(remote.root)/\(device)/\(AppliedMarker.fileName): \(error)")
      }
      guard marker.clock != nil else {
        throw GymError(
          .temporaryFailure,
          "'\(device)' last synced with a gym that does not say its clock: compact after it syncs with this one")
      }
      markers[device] = marker
    }
    var report = Report()
    report.sync = try job.run(now: now)
    // A file refused: the caller names it; nothing is compacted.
    guard report.sync.refused.isEmpty else { return report }
    let device = report.sync.device
    markers[device] = try store.read { try AppliedMarker.current($0, device: device, at: now) }
    let settled = HybridClock.next(after: nil, now: now.addingTimeInterval(-margin))
    let floor = min(markers.values.compactMap(\.clock).min() ?? 0, settled)
    report.earliest =
      markers.filter { $0.key != device && ($0.value.clock ?? 0) < settled }
      .min { ($0.value.clock ?? 0, $0.key) < ($1.value.clock ?? 0, $1.key) }?.key
    var applied: [String: Int64] = [:]
    for name in Set(markers.values.flatMap(\.applied.keys)) {
      applied[name] = markers.values.map { $0.applied[name] ?? 0 }.min()
    }
    let listing = try remote.list()
    let tables = store.syncedTables
    guard
      let base = try store.writeSyncing({ db in
        try SyncBase.make(db, floor: floor, applied: applied, tables: tables)
      }), base.hlc > listing.bases.last ?? 0
    else { return report }
    try remote.uploadBase(try BaseFile.seal(base, schema: store.syncSchema, to: recipient), hlc: base.hlc)
    let after = try remote.list()
    guard after.bases.contains(base.hlc) else {
      throw Rclone.Failure(
        status: nil, message: "base \(BaseFile.name(hlc: base.hlc)) is not on the remote after rclone copied it",
        transient: true)
    }
    // A device that appeared meanwhile (its first push, unseen by the markers) may hold changes
    // from before the cut that the base lacks: then the base goes again, and nothing is removed.
    let newcomers = after.files.keys.sorted().filter { markers[$0] == nil && $0 != device }
    let files = newcomers.flatMap { name in after.ranges(name).map { (name, $0) } }
    let fetched = try remote.download(files.map { ($0.0, $0.1.upperBound) })
    for (name, range) in files {
      guard let bytes = fetched[name]?[range.upperBound] else { continue }
      let changes = try? ChangeFile.open(
        bytes, identities: job.identities, device: name, first: SyncListing.first(of: range),
        last: range.upperBound, schema: store.syncSchema, tables: Set(tables.map(\.name)), now: now)
      if changes?.contains(where: { $0.hlc <= base.hlc && $0.seq > base.covers[name] ?? 0 }) ?? true {
        try remote.delete([BaseFile.folder + "/" + BaseFile.name(hlc: base.hlc)])
        throw GymError(
          .temporaryFailure,
          "'\(name)' pushed its first changes while the base was made, from before it (or in a file that does not "
            + "open here); the base was withdrawn and nothing removed: compact again")
      }
    }
    report.base = base.hlc
    report.covers = base.covers
    // What the base stands for wholly: each device's files up to its mark, and the older bases.
    // A device's newest file always stays: the remote keeps saying how far each device got (a
    // database restored from a backup is refused by it, and a device never numbers a change again).
    var doomed: [String] = []
    for (name, lasts) in after.files.sorted(by: { $0.key < $1.key }) {
      doomed += lasts.dropLast().filter { $0 <= base.covers[name] ?? 0 }.map { name + "/" + ChangeFile.name(last: $0) }
    }
    doomed += after.bases.filter { $0 < base.hlc }.map { BaseFile.folder + "/" + BaseFile.name(hlc: $0) }
    do {
      try remote.delete(doomed)
      report.removed = doomed.count
    } catch let failure as Rclone.Failure {
      report.removalFailure = failure.message
    }
    return report
  }
}
