import Crypto
import Foundation
import GymCore

/// A run of one device's changes as it lies on the remote, `gym-sync/<device>/<last>.changeset.age`:
/// the changes after the device's previous file up to `last`, all that one sync pushed (one file,
/// one X25519 exchange, one rclone transfer, however many changes). An age file (X25519, to the
/// public key of the identity every device shares) whose plaintext is one line of JSON naming the
/// changes (format, device, first and last sequence, each one's clock and size, the synced tables'
/// schema), then their changesets' bytes one after another. Reading checks age's MACs (a changed byte
/// anywhere is refused), that the file holds what its place says, that its schema is this gym's,
/// that its clocks rise and are not absurdly far ahead, and that it changes only synced tables.
enum ChangeFile {
  static let format = "gym-sync-changeset"
  static let suffix = ".changeset.age"
  /// The most changeset bytes one file holds (more are split into files of their own, each named by
  /// its last), so that a file is held in memory whole only up to this, unless one change is larger.
  static let packLimit = 64 << 20

  /// `<last>.changeset.age`, the sequence zero-padded so names sort in order.
  static func name(last: Int64) -> String { String(format: "%012lld", last) + suffix }

  /// The last sequence a file name gives, or nil for a name that is not a change file's.
  static func last(fromName name: String) -> Int64? {
    guard name.hasSuffix(suffix) else { return nil }
    let digits = name.dropLast(suffix.count)
    guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let value = Int64(digits), value > 0, Self.name(last: value) == name
    else { return nil }
    return value
  }

  /// `entries` split into runs of at most `packLimit` changeset bytes (one change at least each).
  static func packs(_ entries: [ChangeLog.Entry]) -> [[ChangeLog.Entry]] {
    var packs: [[ChangeLog.Entry]] = []
    var size = 0
    for entry in entries {
      if packs.isEmpty || (size + entry.changeset.bytes.count > packLimit && !packs[packs.count - 1].isEmpty) {
        packs.append([])
        size = 0
      }
      packs[packs.count - 1].append(entry)
      size += entry.changeset.bytes.count
    }
    return packs
  }

