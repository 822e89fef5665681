import GymCore

/// The grain a time chart is drawn at, so that a long period is shown whole at a readable number of
/// points instead of being cut: named on the axis ("month", "quarter").
public enum ReportGrain: Sendable, Equatable {
  case day, week, month, quarter

  /// Up to this many days a chart of days (or nights) shows each.
  public static let dailyDays = 92

  /// Sessions: by week up to half a year (26 bars), by month up to five years (60), by quarter beyond.
  public static func forSessions(since: Timestamp, end: Timestamp) -> ReportGrain {
    let days = (end.millisecondsSince1970 - since.millisecondsSince1970) / 86_400_000
    return days <= 183 ? .week : days <= 5 * 366 ? .month : .quarter
  }

  /// Samples: by day up to three months, by week up to two years (105 bars), by month beyond.
  public static func forSamples(days: Int) -> ReportGrain {
    days <= dailyDays ? .day : days <= 2 * 366 ? .week : .month
  }

  public var name: String {
    switch self {
    case .day: "day"
    case .week: "week"
    case .month: "month"
    case .quarter: "quarter"
    }
  }

  /// The axis as labelled.
  public var axis: String { self == .week ? "week (Monday)" : name }

  /// An SQL expression of a UTC timestamp column: the local period's label, as `labels` writes it.
  public func sqlLabel(_ column: String) -> String {
    switch self {
    case .day: "date(\(column), 'localtime')"
    case .week: "date(\(column), 'localtime', 'weekday 0', '-6 days')"
    case .month: "strftime('%Y-%m', \(column), 'localtime')"
    case .quarter:
      "strftime('%Y', \(column), 'localtime') || ' Q' || ((CAST(strftime('%m', \(column), 'localtime') AS INTEGER) + 2) / 3)"
    }
  }

  /// Every period from the one holding `since` to the one holding `end`, oldest first: `2026-04-09`,
  /// the week's Monday, `2026-04`, `2026 Q2`.
  public func labels(since: Timestamp, end: Timestamp) -> [String] {
    let first = CalendarDay(localDayOf: since)
    let last = CalendarDay(localDayOf: end)
    guard first.days <= last.days else { return [] }
    switch self {
    case .day:
      return (first.days...last.days).map { CalendarDay(days: $0).text }
    case .week:
      // 1970-01-01 was a Thursday: Monday is the day whose (days + 3) % 7 is 0.
      func monday(_ day: Int64) -> Int64 { day - ((day + 3) % 7 + 7) % 7 }
      return stride(from: monday(first.days), through: last.days, by: 7).map { CalendarDay(days: $0).text }
    case .month, .quarter:
      func yearMonth(_ day: CalendarDay) -> (Int, Int) {
        let text = day.text
        return (Int(text.prefix(4)) ?? 1970, Int(text.dropFirst(5).prefix(2)) ?? 1)
      }
      var (year, month) = yearMonth(first)
      let (endYear, endMonth) = yearMonth(last)
      var labels: [String] = []
      while (year, month) <= (endYear, endMonth) {
        let label =
          self == .month
          ? "\(year)-\(month < 10 ? "0" : "")\(month)" : "\(year) Q\((month + 2) / 3)"
        if labels.last != label { labels.append(label) }
        month += 1
        if month > 12 {
          month = 1
          year += 1
        }
      }
      return labels
    }
  }
}
