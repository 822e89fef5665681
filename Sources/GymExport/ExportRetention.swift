import Foundation
import GymCore

/// The exports in a directory: only directories gym made, recognised by their manifest.
public struct ExportListing: Sendable {
  public struct Entry: Sendable {
    public let name: String
    public let path: String
    public let manifest: ExportManifest
    /// nil when a (damaged or edited) manifest's numbers overflow when added up.
    public var bytes: Int? { manifest.totalBytes }
    public var rows: Int? { manifest.totalRows }
  }

  /// Oldest first (the names sort as time).
  public static func exports(in directory: String) -> [Entry] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasPrefix(ExportJob.prefix) }.sorted().compactMap { name in
      let path = directory + "/" + name
      guard let manifest = ExportManifest.read(in: path) else { return nil }
      return Entry(name: name, path: path, manifest: manifest)
    }
  }

  /// The exports `policy` does not keep, oldest first, judged among the whole ones only, as on a
  /// remote: one whose files do not match its manifest (damaged, cut short) or that is dated more
  /// than a day ahead of now (a wrong clock would keep it the newest for good) is never chosen and
  /// never takes the place of a whole one. One whose manifest's time cannot be read is kept. An
  /// export whose copy to a remote failed or never finished is kept until it is copied: it may be
  /// the only one of its kind anywhere. Another database's exports are neither chosen nor counted.
  ///
  /// Before any is chosen, the exports that would be kept in their place are read whole, checksums
  /// and all (`IntactExports`): a kept one damaged where it lies (a bit flipped on the disk, sizes
  /// unchanged) is left out and the choice made again, so a damaged export never stands in for an
  /// intact one thinned away. Nothing to delete, nothing read.
  public static func unkept(
    _ directory: String, policy: RetentionPolicy, owner: ExportOwner, now: Timestamp = .now()
  ) -> [Entry] {
    let pending = RemoteLog.read(in: directory).pending
    var whole = exports(in: directory).filter { owner.owns($0.manifest) && isWhole($0, now: now) }
    while true {
      let chosen = policy.unkept(
        whole, created: { Timestamp(parsing: $0.manifest.created) }, group: { $0.manifest.retentionGroup() }
      ).filter { !pending.contains($0.name) }
      guard !chosen.isEmpty else { return [] }
      let dropped = Set(chosen.map(\.name))
      let damaged = Set(whole.filter { !dropped.contains($0.name) && !IntactExports.check($0) }.map(\.name))
      guard !damaged.isEmpty else { return chosen }
      whole.removeAll { damaged.contains($0.name) }
    }
  }

  /// Every file its manifest lists there, a regular file of the size it lists (as on a remote),
  /// and not dated more than a day ahead of `now`. The checksums are read only for the exports a
  /// thinning keeps (`unkept`): reading every export at each thinning would read gigabytes.
  static func isWhole(_ entry: Entry, now: Timestamp) -> Bool {
    guard let created = Timestamp(parsing: entry.manifest.created),
      created.millisecondsSince1970 <= now.millisecondsSince1970 + 86_400_000
    else { return Timestamp(parsing: entry.manifest.created) == nil }
    return (try? ExportReader(path: entry.path).checkFiles(checksums: false)) != nil
  }

  /// Deletes the exports `policy` does not keep; returns their names.
  public static func prune(_ directory: String, policy: RetentionPolicy, owner: ExportOwner) -> [String] {
    let old = unkept(directory, policy: policy, owner: owner)
    for entry in old { try? FileManager.default.removeItem(atPath: entry.path) }
    return old.map(\.name)
  }
}
