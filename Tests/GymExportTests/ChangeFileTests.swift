import Foundation
import GRDB
import GymCore
import Testing

@testable import GymExport

/// A change file holds a run of one device's changes; it opens only with the identity, only as
/// the run its place says, only from this gym's schema, with clocks that rise and are no more than
/// a year ahead, changing only synced tables.
@Suite struct ChangeFileTests {
  let identity: [AgeIdentity]
  let recipient: AgeRecipient

  init() throws {
    identity = try AgeIdentity.file(AgeIdentity.generate().identity)
    recipient = try ChangeFile.recipient(of: identity)
  }

  /// A one-row changeset of `table` (an insert of `name`), from a session on a scratch database.
  static func changeset(table: String, name: String = "Milk") throws -> Changeset {
    let db = try DatabaseQueue()
    return try db.write { db in
      try db.execute(sql: "CREATE TABLE \(table) (seq INTEGER PRIMARY KEY, name TEXT)")
      let recorder = try SessionRecorder(db, tables: [table])
      try db.execute(sql: "INSERT INTO \(table) (seq, name) VALUES (7, ?)", arguments: [name])
      return try recorder.changeset()
    }
  }

  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func entry(_ table: String = "grocery_item", seq: Int64 = 3, hlc: Int64? = nil, name: String = "Milk") throws
    -> ChangeLog.Entry
  {
    ChangeLog.Entry(
      device: "laptop", seq: seq, hlc: hlc ?? HybridClock.next(after: nil, now: now) + seq,
      changeset: try Self.changeset(table: table, name: name))
  }

  func open(
    _ sealed: [UInt8], device: String = "laptop", first: Int64 = 3, last: Int64 = 3, schema: String = "staples/004"
  ) throws -> [ChangeLog.Entry] {
    try ChangeFile.open(
      Data(sealed), identities: identity, device: device, first: first, last: last, schema: schema,
      tables: ["grocery_item"], now: now)
  }

  /// The plaintext header line of a sealed file, and what follows it.
  func plain(_ sealed: [UInt8]) throws -> (header: [String: Any], rest: [UInt8]) {
    let plain = try ChangeFile.decrypt(Data(sealed), identities: identity)
    let newline = try #require(plain.firstIndex(of: 0x0A))
    let header = try #require(try JSONSerialization.jsonObject(with: Data(plain[..<newline])) as? [String: Any])
    return (header, Array(plain[(newline + 1)...]))
  }

  /// `header` and `rest` sealed as a file, to see what opening makes of a file gym would never write.
  func forge(_ header: [String: Any], _ rest: [UInt8]) throws -> [UInt8] {
    var plain = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    plain.append(0x0A)
    plain.append(contentsOf: rest)
    return try ChangeFile.encrypt(plain, to: recipient)
  }

  @Test func aRunOfChangesIsSealedAsOneFileAndOpensAsItWas() throws {
    let entries = try (3...5).map { try entry(seq: $0, name: "Item \($0)") }
    let sealed = try ChangeFile.seal(entries, schema: "staples/004", to: recipient)
    #expect(try open(sealed, first: 3, last: 5) == entries)
    // The header lists each change's clock and size; the changesets follow one after another.
    let (header, rest) = try plain(sealed)
    #expect(header["version"] as? Int == 2 && header["first"] as? Int == 3 && header["last"] as? Int == 5)
    let sizes = entries.map(\.changeset.bytes.count)
    #expect(((header["changes"] as? [[Any]]) ?? []).compactMap { $0.last as? Int } == sizes)
    #expect(rest == entries.flatMap(\.changeset.bytes))
    // Nothing of the changes is readable without the key.
    #expect(Data(sealed).range(of: Data("Item".utf8)) == nil)
    #expect(Data(sealed).range(of: Data("laptop".utf8)) == nil)
    // The name is the last change's sequence, 12 digits.
    #expect(ChangeFile.name(last: 5) == "000000000005.changeset.age")
    #expect(ChangeFile.last(fromName: "000000000005.changeset.age") == 5)
    #expect(ChangeFile.last(fromName: "5.changeset.age") == nil)
    #expect(ChangeFile.last(fromName: "000000000000.changeset.age") == nil)
  }

