import ArgumentParser
import GymCLI
import GymCore

/// `--since` / `--until` for the commands that total days, hours, weeks or nights: any past range,
/// not only the last N up to now (a 2019 export can be looked at). Dates or durations, the one
/// grammar `--where` reads (`2019-01-01`, `90d`, `'now - 2w'`).
struct PeriodOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "From this date on (2019-01-01, 90d, 'now - 2w'), instead of counting back from --until.", valueName: "date"))
  var since: String?
  @Option(help: ArgumentHelp("Up to this date, not including it (default: now).", valueName: "date"))
  var until: String?

  /// The range's last instant (just before `--until`, else now) and its first, when `--since` gives it.
  func range(now: Timestamp = .now()) throws -> (first: Timestamp?, last: Timestamp) {
    let last =
      try until.map { try WhereParser.parseDate($0, option: "--until", now: now).adding(milliseconds: -1) } ?? now
    let first = try since.map { try WhereParser.parseDate($0, option: "--since", now: now) }
    if let first, first > last { throw GymError.usage("--since must be before --until") }
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
