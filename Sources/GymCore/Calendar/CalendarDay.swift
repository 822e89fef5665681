/// A day on the calendar, no time and no zone (a day is a day wherever it is read): a best-before,
/// the day a book was started, a goal's year. Written `YYYY-MM-DD`, which sorts as time; read from
/// `YYYY-MM-DD` or `YYYY/MM/DD` (spreadsheets and Goodreads write slashes), month and day of one or
/// two digits, years 0001–9999. The one calendar of every date option, import and stored day.
public struct CalendarDay: Sendable, Hashable, Comparable {
  /// Days since 1970-01-01.
  public let days: Int64

  public init(days: Int64) {
    self.days = days
  }

  public init?(_ text: some StringProtocol) {
    let bytes = Array(text.utf8)
    guard bytes.count >= 8, bytes.count <= 10, bytes[4] == UInt8(ascii: "-") || bytes[4] == UInt8(ascii: "/")
    else { return nil }
    let separator = bytes[4]
    let parts = bytes.split(separator: separator, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
      parts.allSatisfy({ $0.allSatisfy { (48...57).contains($0) } })
    else { return nil }
    func number(_ digits: ArraySlice<UInt8>) -> Int64 { digits.reduce(0) { $0 * 10 + Int64($1 - 48) } }
    let (year, month, day) = (number(parts[0]), number(parts[1]), number(parts[2]))
    guard year >= 1, (1...12).contains(month), day >= 1, day <= Self.daysIn(month, of: year) else { return nil }
    days = Timestamp.days(year: year, month: month, day: day)
  }

  /// The local day (`TZ`, `time.zone`) an instant falls on.
  public init(localDayOf time: Timestamp) {
    days = time.localDays
  }

  /// Today where the user is.
  public static func today(_ now: Timestamp = .now()) -> CalendarDay { CalendarDay(localDayOf: now) }

  public var civil: (year: Int64, month: Int64, day: Int64) {
    let (year, month, day) = Timestamp.civil(fromDays: days)
    return (year, month, day)
  }

  /// `YYYY-MM-DD`.
  public var text: String {
    let (year, month, day) = civil
    func digits(_ value: Int64, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))"
  }

  /// Its first instant where the user is.
  public var localMidnight: Timestamp? { Timestamp(parsing: text) }

  public func adding(days count: Int64) -> CalendarDay { CalendarDay(days: days + count) }

  public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.days < rhs.days }

  public static func daysIn(_ month: Int64, of year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