  @Test func aFileOfTheFirstLayoutStillOpens() throws {
    let entry = try entry()
    let sealed = try forge(
      [
        "format": "gym-sync-changeset", "version": 1, "device": "laptop", "seq": 3, "hlc": entry.hlc,
        "schema": "staples/004",
      ],
      entry.changeset.bytes)
    #expect(try open(sealed) == [entry])
    #expect(throws: ChangesetError.self) { try open(sealed, first: 3, last: 4) }
  }

  @Test func packsSplitAtTheLimitAndNeverLeaveOneEmpty() throws {
    let small = try entry(seq: 1)
    let size = small.changeset.bytes.count
    // As many changes as fit in the limit, then one more: two packs.
    let fit = ChangeFile.packLimit / size
    let entries = (1...(fit + 1)).map { seq in
      ChangeLog.Entry(device: "laptop", seq: Int64(seq), hlc: Int64(seq), changeset: small.changeset)
    }
    #expect(ChangeFile.packs(entries).map(\.count) == [fit, 1])
    #expect(ChangeFile.packs([]).isEmpty)
    // A change larger than the limit is a pack of its own.
    let large = ChangeLog.Entry(
      device: "laptop", seq: 9, hlc: 9, changeset: Changeset([UInt8](repeating: 0, count: ChangeFile.packLimit + 1)))
    #expect(ChangeFile.packs([small, large, small]).map(\.count) == [1, 1, 1])
  }

  @Test func anythingElseIsRefused() throws {
    let entries = try (3...4).map { try entry(seq: $0) }
    let sealed = try ChangeFile.seal(entries, schema: "staples/004", to: recipient)
    #expect(try open(sealed, first: 3, last: 4).count == 2)
    // Another place than its own: another device's folder, another run of the log.
    #expect(throws: ChangesetError.self) { try open(sealed, device: "desktop", first: 3, last: 4) }
    #expect(throws: ChangesetError.self) { try open(sealed, first: 3, last: 5) }
    #expect(throws: ChangesetError.self) { try open(sealed, first: 2, last: 4) }
    // A device's first file on the remote after a compaction: any beginning up to its last.
    #expect(
      try ChangeFile.open(
        Data(sealed), identities: identity, device: "laptop", first: nil, last: 4, schema: "staples/004",
        tables: ["grocery_item"], now: now
      ).map(\.seq) == [3, 4])
    // Another schema: held back.
    let other = #expect(throws: ChangesetError.self) { try open(sealed, first: 3, last: 4, schema: "staples/005") }
    #expect(other?.description.contains("held back") == true)
    // Another key.
    let stranger = try AgeIdentity.file(AgeIdentity.generate().identity)
    #expect(throws: ChangesetError.self) {
      try ChangeFile.open(
        Data(sealed), identities: stranger, device: "laptop", first: 3, last: 4, schema: "staples/004",
        tables: ["grocery_item"])
    }
    // One byte changed anywhere after the header.
    var damaged = sealed
    damaged[damaged.count - 1] ^= 1
    #expect(throws: ChangesetError.self) { try open(damaged, first: 3, last: 4) }
    // A table that does not sync.
    let workouts = try ChangeFile.seal([try entry("workout")], schema: "staples/004", to: recipient)
    let notSynced = #expect(throws: ChangesetError.self) { try open(workouts) }
    #expect(notSynced?.description == "it changes workout, which is not synced")
    // A clock more than a year ahead: 367 days of 86,400,000 ms past now, in the clock's high bits.
    let ahead = HybridClock.next(after: nil, now: now.addingTimeInterval(367 * 86_400))
    let future = try ChangeFile.seal([try entry(hlc: ahead)], schema: "staples/004", to: recipient)
    #expect(throws: ChangesetError.self) { try open(future) }
    let nearFuture = HybridClock.next(after: nil, now: now.addingTimeInterval(30 * 86_400))
    #expect(
      try open(try ChangeFile.seal([try entry(hlc: nearFuture)], schema: "staples/004", to: recipient)).first?.hlc
        == nearFuture)
    // Forged headers: the list of changes must match the bytes, and the clocks must rise.
    let (header, rest) = try plain(sealed)
    let clocks = entries.map(\.hlc)
    let sizes = entries.map(\.changeset.bytes.count)
    func refused(_ changes: Any, _ bytes: [UInt8]? = nil) throws -> Bool {
      var forged = header
      forged["changes"] = changes
      do { _ = try open(try forge(forged, bytes ?? rest), first: 3, last: 4) } catch is ChangesetError { return true }
      return false
    }
    #expect(try !refused([[clocks[0], sizes[0]], [clocks[1], sizes[1]]]))  // as written: opens
    #expect(try refused([[clocks[0], sizes[0]]]))  // one change listed for a run of two
    #expect(try refused([[clocks[0], sizes[0] + 1], [clocks[1], sizes[1] - 1]], rest))  // sizes cut inside a changeset
    #expect(try refused([[clocks[0], sizes[0]], [clocks[1], sizes[1]]], rest + [0]))  // a byte beyond the list
    #expect(try refused([[clocks[1], sizes[0]], [clocks[0], sizes[1]]]))  // clocks that fall
    #expect(try refused([[clocks[0], -1], [clocks[1], sizes[1] + sizes[0] + 1]]))  // a negative size
    #expect(try refused([[1e30, sizes[0]], [clocks[1], sizes[1]]]))  // a clock that is no whole number
    #expect(try refused([[clocks[0], sizes[0], 7], [clocks[1], sizes[1]]]))  // three numbers for a change
  }
}

