import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A live line on stderr for long work, shown only when stderr is a terminal.
public final class Progress {
  private let label: String
  private let enabled: Bool
  private var lastUpdate: Int64 = 0
  private var shown = false

  public init(_ label: String, enabled: Bool = isatty(2) == 1) {
    self.label = label
    self.enabled = enabled
  }

  /// Redraws at most ten times a second; cheap enough to call per record.
  public func update(_ count: Int, unit: String = "records") {
    guard enabled, count & 1023 == 0 else { return }
    let now = Timestamp.now().millisecondsSince1970
    guard now - lastUpdate >= 100 else { return }
    lastUpdate = now
    shown = true
    let stream = BufferedOutput.standardError()
    stream.write("\r\(label): \(count) \(unit)\u{1B}[K")
    stream.flush()
  }

  public func finish() {
    guard shown else { return }
    let stream = BufferedOutput.standardError()
    stream.write("\r\u{1B}[K")
    stream.flush()
  }
}
