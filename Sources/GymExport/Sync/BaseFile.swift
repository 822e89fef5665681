import Foundation
import GymCLI
import GymCore

/// A base as it lies on the remote, `gym-sync/.base/<hlc>.base.age` (`.base` is never a device's
/// folder; the name is the clock reading of the last change the base holds, so the newest sorts
/// last and a device sees where a base stands without opening it): an age file to the shared
/// identity whose plaintext is one line of JSON (format, the reading, per device the changes it
/// holds, the synced tables' schema), then the changeset that inserts every row.
enum BaseFile {
  static let format = "gym-sync-base"
  static let folder = ".base"
  static let suffix = ".base.age"

  static func name(hlc: Int64) -> String { String(format: "%019lld", hlc) + suffix }

  static func hlc(fromName name: String) -> Int64? {
    guard name.hasSuffix(suffix) else { return nil }
    let digits = name.dropLast(suffix.count)
    guard digits.count == 19, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(digits), value > 0
    else { return nil }
    return value
  }

  static func seal(_ base: SyncBase.Snapshot, schema: String, to recipient: AgeRecipient) throws -> [UInt8] {
    let header: [String: Any] = [
      "format": format, "version": 1, "hlc": base.hlc, "schema": schema,
      "covers": base.covers.mapValues { NSNumber(value: $0) },
    ]
    var plain = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    plain.append(0x0A)
    plain.append(contentsOf: base.changeset.bytes)
    return try ChangeFile.encrypt(plain, to: recipient)
  }

  /// The base a file holds, checked to be the one its name says, from this gym's schema, of
  /// inserts into synced tables only; an error saying what is wrong otherwise.
  static func open(
    _ sealed: Data, identities: [AgeIdentity], hlc: Int64, schema: String, tables: Set<String>, now: Date = Date()
  ) throws -> SyncBase.Snapshot {
    let plain = try ChangeFile.decrypt(sealed, identities: identities)
    guard let newline = plain.firstIndex(of: 0x0A),
      let header = try? JSONSerialization.jsonObject(with: Data(plain[..<newline])) as? [String: Any],
      header["format"] as? String == format, header["version"] as? Int == 1,
      let entries = header["covers"] as? [String: Any]
    else { throw ChangesetError("it is not a gym base (version 1)") }
    guard ChangeFile.integer(header["hlc"]) == hlc else {
      throw ChangesetError("it says it is another base than its name (\(name(hlc: hlc)))")
    }
    guard hlc <= HybridClock.next(after: nil, now: now.addingTimeInterval(ChangeFile.furthestAhead)) else {
      throw ChangesetError("its clock reading is more than a year ahead (\(HybridClock.date(hlc)))")
    }
    guard let made = header["schema"] as? String else { throw ChangesetError("it names no schema") }
    guard made == schema else {
      throw ChangesetError(
        "it was made by a gym whose synced tables' schema is \(made), and this one's is \(schema): update gym")
    }
    var covers: [String: Int64] = [:]
    for (device, value) in entries {
      guard DeviceName.problem(with: device) == nil, let seq = ChangeFile.integer(value), seq > 0 else {
        throw ChangesetError("its entry for '\(ErrorReporting.oneLine(device))' is not a device and a sequence")
      }
      covers[device] = seq
    }
    let changeset = Changeset(Array(plain[(newline + 1)...]))
    if let other = try changeset.changedRows().first(where: { !tables.contains($0.table) || $0.operation != .insert }) {
      throw ChangesetError("it holds a change to \(other.table) other than an insert into a synced table")
    }
    return SyncBase.Snapshot(hlc: hlc, covers: covers, changeset: changeset)
  }
}