/// What a device tells the others it has applied: per device, the end of the unbroken run of its
/// changes from 1; how many changes a listing holds after those marks; sealed so only the identity
/// opens it, and only as its own folder's.
@Suite struct AppliedMarkerTests {
  @Test func marksTheRunFromOneAndCountsWhatIsBehind() throws {
    let db = try DatabaseQueue()
    let marker = try db.write { db in
      try db.execute(
        sql: """
          CREATE TABLE sync_change (device TEXT NOT NULL, seq INTEGER NOT NULL, hlc INTEGER NOT NULL);
          CREATE TABLE sync_base (base INTEGER, device TEXT, seq INTEGER);
          INSERT INTO sync_change VALUES
            ('laptop', 1, 10), ('laptop', 2, 11), ('laptop', 4, 14), ('phone', 2, 12), ('desktop', 1, 13);
          """)
      return try AppliedMarker.current(db, device: "desktop", at: Date(timeIntervalSince1970: 1_800_000_000))
    }
    // laptop: 1 and 2, then a gap before 4 → 2; phone: 2 without 1 → 0; desktop: 1. Its clock:
    // the latest reading held, 14.
    #expect(marker.applied == ["laptop": 2, "phone": 0, "desktop": 1])
    #expect(marker.clock == 14)
    #expect(marker.at == "2027-01-15T08:00:00Z")
    // The remote holds laptop 1…5 (3, 4 and 5 after the mark), phone 1 and 2 (both after 0), and
    // desktop's own 1 and 2 (its own are never behind it): 3 + 2 = 5.
    #expect(marker.behind(["laptop": [1, 2, 3, 4, 5], "phone": [1, 2], "desktop": [1, 2]]) == 5)
    let identity = try AgeIdentity.file(AgeIdentity.generate().identity)
    let sealed = Data(try marker.seal(to: try ChangeFile.recipient(of: identity)))
    #expect(try AppliedMarker.open(sealed, identities: identity, device: "desktop") == marker)
    #expect(throws: ChangesetError.self) { try AppliedMarker.open(sealed, identities: identity, device: "laptop") }
    let stranger = try AgeIdentity.file(AgeIdentity.generate().identity)
    #expect(throws: ChangesetError.self) { try AppliedMarker.open(sealed, identities: stranger, device: "desktop") }
    var damaged = sealed
    damaged[damaged.count - 1] ^= 1
    #expect(throws: ChangesetError.self) { try AppliedMarker.open(damaged, identities: identity, device: "desktop") }
    // A base adopted here stands for phone 1 (and laptop 1 to 3): the runs go on from there, the
    // base's own entry left out: laptop 1…4 → 4, phone 1…2 → 2.
    let adopted = try db.write { db in
      try db.execute(
        sql: """
          INSERT INTO sync_base VALUES (9, 'phone', 1), (9, 'laptop', 3);
          INSERT INTO sync_change VALUES ('.base', 9, 9);
          """)
      return try AppliedMarker.current(db, device: "desktop", at: Date(timeIntervalSince1970: 1_800_000_000))
    }
    #expect(adopted.applied == ["laptop": 4, "phone": 2, "desktop": 1])
  }

