import Foundation
import GymCLI
import GymCore

#if canImport(Glibc)
  import Glibc
#endif

/// The remote side of `gym sync`, through rclone: `<remote>/gym-sync/<device>/<last>.changeset.age`,
/// a folder per device (its change files, append-only, and its applied marker). Every call is one
/// rclone command (no shell); a failure is an `Rclone.Failure` (exit 75, or 78 when rclone's
/// configuration cannot work).
public struct SyncRemote: Sendable {
  let remote: String
  var rclone = Rclone()

  /// An rclone remote (`nas:gym`) or a local directory.
  public init(remote: String) { self.remote = remote }

  var root: String { Rclone.join(remote, "gym-sync") }

  /// Every change file on the remote, by device (a device with none but its applied marker, with
  /// none); an empty remote (no `gym-sync` yet) has none.
  func list() throws -> SyncListing {
    let output: Data
    do {
      output = try rclone.run("lsjson", [root], flags: ["--recursive", "--files-only"])
    } catch let failure as Rclone.Failure where failure.isNotFound || failure.message.contains("directory not found") {
      return SyncListing(files: [:], bases: [])
    }
    guard let items = try? JSONSerialization.jsonObject(with: output) as? [[String: Any]] else {
      throw Rclone.Failure(status: nil, message: "rclone lsjson gave no list", transient: true)
    }
    var files: [String: [Int64]] = [:]
    var bases: [Int64] = []
    for item in items {
      guard let path = item["Path"] as? String else { continue }
      let parts = path.split(separator: "/", omittingEmptySubsequences: false)
      if parts.count == 2, parts[0] == BaseFile.folder, let hlc = BaseFile.hlc(fromName: String(parts[1])) {
        bases.append(hlc)
      }
      guard parts.count == 2, DeviceName.problem(with: String(parts[0])) == nil else { continue }
      // A device that synced without a change of its own yet has its applied marker alone.
      if parts[1] == AppliedMarker.fileName, files[String(parts[0])] == nil { files[String(parts[0])] = [] }
      guard let last = ChangeFile.last(fromName: String(parts[1])) else { continue }
      files[String(parts[0]), default: []].append(last)
    }
    return SyncListing(files: files.mapValues { $0.sorted() }, bases: bases.sorted())
  }

  /// Fetches many change files in one rclone command (`copy --files-from`): each one's bytes, by
  /// device and last sequence; a file gone from the remote since it was listed is left out.
  func download(_ wanted: [(device: String, last: Int64)]) throws -> [String: [Int64: Data]] {
    let names = wanted.map { $0.device + "/" + ChangeFile.name(last: $0.last) }
    let fetched = try fetch(names)
    var files: [String: [Int64: Data]] = [:]
    for (file, name) in zip(wanted, names) {
      guard let bytes = fetched[name] else { continue }
      files[file.device, default: [:]][file.last] = bytes
    }
    return files
  }

  /// The files at these paths under the root, in one rclone command (`copy --files-from` into a
  /// private directory), by path; one the remote lacks is left out.
  private func fetch(_ names: [String]) throws -> [String: Data] {
    guard !names.isEmpty else { return [:] }
    let scratch = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let list = scratch + "/wanted.txt"
    try Self.write(Data((names.joined(separator: "\n") + "\n").utf8), to: list)
    try rclone.run("copy", [root, scratch + "/files"], flags: ["--files-from", list, "--no-traverse"])
    var files: [String: Data] = [:]
    for name in names { files[name] = FileManager.default.contents(atPath: scratch + "/files/" + name) }
    return files
  }

  /// Writes change files of one device in one rclone command: sealed here in a private directory,
  /// then `rclone copy` into the device's folder.
  func upload(_ files: [(last: Int64, bytes: [UInt8])], device: String) throws {
    guard !files.isEmpty else { return }
    let scratch = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    for file in files { try Self.write(Data(file.bytes), to: scratch + "/" + ChangeFile.name(last: file.last)) }
    try rclone.run("copy", [scratch, root + "/" + device], flags: ["--no-traverse"])
  }

  /// The base known by `hlc`, or nil when the remote no longer holds it.
  func downloadBase(_ hlc: Int64) throws -> Data? {
    let name = BaseFile.folder + "/" + BaseFile.name(hlc: hlc)
    return try fetch([name])[name]
  }

  /// Writes a base: `rclone copy` of a folder holding it alone into `.base`.
  func uploadBase(_ bytes: [UInt8], hlc: Int64) throws {
    let scratch = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    try Self.write(Data(bytes), to: scratch + "/" + BaseFile.name(hlc: hlc))
    try rclone.run("copy", [scratch, root + "/" + BaseFile.folder], flags: ["--no-traverse"])
  }

