import Foundation

/// What killed exports and imports leave behind (`.gym-export-….partial` directories, staging
/// databases `….import-….partial`): removed by the next export or import once a day old, so that
/// repeated kills cannot fill a disk, while a run in progress elsewhere (younger) is left alone.
public enum StalePartials {
  public static let maximumAge: TimeInterval = 24 * 3600

  /// Removes the entries of `directory` that `matches` and that were last changed over a day ago;
  /// returns their names.
  @discardableResult
  public static func prune(in directory: String, now: Date = Date(), matching matches: (String) -> Bool) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    var removed: [String] = []
    for name in names where matches(name) {
      let path = directory + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      let changed = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
      guard now.timeIntervalSince(changed) > maximumAge else { continue }
      if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(name) }
    }
    return removed
  }
}
