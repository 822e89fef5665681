import Foundation
import GRDB
import GymCLI
import GymCore

/// One `gym sync`: the remote is listed first (a dead remote changes nothing here); every other
/// device's change files this log lacks are fetched and opened; one transaction begins the log
/// (the first time) and integrates them; then this device's changes not yet on the remote are
/// sealed and copied there, each marked once rclone has it; last, this device's applied marker.
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

  struct Refusal {
    let device: String
    let seq: Int64
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
      if let stranger = listing[device]?.subtracting(mine).min() {
        throw GymError(
          .dataError,
          "the remote holds change \(stranger) of '\(device)', which this database never made: another device "
            + "syncs under this name; give that one another name (sync.device) and a fresh database")
      }
    } else if listing[device] != nil {
      throw GymError(
        .configuration,
        "a device named '\(device)' already syncs to \(remote.root); set sync.device to another name for this one")
    }
    let tables = store.syncedTables
    let names = Set(tables.map(\.name))
    var wanted: [(device: String, seq: Int64)] = []
    for (other, sequences) in listing.sorted(by: { $0.key < $1.key }) where other != device {
      let have = existing == nil ? [] : try store.read { try ChangeLog.sequences($0, device: other) }
      wanted += sequences.subtracting(have).sorted().map { (other, $0) }
    }
    let fetched = try remote.download(wanted)
    var entries: [ChangeLog.Entry] = []
    for (other, seq) in wanted {
      guard let sealed = fetched[other]?[seq] else { continue }
      do {
        entries.append(
          try ChangeFile.open(
            sealed, identities: identities, device: other, seq: seq, schema: store.syncSchema, tables: names, now: now))
      } catch {
        report.refused.append(Refusal(device: other, seq: seq, reason: "\(error)"))
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
    let onRemote = listing[device] ?? []
    let unpushed = try store.read { try ChangeLog.unpushed($0, device: device) }
    // A change the remote holds already under its number is this one (a sync stopped before
    // marking it), a file cut short (a copy killed part-way: written again), or another change:
    // this database was restored from a backup, or copied, after making it.
    let there = try remote.download(unpushed.filter { onRemote.contains($0.seq) }.map { (device, $0.seq) })
    var sealed: [(seq: Int64, bytes: [UInt8])] = []
    for entry in unpushed {
      if let bytes = there[device]?[entry.seq],
        let held = try? ChangeFile.open(
          bytes, identities: identities, device: device, seq: entry.seq, schema: store.syncSchema, tables: names,
          now: now)
      {
        guard held == entry else {
          throw GymError(
            .dataError,
            "the remote holds another change \(entry.seq) of '\(device)' than this database's: it was restored "
              + "from a backup or copied after syncing; sync it as a new device (a fresh database, another sync.device)"
          )
        }
        continue
      }
      sealed.append((entry.seq, try ChangeFile.seal(entry, schema: store.syncSchema, to: recipient)))
    }
    try remote.upload(sealed, device: device)
    // Marked only once a listing shows every one there (rclone's own settings, such as a
    // --max-size in the environment, could skip a file and still succeed).
    if !sealed.isEmpty {
      let listed = try remote.list()[device] ?? []
      if let missing = sealed.map(\.seq).first(where: { !listed.contains($0) }) {
        throw Rclone.Failure(status: nil, message: "change \(missing) is not on the remote after rclone copied it")
      }
    }
    try store.write { db in
      for entry in unpushed { try ChangeLog.markPushed(db, device: device, seq: entry.seq) }
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
