import ArgumentParser
import GymCore

/// `--strict` for the importers of other apps' exports: all or nothing instead of skipping.
public struct ImportStrictOption: ParsableArguments {
  @Flag(help: "Refuse the whole file at the first record gym cannot read, instead of skipping and reporting it.")
  public var strict = false

  public init() {}
}

/// Records of another app's export that gym cannot read. Such an export is kept whole: each of
/// these is skipped, told on stderr with its line and why, and counted in the summary; with
/// `--strict` the first one refuses the file (exit 65, nothing written). gym's own formats never
/// come here: they stay all or nothing.
public struct ImportSkips {
  public let strict: Bool
  let displayName: String
  /// How many are told one per line; the rest are counted, and their lines listed in the summary.
  static let shown = 20
  public private(set) var count = 0
  private var lines: [Int] = []
  /// Records kept with a value stored as unknown, told like the skipped ones.
  public private(set) var keptCount = 0
  private var keptLines: [Int] = []

  public init(strict: Bool, displayName: String) {
    self.strict = strict
    self.displayName = displayName
  }

  /// Skips the record `error` is about (told now, with the progress line out of the way), or, with
  /// `--strict`, throws it.
  public mutating func skip(_ error: InputError, progress: ProgressLine? = nil) throws(InputError) {
    if strict { throw error }
    tell(error, "skipped", count: &count, lines: &lines, progress: progress)
  }

  /// Keeps the record `error` is about with one of its values stored as unknown (`what`: "its
  /// duration"), told now with its line and why; with `--strict`, throws it.
  public mutating func keepUnknown(_ what: String, _ error: InputError, progress: ProgressLine? = nil)
    throws(InputError)
  {
    if strict { throw error }
    tell(error, "kept with \(what) unknown", count: &keptCount, lines: &keptLines, progress: progress)
  }

  /// Counts the record and tells it, the first `shown` of a kind one per line.
  private func tell(_ error: InputError, _ done: String, count: inout Int, lines: inout [Int], progress: ProgressLine?)
  {
    count += 1
    if lines.count < Self.shown { lines.append(error.line) }
    guard count <= Self.shown else { return }
    progress?.finish()
    let location = error.line > 0 ? "\(displayName):\(error.line)" : displayName
    printError(ErrorReporting.oneLine("\(location): \(done): \(error.message)"))
  }

  /// `; 2 records skipped (lines 137, 205)`, and `; 1 record kept with a value unknown (line 9)`, or
  /// nothing when none was.
  public var summary: String {
    Self.part(count, lines, "skipped") + Self.part(keptCount, keptLines, "kept with a value unknown")
  }

  private static func part(_ count: Int, _ lines: [Int], _ done: String) -> String {
    guard count > 0 else { return "" }
    let listed = lines.map(String.init).joined(separator: ", ") + (count > lines.count ? ", …" : "")
    return "; \(count) record\(count == 1 ? "" : "s") \(done) (line\(lines.count == 1 ? "" : "s") \(listed))"
      + (count > shown ? "; the first \(shown) told above" : "")
  }
}
