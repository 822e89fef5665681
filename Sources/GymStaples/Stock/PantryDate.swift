import GymCLI
import GymCore

/// Best-before and opened dates: calendar days, `YYYY-MM-DD`, compared as text (which sorts as time).
enum PantryDate {
  /// A valid `YYYY-MM-DD` (years 1900–9999), or a usage error naming the option.
  static func parse(_ text: String, option: String) throws(GymError) -> String {
    let parts = text.trimmed.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]), (1900...9999).contains(year),
      (1...12).contains(month), (1...31).contains(day),
      Timestamp.civil(fromDays: Timestamp.days(year: year, month: month, day: day)) == (year, month, day)
    else { throw GymError.usage("\(option) '\(text)' is not a date; write YYYY-MM-DD, such as 2026-12-01") }
    return text.trimmed
  }

  /// A local calendar day (days since 1970-01-01) as `YYYY-MM-DD`.
  static func string(days: Int64) -> String {
    let (year, month, day) = Timestamp.civil(fromDays: days)
    return String(format: "%04d-%02d-%02d", Int(year), Int(month), Int(day))
  }

  /// Today in the local zone.
  static func today(_ now: Timestamp = .now()) -> Int64 { now.localDays }

  /// Days from today to a stored date; nil when it is not one.
  static func days(until date: String, today: Int64) -> Int64? {
    let parts = date.split(separator: "-")
    guard parts.count == 3, let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]) else {
      return nil
    }
    return Timestamp.days(year: year, month: month, day: day) - today
  }
}