  /// `entries` (one device's, consecutive, oldest first) sealed as one file.
  static func seal(_ entries: [ChangeLog.Entry], schema: String, to recipient: AgeRecipient) throws -> [UInt8] {
    guard let first = entries.first, let last = entries.last else { throw ChangesetError("no change to seal") }
    let header: [String: Any] = [
      "format": format, "version": 2, "device": first.device, "first": first.seq, "last": last.seq,
      "schema": schema, "changes": entries.map { [$0.hlc, $0.changeset.bytes.count] },
    ]
    var plain = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    plain.append(0x0A)
    for entry in entries { plain.append(contentsOf: entry.changeset.bytes) }
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
      throw ChangesetError(
        "it does not open with the sync identity: \(error.description)", isOtherIdentity: error.stage == .noMatch)
    }
    return plain
  }

  /// A clock reading more than a year ahead of now: a device whose clock is that wrong would push
  /// every reading after it (and near the end of the clock's range, overflow it).
  static let furthestAhead: TimeInterval = 366 * 86_400

  /// The changes a file holds, oldest first; an error saying what is wrong when it does not open,
  /// or does not hold what its place on the remote says: `device`'s changes `first` through `last`
  /// (`first` nil: the device's first file on the remote, which begins where a compaction left it).
  /// A file of one change of the first layout (version 1: `seq` and `hlc` in the header) still opens.
  static func open(
    _ sealed: Data, identities: [AgeIdentity], device: String, first expected: Int64?, last: Int64, schema: String,
    tables: Set<String>, now: Date = Date()
  ) throws -> [ChangeLog.Entry] {
    let plain = try decrypt(sealed, identities: identities)
    guard let newline = plain.firstIndex(of: 0x0A),
      let header = try? JSONSerialization.jsonObject(with: Data(plain[..<newline])) as? [String: Any],
      header["format"] as? String == format, let version = header["version"] as? Int, version == 1 || version == 2
    else { throw ChangesetError("it is not a gym change file (version 1 or 2)") }
    let says: (first: Int64?, last: Int64?)
    let changes: [(hlc: Int64?, size: Int?)]
    if version == 1 {
      let seq = integer(header["seq"])
      says = (seq, seq)
      changes = [(integer(header["hlc"]), plain.count - newline - 1)]
    } else {
      says = (integer(header["first"]), integer(header["last"]))
      changes = ((header["changes"] as? [Any]) ?? []).map { change in
        let pair = change as? [Any]
        return (integer(pair?.first), pair?.count == 2 ? integer(pair?.last).flatMap { Int(exactly: $0) } : nil)
      }
    }
    guard header["device"] as? String == device, let first = says.first, says.last == last,
      expected.map({ $0 == first }) ?? (1...last).contains(first)
    else {
      throw ChangesetError(
        "it says it holds other changes than its place (\(device)/\(name(last: last))\(expected.map { ", from \($0)" } ?? ""))"
      )
    }
    guard changes.count == last - first + 1, changes.allSatisfy({ ($0.size ?? -1) >= 0 }),
      changes.reduce(0, { $0 + ($1.size ?? 0) }) == plain.count - newline - 1
    else { throw ChangesetError("its list of changes does not match what it holds") }
    let furthest = HybridClock.next(after: nil, now: now.addingTimeInterval(furthestAhead))
    var previous: Int64 = 0
    for change in changes {
      guard let clock = change.hlc, clock > 0 else { throw ChangesetError("a clock reading is missing") }
      // A device's own clock readings rise with its sequence.
      guard clock > previous else { throw ChangesetError("its clock readings do not rise") }
      guard clock <= furthest else {
        throw ChangesetError("a clock reading is more than a year ahead (\(HybridClock.date(clock)))")
      }
      previous = clock
    }
    guard let made = header["schema"] as? String else { throw ChangesetError("it names no schema") }
    guard made == schema else {
      throw ChangesetError(
        "it was made by a gym whose synced tables' schema is \(made), and this one's is \(schema): held back until "
          + "both devices run the same gym")
    }
    var entries: [ChangeLog.Entry] = []
    entries.reserveCapacity(changes.count)
    var offset = newline + 1
    for (index, change) in changes.enumerated() {
      let size = change.size ?? 0
      let changeset = Changeset(Array(plain[offset..<(offset + size)]))
      offset += size
      // A changeset SQLite cannot read, or one that changes any other table, is refused before anything applies.
      if let other = try changeset.changedRows().first(where: { !tables.contains($0.table) }) {
        throw ChangesetError("it changes \(other.table), which is not synced")
      }
      entries.append(
        ChangeLog.Entry(device: device, seq: first + Int64(index), hlc: change.hlc ?? 0, changeset: changeset))
    }
    return entries
  }

  /// A whole number from a JSON header, or nil (a fraction, an exponent, a string, out of range).
  static func integer(_ value: Any?) -> Int64? {
    guard let number = value as? NSNumber else { return nil }
    return Int64(number.stringValue)
  }

  /// The first X25519 identity: the one whose public key this device encrypts to.
  static func pushingIdentity(of identities: [AgeIdentity]) -> AgeIdentity? {
    identities.first { identity in
      guard case .x25519(let secret) = identity else { return false }
      return (try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: secret)) != nil
    }
  }

  /// The public key of the first X25519 identity: what every device encrypts to.
  static func recipient(of identities: [AgeIdentity]) throws -> AgeRecipient {
    if case .x25519(let secret) = pushingIdentity(of: identities),
      let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: secret)
    {
      return .x25519(Array(key.publicKey.rawRepresentation))
    }
    throw AgeError("the identity file holds no X25519 identity (AGE-SECRET-KEY-1…)")
  }
}
