import GymCLI
import GymCore

/// The stretch of time a report covers, and how it says so. Without `--since` it is the last 12
/// months of the data (all of it when there is less), ending at the latest record, so an export
/// that ends in April, or in 2019, is shown and not "No data yet"; `--since all` starts at the
/// first record.
struct ReportPeriod: Equatable {
  let since: Timestamp
  /// The last instant covered.
  let end: Timestamp
  /// How it was chosen, for the subtitle.
  let note: String

  /// What the period is asked to be: each end given or not.
  struct Request: Sendable {
    var since: Timestamp?
    var sinceAll = false
    /// Not included, as the period commands end.
    var until: Timestamp?
  }

  static let year: Int64 = 365 * 86_400_000

  static func resolve(_ request: Request, extents: [DataExtent], now: Timestamp) -> ReportPeriod {
    let first = extents.map(\.first).min()
    // A record dated in the future (a clock set wrong) does not move the period past now.
    let last = extents.map(\.last).max().map { min($0, now) }
    // Centuries of days without a record are no chart, and 2,000 years of them took 238 MB: a period
    // asked to start before the first record starts there, and one asked to end more than a year
    // after now (or the latest record) ends a year after it.
    let latest = max(now, extents.map(\.last).max() ?? now).adding(milliseconds: year)
    var end =
      request.until.map { min($0.adding(milliseconds: -1), latest) } ?? (request.since == nil ? last : nil) ?? now
    if let since = request.since, let until = request.until, end < since {
      end = min(until.adding(milliseconds: -1), since.adding(milliseconds: year))  // asked for, past all data
    }
    let yearBefore = end.adding(milliseconds: -year + 1)
    // An --until drawn shorter says so, as a --since drawn later does.
    let shortened = request.until.map { end < $0.adding(milliseconds: -1) } ?? false
    let untilNote = shortened ? "ending before --until: a report reaches a year past now and its data at most" : ""
    if let since = request.since {
      guard let first, since < first, first <= end else { return ReportPeriod(since: since, end: end, note: untilNote) }
      return ReportPeriod(
        since: first, end: end,
        note: "from your first record, after --since" + (shortened ? "; " + untilNote : ""))
    }
    // Nothing before the end (--until before the first record): the year before it, which says so.
    guard let first, first <= end else { return ReportPeriod(since: yearBefore, end: end, note: untilNote) }
    if request.sinceAll {
      return ReportPeriod(
        since: first, end: end, note: request.until == nil ? "all of your data" : "from your first record")
    }
    guard first > yearBefore else {
      let note =
        request.until == nil
        ? "the last 12 months of your data" : shortened ? untilNote : "the 12 months before --until"
      return ReportPeriod(since: yearBefore, end: end, note: note)
    }
    return ReportPeriod(
      since: first, end: end,
      note: request.until == nil ? "all of your data (less than 12 months)" : "from your first record")
  }

  /// "From … to …", with how the period was chosen.
  var subtitle: String {
    let range = "From \(CalendarDay(localDayOf: since).text) to \(CalendarDay(localDayOf: end).text)"
    return note.isEmpty ? range : "\(range): \(note)"
  }

  /// What the page says when nothing in the period can be drawn: where the data is, when none of it
  /// falls in the period.
  static func emptyMessage(_ extents: [DataExtent], period: ReportPeriod) -> String? {
    guard !extents.isEmpty else { return nil }
    let outside = extents.filter { $0.last < period.since || $0.first > period.end }
    guard outside.count == extents.count else {
      return "Nothing in this period that the report draws (it has records, but no chart or table of them)."
    }
    let places = extents.map { place($0, period: period) }
    return "No data in this period: \(places.joined(separator: "; ")). "
      + "Run gym report without --since for the last 12 months of it, or with --since all."
  }

  /// The kinds of record that lie wholly outside the period while others are in it (a watch that
  /// stopped in 2019 beside this year's books): said under the title, since their section is not drawn.
  static func outsideNote(_ extents: [DataExtent], period: ReportPeriod) -> String? {
    let outside = extents.filter { $0.last < period.since || $0.first > period.end }
    guard !outside.isEmpty, outside.count < extents.count else { return nil }
    let places = outside.map { place($0, period: period) }
    return "Not in this period: \(places.joined(separator: "; ")) (gym report --since all shows everything)."
  }

  /// Where one kind of record lies against the period: its latest, when the period comes after it,
  /// else its first.
  private static func place(_ extent: DataExtent, period: ReportPeriod) -> String {
    extent.last < period.since
      ? "your latest \(extent.what) is \(CalendarDay(localDayOf: extent.last).text)"
      : "your first \(extent.what) is \(CalendarDay(localDayOf: extent.first).text)"
  }
}
