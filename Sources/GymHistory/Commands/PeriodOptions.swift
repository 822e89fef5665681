import ArgumentParser
import GymCLI
import GymCore

/// `--since` / `--until` for the commands that total days, hours, weeks or nights: any past range,
/// not only the last N up to now (a 2019 export can be looked at). Without `--since`, the command's
/// count of periods back from `--until`.
struct PeriodOptions: ParsableArguments {
  @OptionGroup var dates: DateRangeOptions

  var until: String? { dates.until }

  /// The range's last instant (just before `--until`, else now) and its first, when `--since` gives it.
  func range(now: Timestamp = .now()) throws -> (first: Timestamp?, last: Timestamp) {
    if dates.sinceAll {
      // These count periods back from the end: "all" would silently be the default count.
      throw GymError.usage("--since all is not taken here; give a date, such as --since 2019-01-01")
    }
    let (first, until) = try dates.bounds(now: now)
    let last = until?.adding(milliseconds: -1) ?? now
    // Without --until the range ends now: a --since after it holds no period at all.
    if let first, first > last { throw GymError.usage("--since must be before --until (default: now)") }
    return (first, last)
  }

  /// How many `unit`s (days, weeks …) the range holds: from `first` when given, else `count`;
  /// refused past `maximum`.
  static func count(
    first: Timestamp?, last: Timestamp, orElse count: Int, maximum: Int, unit: String,
    between: (Timestamp, Timestamp) -> Int64
  ) throws -> Int {
    guard let first else { return count }
    let spanned = between(first, last) + 1
    guard spanned <= Int64(maximum) else {
      throw GymError.usage("--since to --until spans \(spanned) \(unit)s; at most \(maximum): narrow the range")
    }
    return Int(spanned)
  }
}
