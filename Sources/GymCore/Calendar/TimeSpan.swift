/// A length of time as people write it on a command line: whole numbers, each with its unit, largest
/// first (`90s`, `30m`, `24h`, `7d`, `2w`, `1h30m`, `1w2d`). The one duration grammar of every option
/// (`--since`, `--until`, `--every`, `--max-age`, `--keep-within`) and of `--where`'s date arithmetic.
public struct TimeSpan: Sendable, Hashable, Comparable {
  public let milliseconds: Int64

  /// Longer than any span between two dates gym can write (years 0001–9999).
  public static let longest = TimeSpan(milliseconds: 10_000 * 366 * 86_400_000)
  public static let units: [(name: UInt8, milliseconds: Int64)] = [
    (UInt8(ascii: "w"), 604_800_000), (UInt8(ascii: "d"), 86_400_000), (UInt8(ascii: "h"), 3_600_000),
    (UInt8(ascii: "m"), 60_000), (UInt8(ascii: "s"), 1000),
  ]
  /// Said by every error about a duration.
  public static let grammar = "a whole number with w, d, h, m or s, or several largest first (90s, 7d, 2w, 1h30m)"

  public init(milliseconds: Int64) {
    self.milliseconds = milliseconds
  }

  public init?(_ text: some StringProtocol) {
    guard case .success(let span) = Self.parse(text) else { return nil }
    self = span
  }

  /// Why a text is not a span: not written as one, or longer than `longest`.
  public enum Problem: Error, Sendable { case malformed, tooLong }

  public static func parse(_ text: some StringProtocol) -> Result<TimeSpan, Problem> {
    var total: Int64 = 0
    var number: Int64?
    var nextUnit = 0  // units only get smaller: `1h30m`, never `30m1h` or `1m1m`
    for byte in text.utf8 {
      if (48...57).contains(byte) {
        let (times10, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
        guard !overflow, times10 <= Self.longest.milliseconds else { return .failure(.tooLong) }
        number = times10 + Int64(byte - 48)
        continue
      }
      guard let count = number,
        let unit = Self.units[nextUnit...].firstIndex(where: { $0.name == byte })
      else { return .failure(.malformed) }
      let (span, overflow) = count.multipliedReportingOverflow(by: Self.units[unit].milliseconds)
      guard !overflow, span <= Self.longest.milliseconds - total else { return .failure(.tooLong) }
      total += span
      number = nil
      nextUnit = unit + 1
    }
    guard number == nil, nextUnit > 0 else { return .failure(.malformed) }
    return .success(TimeSpan(milliseconds: total))
  }

  public var seconds: Double { Double(milliseconds) / 1000 }

  public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.milliseconds < rhs.milliseconds }
}
