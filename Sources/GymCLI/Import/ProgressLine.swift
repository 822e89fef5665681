import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A live line on stderr for long work, shown only when stderr is a terminal (never when piped,
/// never with `--quiet`). When the input is a regular file it shows how much of it is read, the
/// rate and the time left: `importing: 45% · 120000 records · 52000 records/s · 3 s left`.
public final class ProgressLine {
  private let label: String
  private let enabled: Bool
  private let output: BufferedOutput
  private let clock: () -> Int64
  private let started: Int64
  private var lastUpdate: Int64 = 0
  private var shown = false
  /// The input measured: its descriptor (read position = bytes read, give or take a read-ahead
  /// chunk) and its size.
  private var descriptor: Int32 = -1
  private var size: Int64 = 0

  /// `clock`: milliseconds (tests pass their own).
  public init(
    _ label: String, output: BufferedOutput = .standardError(), enabled: Bool? = nil,
    clock: @escaping () -> Int64 = { Timestamp.now().millisecondsSince1970 }
  ) {
    self.label = label
    self.output = output
    self.enabled = enabled ?? (output.isTerminal && !Notes.quiet)
    self.clock = clock
    started = clock()
  }

  /// Measures progress through this input when it is a regular file (a pipe has no size).
  public func measure(_ descriptor: Int32) {
    var info = stat()
    guard enabled, fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return }
    self.descriptor = descriptor
    size = Int64(info.st_size)
  }

  /// Redraws at most ten times a second; cheap enough to call per record.
  public func update(_ count: Int, unit: String = "records") {
    guard enabled, count & 1023 == 0 else { return }
    draw(describe(count, unit))
  }

  /// `45% · 120000 records · 52000 records/s · 3 s left`: what is known.
  func describe(_ count: Int, _ unit: String) -> String {
    let elapsed = clock() - started
    var parts: [String?] = ["\(count) \(unit)"]
    if elapsed >= 1000 { parts.append("\(Int64(count) * 1000 / elapsed) \(unit)/s") }
    let share = fileShare()
    return ([share.done] + parts + [share.left]).compactMap { $0 }.joined(separator: " · ")
  }

  /// `42 s`, `3 min 5 s`, `1 h 2 min`.
  static func duration(_ seconds: Int64) -> String {
    if seconds < 60 { return "\(seconds) s" }
    if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
    return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
  }

  /// Redraws with a text made only when it is shown (`read 4096, 12 unknown types`), between the
  /// share read and the time left when the input is measured.
  public func update(_ detail: () -> String) {
    guard enabled else { return }
    draw(([fileShare().done] + [detail()] + [fileShare().left]).compactMap { $0 }.joined(separator: " · "))
  }

  /// `45%` and `3 s left`, when the input is a measured file and enough time has passed to tell.
  private func fileShare() -> (done: String?, left: String?) {
    guard size > 0 else { return (nil, nil) }
    let read = Int64(lseek(descriptor, 0, SEEK_CUR))
    guard read > 0 else { return (nil, nil) }
    let elapsed = clock() - started
    let left = elapsed >= 1000 && read < size ? Self.duration((size - read) * elapsed / read / 1000) + " left" : nil
    return ("\(min(100, read * 100 / size))%", left)
  }

  private func draw(_ text: @autoclosure () -> String) {
    let now = clock()
    guard now - lastUpdate >= 100 else { return }
    lastUpdate = now
    shown = true
    output.write("\r\(label): \(text())\u{1B}[K")
    output.flush()
  }

  /// Clears the line, so the final summary starts on a clean one.
  public func finish() {
    guard shown else { return }
    shown = false
    output.write("\r\u{1B}[K")
    output.flush()
  }
}