  /// Removes these files (paths under the root) in one rclone command (`delete --files-from`).
  func delete(_ paths: [String]) throws {
    guard !paths.isEmpty else { return }
    let scratch = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let list = scratch + "/doomed.txt"
    try Self.write(Data((paths.joined(separator: "\n") + "\n").utf8), to: list)
    try rclone.run("delete", [root], flags: ["--files-from", list])
  }

  func basePath(hlc: Int64) -> String { root + "/" + BaseFile.folder + "/" + BaseFile.name(hlc: hlc) }

  /// Writes this device's applied marker over the one before: `rclone copy` of a folder holding it alone.
  func uploadMarker(_ bytes: [UInt8], device: String) throws {
    let scratch = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    try Self.write(Data(bytes), to: scratch + "/" + AppliedMarker.fileName)
    // Always copied: two markers are often the same size, and a remote's times may be too coarse to differ.
    try rclone.run("copy", [scratch, root + "/" + device], flags: ["--no-traverse", "--ignore-times"])
  }

  /// The applied markers the remote holds of these devices, in one rclone command; a device without
  /// one (it never finished a sync since markers were written) is left out.
  func downloadMarkers(_ devices: [String]) throws -> [String: Data] {
    let fetched = try fetch(devices.map { $0 + "/" + AppliedMarker.fileName })
    var markers: [String: Data] = [:]
    for device in devices { markers[device] = fetched[device + "/" + AppliedMarker.fileName] }
    return markers
  }

  /// A new directory only this user can enter, with a name nobody can guess (`mkdtemp`).
  static func scratchDirectory() throws -> String {
    guard let made = PrivateDirectory.make(prefix: "gym-sync-") else {
      throw Rclone.Failure(
        status: nil, message: "cannot make a temporary directory: \(PrivateDirectory.failure)", transient: true)
    }
    return made
  }

  static func write(_ data: Data, to path: String) throws {
    do { try data.write(to: URL(fileURLWithPath: path), options: .withoutOverwriting) } catch {
      throw Rclone.Failure(
        status: nil, message: "cannot write '\(path)': \(error.localizedDescription)", transient: true)
    }
  }

  func path(device: String, last: Int64) -> String {
    root + "/" + device + "/" + ChangeFile.name(last: last)
  }
}

/// What a listing of the remote shows: each device's change files, by the last sequence each holds,
/// and the bases. A device's files hold its changes one after another: a file holds those after the
/// previous file's last up to its own. The first file listed may begin later than 1, once a
/// compaction removed the files before it: its range here begins at 1 all the same (what it holds
/// is known when it is opened).
struct SyncListing {
  /// Each device's files' last sequences, in order (empty for a device with its applied marker alone).
  let files: [String: [Int64]]
  /// The bases, by the clock reading each is known by, in order: the newest last.
  let bases: [Int64]

  /// The changes each of `device`'s files may hold, by file, in order.
  func ranges(_ device: String) -> [ClosedRange<Int64>] {
    var previous: Int64 = 0
    return (files[device] ?? []).map { last in
      defer { previous = last }
      return (previous + 1)...last
    }
  }

  /// The first change a file of `range` must begin with: nil for a device's first file listed,
  /// which begins where a compaction left it.
  static func first(of range: ClosedRange<Int64>) -> Int64? { range.lowerBound == 1 ? nil : range.lowerBound }

  /// The sequences of `device`'s changes the remote holds.
  func sequences(_ device: String) -> Set<Int64> {
    Set((files[device]?.last).map { Array(1...$0) } ?? [])
  }

  /// Every device's sequences on the remote.
  var changes: [String: Set<Int64>] {
    Dictionary(uniqueKeysWithValues: files.keys.map { ($0, sequences($0)) })
  }
}

/// A device's name: its folder on the remote.
enum DeviceName {
  /// Why `name` cannot name a device, or nil: 1–64 of lowercase letters, digits, `.`, `_` and `-`,
  /// not beginning with `.` or `-` (a folder name and an rclone operand, never a flag; lowercase, so
  /// that a remote that ignores case never puts two devices in one folder).
  static func problem(with name: String) -> String? {
    guard (1...64).contains(name.utf8.count) else { return "must be 1 to 64 characters" }
    guard
      name.utf8.allSatisfy({ byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x5F
          || byte == 0x2D
      })
    else { return "may hold only lowercase letters, digits, '.', '_' and '-'" }
    guard let first = name.utf8.first, first != 0x2E, first != 0x2D else {
      return "must not begin with '.' or '-'"
    }
    return nil
  }

  /// A new device's name when none is configured: `device-` and 12 random hex digits.
  static func random() -> String {
    var generator = SystemRandomNumberGenerator()
    return "device-" + String(format: "%012llx", UInt64.random(in: 0..<(1 << 48), using: &generator))
  }
}
