import Synchronization

/// Whether an export's files match its manifest's checksums, read once per export in a process: the
/// scheduler thins after every export, and each one it keeps is read the first time only (an
/// export is never written again under its name).
enum IntactExports {
  /// The exports found intact so far, by path and the time their manifest gives.
  private static let known = Mutex<Set<String>>([])

  static func check(_ entry: ExportListing.Entry) -> Bool {
    let key = entry.path + "\u{0}" + entry.manifest.created
    if known.withLock({ $0.contains(key) }) { return true }
    guard (try? ExportReader(path: entry.path).checkFiles(checksums: true)) != nil else { return false }
    known.withLock { _ = $0.insert(key) }
    return true
  }
}
