import Foundation
import GRDB
import GymCLI
import GymCore

/// What a device has applied, as it tells the others: `gym-sync/<device>/applied.age`, written again
/// at the end of each of its syncs. An age file (to the identity every device shares) of one JSON
/// object: the device, when it synced, and for every device whose changes it holds the highest
/// sequence number up to which it holds them all. `gym sync status --incoming` reads every device's
/// to say when each last synced and how many changes on the remote it has yet to apply; a compaction
/// may drop a change only once every device's marker covers it.
struct AppliedMarker: Equatable {
  static let fileName = "applied.age"
  static let format = "gym-sync-applied"

  var device: String
  /// When the sync that wrote it ran (ISO 8601, UTC).
  var at: String
  var applied: [String: Int64]
  /// The latest clock reading the device held (0 before it held any): every change it makes after
  /// is later. Nil in a marker of the first layout (version 1), which a compaction cannot use.
  var clock: Int64?

  /// This database's marker: for each device in its log, the end of the run of its changes from 1
  /// (those a base adopted here stands for included), and its latest clock reading.
  static func current(_ db: Database, device: String, at: Date) throws -> AppliedMarker {
    var applied = try SyncBase.covers(db)
    for row in try Row.fetchAll(db, sql: "SELECT device, seq FROM sync_change ORDER BY device, seq") {
      let name: String = row["device"]
      let seq: Int64 = row["seq"]
      guard name != SyncBase.device else { continue }
      if seq == (applied[name] ?? 0) + 1 { applied[name] = seq } else if applied[name] == nil { applied[name] = 0 }
    }
    return AppliedMarker(
      device: device, at: ISO8601DateFormatter().string(from: at), applied: applied,
      clock: try ChangeLog.latestClock(db) ?? 0)
  }

  func seal(to recipient: AgeRecipient) throws -> [UInt8] {
    var object: [String: Any] = [
      "format": Self.format, "version": 2, "device": device, "at": at,
      "applied": applied.mapValues { NSNumber(value: $0) },
    ]
    if let clock { object["clock"] = NSNumber(value: clock) }
    return try ChangeFile.encrypt(
      try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), to: recipient)
  }

  /// The marker in `sealed`, checked to be `device`'s; an error saying what is wrong otherwise.
  static func open(_ sealed: Data, identities: [AgeIdentity], device: String) throws -> AppliedMarker {
    let plain = try ChangeFile.decrypt(sealed, identities: identities)
    guard let object = try? JSONSerialization.jsonObject(with: Data(plain)) as? [String: Any],
      object["format"] as? String == format, let version = object["version"] as? Int, version == 1 || version == 2,
      let at = object["at"] as? String, ISO8601DateFormatter().date(from: at) != nil,
      let entries = object["applied"] as? [String: Any]
    else { throw ChangesetError("it is not a gym applied marker (version 1 or 2)") }
    var clock: Int64?
    if version == 2 {
      guard let reading = ChangeFile.integer(object["clock"]), reading >= 0 else {
        throw ChangesetError("its clock reading is missing or not a whole number")
      }
      clock = reading
    }
    guard object["device"] as? String == device else {
      throw ChangesetError("it is another device's marker than its folder's (\(device))")
    }
    var applied: [String: Int64] = [:]
    for (name, value) in entries {
      guard DeviceName.problem(with: name) == nil, let number = value as? NSNumber, number.int64Value >= 0,
        Double(number.int64Value) == number.doubleValue
      else {
        throw ChangesetError("its entry for '\(ErrorReporting.oneLine(name))' is not a device and a sequence")
      }
      applied[name] = number.int64Value
    }
    return AppliedMarker(device: device, at: at, applied: applied, clock: clock)
  }

  /// How many of the changes `listing` shows this device has yet to apply: those after its mark,
  /// of every device but itself.
  func behind(_ listing: [String: Set<Int64>]) -> Int {
    listing.reduce(0) { total, entry in
      entry.key == device ? total : total + entry.value.filter { $0 > (applied[entry.key] ?? 0) }.count
    }
  }
}
