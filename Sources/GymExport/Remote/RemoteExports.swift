import Foundation
import GymCLI
import GymCore

/// gym's exports on an rclone remote: a directory per export, as on the local disk.
struct RemoteExports: Sendable {
  struct Entry: Sendable {
    let name: String
    /// nil until the manifest is there: the copy is not finished (or failed part way).
    let manifest: ExportManifest?
    /// The sizes of the files the remote holds, by name.
    let sizes: [String: Int]

    /// The bytes of its files but the manifest, as `export status` counts a local export's.
    var dataBytes: Int { sizes.filter { $0.key != ExportManifest.fileName }.values.reduce(0, +) }

    /// "ok", or what is wrong: a manifest not there yet, a file missing or of another size.
    var state: String {
      if let size = sizes[ExportManifest.fileName], size > ExportManifest.maximumBytes {
        return "damaged: manifest.json is \(size) bytes, more than a manifest holds"
      }
      guard let manifest else { return "incomplete: no manifest.json (a copy that did not finish)" }
      for file in manifest.files {
        guard let size = sizes[file.name] else { return "damaged: \(file.name) is missing" }
        if size != file.bytes { return "damaged: \(file.name) is \(size) bytes, the manifest says \(file.bytes)" }
      }
      return "ok"
    }
  }

  let remote: String
  var rclone = Rclone()

  /// Copies a local export: its data files, then its manifest. The manifest is what makes a
  /// directory an export (to `status`, `prune` and `pull`), so a reader never takes a partial copy
  /// for one.
  func upload(_ path: String) throws {
    let name = (path as NSString).lastPathComponent
    let target = Rclone.join(remote, name)
    let local = Rclone.local(path)
    try rclone.run("copy", [local, target], flags: ["--exclude", "/" + ExportManifest.fileName])
    try rclone.run("copyto", [local + "/" + ExportManifest.fileName, target + "/" + ExportManifest.fileName])
  }

  /// The exports on the remote, oldest first; an empty list when the remote path does not exist yet.
  func list() throws -> [Entry] {
    let data: Data
    do {
      data = try rclone.run("lsjson", [remote], flags: ["--recursive", "--max-depth", "2"])
    } catch let failure as Rclone.Failure where failure.isNotFound {
      return []
    }
    // rclone's field names are capitalised.
    struct Item: Decodable {
      let path: String
      let size: Int
      let isDirectory: Bool
      enum CodingKeys: String, CodingKey {
        case path = "Path"
        case size = "Size"
        case isDirectory = "IsDir"
      }
    }
    guard let items = try? JSONDecoder().decode([Item].self, from: data) else {
      throw Rclone.Failure(status: nil, message: "rclone lsjson gave a listing gym cannot read", transient: true)
    }
    var sizes: [String: [String: Int]] = [:]
    for item in items {
      let parts = item.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
      guard parts[0].hasPrefix(ExportJob.prefix) else { continue }
      if item.isDirectory && parts.count == 1 { sizes[parts[0], default: [:]] = sizes[parts[0]] ?? [:] }
      if !item.isDirectory && parts.count == 2 { sizes[parts[0], default: [:]][parts[1]] = item.size }
    }
    return try sizes.keys.sorted().map { name in
      var manifest: ExportManifest?
      // A manifest is a few KiB: one over the cap is not gym's, and is never read whole.
      if let size = sizes[name]?[ExportManifest.fileName], size <= ExportManifest.maximumBytes {
        let data = try rclone.run(
          "cat", [Rclone.join(Rclone.join(remote, name), ExportManifest.fileName)],
          flags: ["--head", String(ExportManifest.maximumBytes)])
        manifest = try? JSONDecoder().decode(ExportManifest.self, from: data)
      }
      return Entry(name: name, manifest: manifest, sizes: sizes[name] ?? [:])
    }
  }

  /// The whole exports `policy` does not keep, oldest first, judged among the whole ones only: an
  /// incomplete one (a copy in progress), a damaged one, or one dated more than a day ahead of now
  /// (a wrong clock) is never chosen, and never takes the place of a whole one; nor is another
  /// database's export.
  func unkept(_ exports: [Entry], policy: RetentionPolicy, owner: ExportOwner, now: Timestamp = .now()) -> [Entry] {
    let ahead = now.millisecondsSince1970 + 86_400_000
    let whole = exports.filter { entry in
      entry.state == "ok" && entry.manifest?.kind == ExportManifest.kind && entry.manifest.map(owner.owns) == true
        && (entry.manifest.flatMap { Timestamp(parsing: $0.created) }.map { $0.millisecondsSince1970 <= ahead } ?? true)
    }
    return policy.unkept(
      whole, created: { $0.manifest.flatMap { Timestamp(parsing: $0.created) } },
      group: { $0.manifest?.retentionGroup() ?? "" })
  }

  /// Deletes the exports `policy` does not keep; returns their names.
  func prune(policy: RetentionPolicy, owner: ExportOwner) throws -> [String] {
    try delete(unkept(try list(), policy: policy, owner: owner))
  }

  /// Deletes `exports` from the remote, each whole; returns their names.
  func delete(_ exports: [Entry]) throws -> [String] {
    for entry in exports { try rclone.run("purge", [Rclone.join(remote, entry.name)]) }
    return exports.map(\.name)
  }
}
