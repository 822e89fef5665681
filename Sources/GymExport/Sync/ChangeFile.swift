import Crypto
import Foundation
import GymCore

/// One change set as it lies on the remote, `gym-sync/<device>/<seq>.changeset.age`: an age file
/// (X25519, to the public key of the identity every device shares) whose plaintext is one line of
/// JSON naming the change — format, device, sequence, clock, the synced tables' schema — then the
/// changeset's bytes. Reading checks age's MACs (a changed byte anywhere is refused), that the file
/// says what its name says, that its schema is this gym's, that its clock is not absurdly far ahead,
/// and that it changes only synced tables.
enum ChangeFile {
  static let format = "gym-sync-changeset"
  static let suffix = ".changeset.age"

  /// `<seq>.changeset.age`, the sequence zero-padded so names sort in order.
  static func name(seq: Int64) -> String { String(format: "%012lld", seq) + suffix }

  /// The sequence a file name gives, or nil for a name that is not a change file's.
  static func seq(fromName name: String) -> Int64? {
    guard name.hasSuffix(suffix) else { return nil }
    let digits = name.dropLast(suffix.count)
    guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let value = Int64(digits), value > 0, Self.name(seq: value) == name
    else { return nil }
    return value
  }

  static func seal(_ entry: ChangeLog.Entry, schema: String, to recipient: AgeRecipient) throws -> [UInt8] {
    let header: [String: Any] = [
      "format": format, "version": 1, "device": entry.device, "seq": entry.seq, "hlc": entry.hlc, "schema": schema,
    ]
    var plain = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    plain.append(0x0A)
    plain.append(contentsOf: entry.changeset.bytes)
    return try encrypt(plain, to: recipient)
  }

  /// `plain` as an age file to `recipient`: what every file gym sync writes on the remote is.
  static func encrypt(_ plain: Data, to recipient: AgeRecipient) throws -> [UInt8] {
    var sealed: [UInt8] = []
    let encryptor = try AgeEncryptor(recipients: [recipient]) { sealed.append(contentsOf: $0) }
    try encryptor.write(plain)
    try encryptor.finish()
    return sealed
  }

  /// The plaintext of an age file from the remote, its MACs checked.
  static func decrypt(_ sealed: Data, identities: [AgeIdentity]) throws -> [UInt8] {
    var plain: [UInt8] = []
    do {
      let decryptor = AgeDecryptor(identities: identities) { plain.append(contentsOf: $0) }
      try decryptor.write(sealed)
      try decryptor.finish()
    } catch let error as AgeError {
      throw ChangesetError("it does not open with the sync identity: \(error.description)")
    }
    return plain
  }

  /// The change the file holds; an error saying what is wrong when it does not open, or does not
  /// hold what its place on the remote says.
  /// A clock reading more than a year ahead of now: a device whose clock is that wrong would push
  /// every reading after it (and near the end of the clock's range, overflow it).
  static let furthestAhead: TimeInterval = 366 * 86_400

  static func open(
    _ sealed: Data, identities: [AgeIdentity], device: String, seq: Int64, schema: String, tables: Set<String>,
    now: Date = Date()
  ) throws -> ChangeLog.Entry {
    let plain = try decrypt(sealed, identities: identities)
    guard let newline = plain.firstIndex(of: 0x0A),
      let header = try? JSONSerialization.jsonObject(with: Data(plain[..<newline])) as? [String: Any],
      header["format"] as? String == format, header["version"] as? Int == 1
    else { throw ChangesetError("it is not a gym change file (version 1)") }
    guard header["device"] as? String == device, (header["seq"] as? NSNumber)?.int64Value == seq else {
      throw ChangesetError("it says it is another change than its name (\(device)/\(name(seq: seq)))")
    }
    guard let clock = (header["hlc"] as? NSNumber)?.int64Value, clock > 0 else {
      throw ChangesetError("its clock reading is missing")
    }
    guard clock <= HybridClock.next(after: nil, now: now.addingTimeInterval(furthestAhead)) else {
      throw ChangesetError("its clock reading is more than a year ahead (\(HybridClock.date(clock)))")
    }
    guard let made = header["schema"] as? String else { throw ChangesetError("it names no schema") }
    guard made == schema else {
      throw ChangesetError(
        "it was made by a gym whose pantry schema is \(made), and this one's is \(schema): held back until both "
          + "devices run the same gym")
    }
    let changeset = Changeset(Array(plain[(newline + 1)...]))
    // A changeset SQLite cannot read, or one that changes any other table, is refused before anything applies.
    if let other = try changeset.changes().first(where: { !tables.contains($0.table) }) {
      throw ChangesetError("it changes \(other.table), which is not synced")
    }
    return ChangeLog.Entry(device: device, seq: seq, hlc: clock, changeset: changeset)
  }

  /// The public key of the first X25519 identity: what every device encrypts to.
  static func recipient(of identities: [AgeIdentity]) throws -> AgeRecipient {
    for identity in identities {
      if case .x25519(let secret) = identity,
        let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: secret)
      {
        return .x25519(Array(key.publicKey.rawRepresentation))
      }
    }
    throw AgeError("the identity file holds no X25519 identity (AGE-SECRET-KEY-1…)")
  }
}
