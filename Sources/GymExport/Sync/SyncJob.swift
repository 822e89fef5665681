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
    /// The base a new device started from (the clock reading it is known by), and how many
    /// changes it stands for.
    public internal(set) var adopted: (hlc: Int64, changes: Int64)?
    /// This device's changes given new clock readings after a base made while they waited.
    public internal(set) var retimed = 0
    /// Tables this log records since this sync (a later gym made them sync): their rows became a change.
    public internal(set) var begunLater: [String] = []
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

  /// A change the remote no longer holds (before the last file of its device, or in the newest base
  /// that `covers` describes), that this log lacks and that no refused file may hold: removed by a
  /// compaction this database had not synced before (or lost). It can never be pulled, so the sync
  /// stops (65) before anything changes.
  static func refuseGaps(
    listing: SyncListing, covers: [String: Int64], have: [String: Set<Int64>], entries: [ChangeLog.Entry],
    refused: [Refusal]
  ) throws {
    var arriving: [String: Set<Int64>] = [:]
    for entry in entries { arriving[entry.device, default: []].insert(entry.seq) }
    for device in Set(have.keys).union(covers.keys).sorted() {
      let held = have[device] ?? []
      let ranges = listing.ranges(device)
      let newest = max(ranges.last?.upperBound ?? 0, covers[device] ?? 0)
      guard newest > 0 else { continue }
      // What the refused files may hold: tried again at the next sync, not missing.
      let unread = ranges.filter { range in refused.contains { $0.device == device && $0.last == range.upperBound } }
      let missing = (1...newest).first { seq in
        !held.contains(seq) && !(arriving[device]?.contains(seq) ?? false) && !unread.contains { $0.contains(seq) }
      }
      if let missing {
        throw GymError(
          .dataError,
          "change \(missing) of '\(device)' is no longer on the remote and this database lacks it (a compaction "
            + "removed it before this database synced it): sync this database as a new device (a fresh database, "
            + "another sync.device)")
      }
    }
  }

  /// A device that began syncing with one identity and is given another would push files that no
  /// other device opens, refused by each of them from then on: refused here (78) before anything
  /// changes. The identity's recipient is recorded at the first sync (`sync/005-device-recipient`).
  /// A device that began before that is checked against the newest file it finds on the remote (its
  /// own, else another device's, else the newest base), opened with the key it pushes to. Returns
  /// whether the recipient may be recorded: it is already, or such a file opened, or the remote holds
  /// none to tell by; not when that file is damaged (the sync goes on, and a later one records it).
  private func checkIdentity(listing: SyncListing, device: String, recipient: AgeRecipient) throws -> Bool {
    let given = recipient.string ?? ""
    if let recorded = try store.read({ try ChangeLog.recipient($0) }) {
      guard recorded != given else { return true }
      throw GymError(
        .configuration,
        "this device began syncing with the identity whose recipient is \(recorded), and the identity given is "
          + "\(given)'s: give the identity the other devices sync with (--identity or sync.identity); "
          + "nothing was changed or pushed")
    }
    let sealed: Data?
    let path: String
    if let (owner, last) = ([device] + listing.files.keys.sorted()).lazy.compactMap({ name in
      listing.files[name]?.last.map { (name, $0) }
    }).first {
      sealed = try remote.download([(owner, last)])[owner]?[last]
      path = remote.path(device: owner, last: last)
    } else if let base = listing.bases.last {
      sealed = try remote.downloadBase(base)
      path = remote.basePath(hlc: base)
    } else {
      return true
    }
    guard let sealed, let pushing = ChangeFile.pushingIdentity(of: identities) else { return false }
    do {
      _ = try ChangeFile.decrypt(sealed, identities: [pushing])
      return true
    } catch let error as ChangesetError where error.isOtherIdentity {
      throw GymError(
        .configuration,
        "\(path) does not open with the key this device would push to (\(given)): give the identity this device "
          + "and the others sync with (--identity or sync.identity); nothing was changed or pushed")
    } catch {
      return false
    }
  }

  private func attempt(now: Date) throws -> Report {
    let recipient = try ChangeFile.recipient(of: identities)
    let listing = try remote.list()
    let existing = try store.read { try ChangeLog.device($0) }
    // The recorded name becomes a folder on the remote and an rclone operand: one edited in the
    // database (`../x`, `-v`) is refused as a configured one is, before anything reaches rclone.
    if let existing, let problem = DeviceName.problem(with: existing) {
      throw GymError(
        .configuration,
        "this database's sync device name '\(existing)' \(problem); it was changed outside gym: set it back "
          + "in sync_device, or sync a copy made before the change")
    }
    var report = Report()
    report.device = existing ?? configuredDevice ?? DeviceName.random()
    report.began = existing == nil
    var device = report.device
    // A new device's identity is the one the others' files opened with (checked below).
    var recordsRecipient = true
    if existing != nil {
      recordsRecipient = try checkIdentity(listing: listing, device: device, recipient: recipient)
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
    // A new device adopts the newest base, and then needs only the changes after it. A database
    // that began but never reached the remote (no folder there) reads it too: a compaction did not
    // wait for it, and may have removed changes it lacks.
    var newestBase: SyncBase.Snapshot?
    if existing == nil || listing.files[device] == nil, let newest = listing.bases.last {
      guard let sealed = try remote.downloadBase(newest) else {
        throw Rclone.Failure(
          status: nil, message: "base \(BaseFile.name(hlc: newest)) left the remote as it was read", transient: true)
      }
      do {
        newestBase = try BaseFile.open(
          sealed, identities: identities, hlc: newest, schema: store.syncSchema, tables: names, now: now)
      } catch {
        throw GymError(.dataError, "refused \(remote.basePath(hlc: newest)): \(error); nothing was changed")
      }
    }
    let base = existing == nil ? newestBase : nil
    // Every file of another device holding a change this log lacks.
    var wanted: [(device: String, range: ClosedRange<Int64>)] = []
    var have: [String: Set<Int64>] = [:]
    for other in listing.files.keys.sorted() where other != device {
      let covered = base?.covers[other] ?? 0
      have[other] =
        existing == nil
        ? Set(covered > 0 ? Array(1...covered) : [])
        : try store.read {
          try ChangeLog.sequences($0, device: other)
        }
      wanted += listing.ranges(other).filter { !$0.allSatisfy(have[other, default: []].contains) }.map { (other, $0) }
    }
    let fetched = try remote.download(wanted.map { ($0.device, $0.range.upperBound) })
    var entries: [ChangeLog.Entry] = []
    var unopened = 0
    for (other, range) in wanted {
      // Listed, then gone: a compaction removed it meanwhile. Nothing has changed yet: try again.
      guard let sealed = fetched[other]?[range.upperBound] else {
        throw Rclone.Failure(
          status: nil, message: "\(other)/\(ChangeFile.name(last: range.upperBound)) left the remote while it was read")
      }
      do {
        let opened = try ChangeFile.open(
          sealed, identities: identities, device: other,
          first: SyncListing.first(of: range), last: range.upperBound,
          schema: store.syncSchema, tables: names, now: now)
        entries += opened.filter { !have[other, default: []].contains($0.seq) }
      } catch {
        if (error as? ChangesetError)?.isOtherIdentity == true { unopened += 1 }
        report.refused.append(Refusal(device: other, last: range.upperBound, reason: "\(error)"))
      }
    }
    // A database that has not begun, and opens not one of the others' files: its identity is not
    // the one they share. Beginning and pushing now would leave files none of them can open,
    // refused by every other device from then on. (A begun device may meet one damaged file, or
    // one of a device on another key, and still sync with the rest: it is refused on its own.)
    if existing == nil, !wanted.isEmpty, unopened == wanted.count {
      throw GymError(
        .dataError,
        "none of the \(wanted.count) change file(s) of other devices on the remote opens with this identity: "
          + "give the identity the other devices sync with (--identity or sync.identity); nothing was changed or pushed"
      )
    }
    try Self.refuseGaps(
      listing: listing, covers: newestBase?.covers ?? [:], have: have, entries: entries, refused: report.refused)
    report.pulled = entries.count
    let began = device
    let latest = ([base?.hlc] + entries.map(\.hlc)).compactMap { $0 }.max()
    (report.integration, device) = try store.writeSyncing { db in
      // Begun here unless another sync of this database began it since it was read above: then
      // this one goes on under the name that one took.
      var arriving = entries
      if try ChangeLog.device(db) == nil {
        try store.assignSyncKeys(db)
        // What this device brings sorts after all it found: never before the base.
        try ChangeLog.begin(db, device: began, tables: tables, now: now, after: latest)
        if let base {
          try SyncBase.adopt(db, base)
          arriving.insert(base.entry, at: 0)
        }
      } else if let name = try ChangeLog.device(db) {
        report.begunLater = try ChangeLog.beginLater(db, device: name, tables: tables, now: now) {
          try store.assignSyncKeys(db, owning: $0)
        }
      }
      if recordsRecipient, let key = recipient.string { try ChangeLog.recordRecipient(db, key) }
      let integration = try ChangeLog.integrate(db, arriving, tables: tables)
      let name = try ChangeLog.device(db) ?? began
      // Changes made here while a base was made elsewhere, unseen, sort after it before they leave.
      if let newest = listing.bases.last {
        report.retimed = try SyncBase.retime(
          db, device: name, after: listing.files[name]?.last ?? 0, notAfter: newest, now: now, tables: tables)
      }
      return (integration, name)
    }
    if let base, report.began { report.adopted = (base.hlc, base.covers.values.reduce(0, +)) }
    report.device = device
    // What to push and what this device will say it holds, read together: a write that lands
    // after is neither pushed nor claimed (its clock reading is after the marker's).
    let (unpushed, marker) = try store.read { db in
      (try ChangeLog.unpushed(db, device: device), try AppliedMarker.current(db, device: device, at: now))
    }
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
          bytes, identities: identities, device: device, first: SyncListing.first(of: range),
          last: range.upperBound, schema: store.syncSchema, tables: names, now: now)
      {
        // The first file left after a compaction begins later than its range here.
        guard held == mine.filter({ $0.seq >= (held.first?.seq ?? 1) }) else {
          let differs = held.first(where: { !mine.contains($0) })?.seq ?? range.lowerBound
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
          message: "change file \(ChangeFile.name(last: missing)) is not on the remote after rclone copied it",
          transient: true)
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
    do {
      try remote.uploadMarker(try marker.seal(to: recipient), device: device)
    } catch let failure as Rclone.Failure {
      report.markerFailure = failure.message
    }
    return report
  }
}