  /// A marker of the first layout (no clock) still opens, without a clock; a clock that is not a
  /// whole number is refused.
  @Test func aMarkerOfTheFirstLayoutOpensWithoutAClock() throws {
    let identity = try AgeIdentity.file(AgeIdentity.generate().identity)
    let recipient = try ChangeFile.recipient(of: identity)
    func sealed(_ object: [String: Any]) throws -> Data {
      Data(try ChangeFile.encrypt(try JSONSerialization.data(withJSONObject: object), to: recipient))
    }
    let first: [String: Any] = [
      "format": "gym-sync-applied", "version": 1, "device": "phone", "at": "2026-11-20T08:00:00Z",
      "applied": ["phone": 3],
    ]
    let old = try AppliedMarker.open(try sealed(first), identities: identity, device: "phone")
    #expect(old.applied == ["phone": 3] && old.clock == nil)
    var second = first
    second["version"] = 2
    second["clock"] = 1e30
    #expect(throws: ChangesetError.self) {
      try AppliedMarker.open(try sealed(second), identities: identity, device: "phone")
    }
    second["clock"] = 117_000_000_000_000_003 as Int64
    #expect(
      try AppliedMarker.open(try sealed(second), identities: identity, device: "phone").clock == 117_000_000_000_000_003
    )
  }
}

/// A base opens only with the identity, only as the base its name says, from this gym's schema,
/// holding only inserts into synced tables.
@Suite struct BaseFileTests {
  @Test func aBaseOpensOnlyAsItsOwnName() throws {
    let identity = try AgeIdentity.file(AgeIdentity.generate().identity)
    let recipient = try ChangeFile.recipient(of: identity)
    let base = SyncBase.Snapshot(
      hlc: 117_000_000_000_000_003, covers: ["laptop": 4, "phone": 2],
      changeset: try ChangeFileTests.changeset(table: "grocery_item"))
    let sealed = Data(try BaseFile.seal(base, schema: "staples/004", to: recipient))
    func open(_ bytes: Data, hlc: Int64 = 117_000_000_000_000_003, schema: String = "staples/004") throws
      -> SyncBase.Snapshot
    {
      try BaseFile.open(
        bytes, identities: identity, hlc: hlc, schema: schema, tables: ["grocery_item"],
        now: Date(timeIntervalSince1970: 1_800_000_000))
    }
    #expect(try open(sealed) == base)
    #expect(sealed.range(of: Data("laptop".utf8)) == nil && sealed.range(of: Data("Milk".utf8)) == nil)
    // The name: 19 digits of the reading, so the newest sorts last.
    #expect(BaseFile.name(hlc: 117_000_000_000_000_003) == "0117000000000000003.base.age")
    #expect(BaseFile.hlc(fromName: "0117000000000000003.base.age") == 117_000_000_000_000_003)
    #expect(BaseFile.hlc(fromName: "117000000000000003.base.age") == nil)
    #expect(throws: ChangesetError.self) { try open(sealed, hlc: 117_000_000_000_000_004) }
    #expect(throws: ChangesetError.self) { try open(sealed, schema: "staples/005") }
    let stranger = try AgeIdentity.file(AgeIdentity.generate().identity)
    #expect(throws: ChangesetError.self) {
      try BaseFile.open(sealed, identities: stranger, hlc: base.hlc, schema: "staples/004", tables: ["grocery_item"])
    }
    // A base holding anything but inserts into synced tables: a delete, or another table.
    var deleting = base
    deleting.changeset = try deleting.changeset.inverted()
    #expect(throws: ChangesetError.self) {
      try open(Data(try BaseFile.seal(deleting, schema: "staples/004", to: recipient)))
    }
    var workouts = base
    workouts.changeset = try ChangeFileTests.changeset(table: "workout")
    #expect(throws: ChangesetError.self) {
      try open(Data(try BaseFile.seal(workouts, schema: "staples/004", to: recipient)))
    }
  }
}
