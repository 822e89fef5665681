import Foundation
import GRDB
import GymCore
import Testing

@testable import GymExport

/// A change file opens only with the identity, only as the change its name says, only from this
/// gym's schema, with a clock no more than a year ahead, changing only synced tables.
@Suite struct ChangeFileTests {
  let identity: [AgeIdentity]
  let recipient: AgeRecipient

  init() throws {
    identity = try AgeIdentity.file(AgeIdentity.generate().identity)
    recipient = try ChangeFile.recipient(of: identity)
  }

  /// A one-row changeset of `table` (an insert), from a session on a scratch database.
  static func changeset(table: String) throws -> Changeset {
    let db = try DatabaseQueue()
    return try db.write { db in
      try db.execute(sql: "CREATE TABLE \(table) (seq INTEGER PRIMARY KEY, name TEXT)")
      let recorder = try SessionRecorder(db, tables: [table])
      try db.execute(sql: "INSERT INTO \(table) (seq, name) VALUES (7, 'Milk')")
      return try recorder.changeset()
    }
  }

  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func entry(_ table: String = "grocery_item", hlc: Int64? = nil) throws -> ChangeLog.Entry {
    ChangeLog.Entry(
      device: "laptop", seq: 3, hlc: hlc ?? HybridClock.next(after: nil, now: now),
      changeset: try Self.changeset(table: table))
  }

  func open(_ sealed: [UInt8], device: String = "laptop", seq: Int64 = 3, schema: String = "staples/004") throws
    -> ChangeLog.Entry
  {
    try ChangeFile.open(
      Data(sealed), identities: identity, device: device, seq: seq, schema: schema, tables: ["grocery_item"], now: now)
  }

  @Test func whatIsSealedOpensAsItWas() throws {
    let entry = try entry()
    let sealed = try ChangeFile.seal(entry, schema: "staples/004", to: recipient)
    #expect(try open(sealed) == entry)
    // Nothing of the change is readable without the key.
    #expect(Data(sealed).range(of: Data("Milk".utf8)) == nil)
    #expect(Data(sealed).range(of: Data("laptop".utf8)) == nil)
  }

  @Test func anythingElseIsRefused() throws {
    let sealed = try ChangeFile.seal(try entry(), schema: "staples/004", to: recipient)
    // Another name than its own: another device's folder, or another place in the log.
    #expect(throws: ChangesetError.self) { try open(sealed, device: "desktop") }
    #expect(throws: ChangesetError.self) { try open(sealed, seq: 4) }
    // Another schema: held back.
    let other = #expect(throws: ChangesetError.self) { try open(sealed, schema: "staples/005") }
    #expect(other?.description.contains("held back") == true)
    // Another key.
    let stranger = try AgeIdentity.file(AgeIdentity.generate().identity)
    #expect(throws: ChangesetError.self) {
      try ChangeFile.open(
        Data(sealed), identities: stranger, device: "laptop", seq: 3, schema: "staples/004", tables: ["grocery_item"])
    }
    // One byte changed anywhere after the header.
    var damaged = sealed
    damaged[damaged.count - 1] ^= 1
    #expect(throws: ChangesetError.self) { try open(damaged) }
    // A table that does not sync.
    let workouts = try ChangeFile.seal(try entry("workout"), schema: "staples/004", to: recipient)
    let notSynced = #expect(throws: ChangesetError.self) { try open(workouts) }
    #expect(notSynced?.description == "it changes workout, which is not synced")
    // A clock more than a year ahead: 367 days of 86,400,000 ms past now, in the clock's high bits.
    let ahead = HybridClock.next(after: nil, now: now.addingTimeInterval(367 * 86_400))
    let future = try ChangeFile.seal(try entry(hlc: ahead), schema: "staples/004", to: recipient)
    #expect(throws: ChangesetError.self) { try open(future) }
    let nearFuture = HybridClock.next(after: nil, now: now.addingTimeInterval(30 * 86_400))
    #expect(
      try open(try ChangeFile.seal(try entry(hlc: nearFuture), schema: "staples/004", to: recipient)).hlc == nearFuture)
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
          CREATE TABLE sync_change (device TEXT NOT NULL, seq INTEGER NOT NULL);
          INSERT INTO sync_change VALUES ('laptop', 1), ('laptop', 2), ('laptop', 4), ('phone', 2), ('desktop', 1);
          """)
      return try AppliedMarker.current(db, device: "desktop", at: Date(timeIntervalSince1970: 1_800_000_000))
    }
    // laptop: 1 and 2, then a gap before 4 → 2; phone: 2 without 1 → 0; desktop: 1.
    #expect(marker.applied == ["laptop": 2, "phone": 0, "desktop": 1])
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
  }
}
