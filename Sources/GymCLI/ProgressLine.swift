import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A live line on stderr for long work, shown only when stderr is a terminal.
public final class ProgressLine {
  private let label: String
  private let enabled: Bool
  private let output: BufferedOutput
  private var lastUpdate: Int64 = 0
  private var shown = false

  public init(_ label: String, output: BufferedOutput = .standardError(), enabled: Bool? = nil) {
    self.label = label
    self.output = output
    self.enabled = enabled ?? (output.isTerminal && !Notes.quiet)
  }

  /// Redraws at most ten times a second; cheap enough to call per record.
  public func update(_ count: Int, unit: String = "records") {
    guard enabled, count & 1023 == 0 else { return }
    draw("\(count) \(unit)")
  }

  /// Redraws with a text made only when it is shown (`read 4096, 12 unknown types`).
  public func update(_ detail: () -> String) {
    guard enabled else { return }
    draw(detail())
  }

  private func draw(_ text: @autoclosure () -> String) {
    let now = Timestamp.now().millisecondsSince1970
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
