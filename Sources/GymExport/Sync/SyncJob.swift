import Foundation
import GRDB
import GymCLI
import GymCore

/// One `gym sync`: the remote is listed first (a dead remote changes nothing here); every other
/// device's change files this log lacks are fetched and opened; one transaction begins the log
/// (the first time) and integrates them; then this device's changes not yet on the remote are
/// sealed into one file and copied there, marked once rclone has it; last, this device's applied
/// marker.
public struct SyncJob: Sendable {
  let store: Store
  let remote: SyncRemote
  let identities: [AgeIdentity]
  /// `sync.device`: the name this device takes when sync begins here.
  let configuredDevice: String?

  public init(store: Store, remote: SyncRemote, identities: [AgeIdentity], configuredDevice: String?) {
    self.store = store
    self.remote = remote
    self.identities = identities
    self.configuredDevice = configuredDevice
  }

  /// A change file that did not open: the device's folder and the last change it names.
  struct Refusal {
    let device: String
    let last: Int64
    let reason: String
  }

  public struct Report: Sendable {
    public internal(set) var device = ""
    public internal(set) var began = false
    public internal(set) var pulled = 0
    public internal(set) var pushed = 0
    var integration = ChangeLog.Integration()
    var refused: [Refusal] = []
    /// Why this device's applied marker could not be written, when it could not.
    public internal(set) var markerFailure: String?
  }

  /// Runs once; a remote that fails is a `GymError` (75, or 78 when rclone's configuration cannot work).
  public func run(now: Date = Date()) throws -> Report {
    do {
      return try attempt(now: now)
    } catch let failure as Rclone.Failure {
      throw GymError(
        Rclone.status(of: failure), "sync through '\(remote.remote)' failed: \(failure.message) (try again later)")
    }
  }

  private func attempt(now: Date) throws -> Report {
    let recipient = try ChangeFile.recipient(of: identities)
    let listing = try remote.list()
    let existing = try store.read { try ChangeLog.device($0) }
    var report = Report()
    report.device = existing ?? configuredDevice ?? DeviceName.random()
    report.began = existing == nil
    var device = report.device
    if existing != nil {
      let mine = try store.read { try ChangeLog.sequences($0, device: device) }
      if let stranger = listing.sequences(device).subtracting(mine).min() {
        throw GymError(
          .dataError,
          "the remote holds change \(stranger) of '\(device)', which this database never made: another device "
            + "syncs under this name; give that one another name (sync.device) and a fresh database")
      }
    } else if listing.files[device] != nil {
      throw GymError(
        .configuration,
        "a device named '\(device)' already syncs to \(remote.root); set sync.device to another name for this one")
    }
    let tables = store.syncedTables
    let names = Set(tables.map(\.name))
    // Every file of another device holding a change this log lacks.
    var wanted: [(device: String, range: ClosedRange<Int64>)] = []
    for other in listing.files.keys.sorted() where other != device {
      let have = existing == nil ? [] : try store.read { try ChangeLog.sequences($0, device: other) }
      wanted += listing.ranges(other).filter { !$0.allSatisfy(have.contains) }.map { (other, $0) }
    }
    let fetched = try remote.download(wanted.map { ($0.device, $0.range.upperBound) })
    var entries: [ChangeLog.Entry] = []
    for (other, range) in wanted {
      guard let sealed = fetched[other]?[range.upperBound] else { continue }
      do {
        entries += try ChangeFile.open(
          sealed, identities: identities, device: other, first: range.lowerBound, last: range.upperBound,
          schema: store.syncSchema, tables: names, now: now)
      } catch {
        report.refused.append(Refusal(device: other, last: range.upperBound, reason: "\(error)"))
      }
    }
    report.pulled = entries.count
    let began = device
    (report.integration, device) = try store.writeSyncing { db in
      // Begun here unless another sync of this database began it since it was read above: then
      // this one goes on under the name that one took.
      if try ChangeLog.device(db) == nil {
        try store.assignSyncKeys(db)
        try ChangeLog.begin(db, device: began, tables: tables, now: now)
      }
      return (try ChangeLog.integrate(db, entries, tables: tables), try ChangeLog.device(db) ?? began)
    }
    report.device = device
    let unpushed = try store.read { try ChangeLog.unpushed($0, device: device) }
    let waiting = Set(unpushed.map(\.seq))
    // A file on the remote holding a change not marked pushed holds this one (a sync stopped
    // before marking it), is cut short (a copy killed part-way: written again, the same changes),
    // or holds others: this database was restored from a backup, or copied, after making them.
    let onRemote = listing.ranges(device).filter { $0.contains(where: waiting.contains) }
    let there = try remote.download(onRemote.map { (device, $0.upperBound) })
    var sealed: [(last: Int64, bytes: [UInt8])] = []
    for range in onRemote {
      let mine = try store.read {
        try ChangeLog.entries($0, device: device, from: range.lowerBound, through: range.upperBound)
      }
      if let bytes = there[device]?[range.upperBound],
        let held = try? ChangeFile.open(
          bytes, identities: identities, device: device, first: range.lowerBound, last: range.upperBound,
          schema: store.syncSchema, tables: names, now: now)
      {
        guard held == mine else {
          let differs = zip(held, mine).first(where: { $0 != $1 })?.0.seq ?? range.lowerBound
          throw GymError(
            .dataError,
            "the remote holds another change \(differs) of '\(device)' than this database's: it was restored "
              + "from a backup or copied after syncing; sync it as a new device (a fresh database, another sync.device)"
          )
        }
        continue
      }
      sealed.append((range.upperBound, try ChangeFile.seal(mine, schema: store.syncSchema, to: recipient)))
    }
    // The rest, after the remote's last file: as few files as the pack limit allows, usually one.
    let newest = listing.files[device]?.last ?? 0
    for pack in ChangeFile.packs(unpushed.filter { $0.seq > newest }) {
      sealed.append((pack[pack.count - 1].seq, try ChangeFile.seal(pack, schema: store.syncSchema, to: recipient)))
    }
    try remote.upload(sealed, device: device)
    // Marked only once a listing shows every one there (rclone's own settings, such as a
    // --max-size in the environment, could skip a file and still succeed).
    if !sealed.isEmpty {
      let listed = Set<Int64>(try remote.list().files[device] ?? [])
      if let missing = sealed.map(\.last).first(where: { !listed.contains($0) }) {
        throw Rclone.Failure(
          status: nil,
          message: "change file \(ChangeFile.name(last: missing)) is not on the remote after rclone copied it")
      }
    }
    try store.write { db in
      if let last = unpushed.last { try ChangeLog.markPushed(db, device: device, through: last.seq) }
      try db.execute(
        sql: "INSERT INTO sync_run (at, remote, pulled, pushed, refused) VALUES (?, ?, ?, ?, ?)",
        arguments: [
          ISO8601DateFormatter().string(from: now), remote.remote, report.pulled, unpushed.count,
          report.refused.count,
        ])
    }
    report.pushed = unpushed.count
    // Last: what this device now holds of everyone's, for the others' status. Advisory: a remote
    // that takes no rewrite (an immutable one) or fails here leaves the sync done, and says so.
    let marker = try store.read { try AppliedMarker.current($0, device: device, at: now) }
    do {
      try remote.uploadMarker(try marker.seal(to: recipient), device: device)
    } catch let failure as Rclone.Failure {
      report.markerFailure = failure.message
    }
    return report
  }
}
