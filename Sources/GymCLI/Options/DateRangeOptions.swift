import ArgumentParser
import GymCore

/// `--since` and `--until`, the one pair every command that looks at a stretch of time takes: any
/// date option's grammar (`2019-01-01`, `2019/01/01`, `90d`, `1h30m`, `'now - 2w'`), `--since`
/// included, `--until` not.
public struct DateRangeOptions: ParsableArguments {
  @Option(help: ArgumentHelp("From this date on (2026-01-01, 90d, 'now - 2w', all).", valueName: "date"))
  public var since: String?
  @Option(
    help: ArgumentHelp(
      "Before this date (left out: a list has no end; a summary by period ends now).", valueName: "date"))
  public var until: String?

  public init() {}

  /// `--since all`: from the first record (nil from `bounds`, so a listing simply has no lower end).
  public var sinceAll: Bool { since?.lowercased() == "all" }

  public func validate() throws {
    do { _ = try bounds() } catch { throw ValidationError(error) }
  }

  /// Both ends as instants, each nil when not given.
  public func bounds(now: Timestamp = .now()) throws(GymError) -> (since: Timestamp?, until: Timestamp?) {
    let from =
      sinceAll
      ? nil : try since.map { text throws(GymError) in try WhereParser.parseDate(text, option: "--since", now: now) }
    let to = try until.map { text throws(GymError) in try WhereParser.parseDate(text, option: "--until", now: now) }
    if let from, let to, from >= to { throw GymError.usage("--since must be before --until") }
    return (from, to)
  }

  /// The range as conditions on a timestamp field, for a listing's query.
  public func predicates(on field: String, now: Timestamp = .now()) throws(GymError) -> [RecordFilter] {
    let (from, to) = try bounds(now: now)
    return [
      from.map { RecordFilter.compare(field, .greaterOrEqual, .timestamp($0)) },
      to.map { RecordFilter.compare(field, .less, .timestamp($0)) },
    ].compactMap { $0 }
  }
}
