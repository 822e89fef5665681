#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An instant in milliseconds since 1970 UTC, with the canonical text form the store keeps.
///
/// The canonical form has a fixed width (`2026-11-21T10:00:00.000Z`), so text order is time order
/// and SQLite's date functions read it. Parsing and formatting are hand-written: they run once per
/// imported row, where Foundation's formatters cost more than the insert.
public struct Timestamp: Sendable, Hashable, Comparable {
  public let millisecondsSince1970: Int64

  public init(millisecondsSince1970: Int64) {
    self.millisecondsSince1970 = millisecondsSince1970
  }

  public static func now() -> Timestamp {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Timestamp(millisecondsSince1970: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
  }

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.millisecondsSince1970 < rhs.millisecondsSince1970
  }

  public func adding(milliseconds: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: millisecondsSince1970 + milliseconds)
  }

  /// Whether the instant falls in years 0 to 9999 (UTC), the years the canonical text's four digits
  /// can write: what the parser accepts, so a date near either end given with an offset (or in local
  /// time) is refused, not written as another year.
  public var isWithinCanonicalYears: Bool {
    // 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in milliseconds since 1970.
    millisecondsSince1970 >= -62_167_219_200_000 && millisecondsSince1970 < 253_402_300_800_000
  }

  /// Whether the instant falls in years 1 to 9999, the years the canonical text can write.
  public var isWithinCalendarYears: Bool {
    // 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z in milliseconds since 1970.
    millisecondsSince1970 >= -62_135_596_800_000 && millisecondsSince1970 < 253_402_300_800_000
  }

  /// The instant `milliseconds` later, or nil when it is past what a timestamp can hold (a
  /// duration from outside input).
  public func adding(checked milliseconds: Int64) -> Timestamp? {
    let (sum, overflow) = millisecondsSince1970.addingReportingOverflow(milliseconds)
    return overflow ? nil : Timestamp(millisecondsSince1970: sum)
  }

  /// `2026-11-21T10:00:00.000Z`
  public var canonical: String {
    var out: [UInt8] = []
    appendCanonical(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends the canonical form's 24 bytes (the import path reuses one buffer).
  public func appendCanonical(to out: inout [UInt8]) {
    let (days, msOfDay) = millisecondsSince1970.floorDivided(by: 86_400_000)
    Self.format(days: days, millisecondOfDay: msOfDay, suffix: "Z", into: &out)
  }

  /// The local calendar day (days since 1970-01-01 in the local zone, `TZ`), through `localtime_r`.
  public var localDays: Int64 {
    var seconds = time_t(millisecondsSince1970.floorDivided(by: 1000).quotient)
    var parts = tm()
    localtime_r(&seconds, &parts)
    return (millisecondsSince1970 + Int64(parts.tm_gmtoff) * 1000).floorDivided(by: 86_400_000).quotient
  }

  /// The Monday of the week (Monday to Sunday) of a day counted from 1970-01-01, a Thursday.
  public static func monday(ofDay day: Int64) -> Int64 { day - (day + 3).floorDivided(by: 7).remainder }

  /// Local wall-clock time for people: `2026-11-21 11:00`.
  public var localDescription: String {
    var seconds = time_t(millisecondsSince1970.floorDivided(by: 1000).quotient)
    var parts = tm()
    localtime_r(&seconds, &parts)
    let offsetMs = Int64(parts.tm_gmtoff) * 1000
    let (days, msOfDay) = (millisecondsSince1970 + offsetMs).floorDivided(by: 86_400_000)
    var bytes: [UInt8] = []
    Self.format(days: days, millisecondOfDay: msOfDay, suffix: "", into: &bytes)
    // Split at the `T`: a local year past 9999 (or before 0), near the ends of the range, has more digits.
    let date = bytes.prefix { $0 != UInt8(ascii: "T") }
    return String(decoding: date, as: UTF8.self) + " "
      + String(decoding: bytes.dropFirst(date.count + 1).prefix(5), as: UTF8.self)
  }

  /// Local time with its offset, ISO 8601, to the second: `2026-11-21T11:00:00-05:00`. The same
  /// instant in any zone, so a script reads it the same whatever `TZ` it runs under.
  public var localISO8601: String {
    var seconds = time_t(millisecondsSince1970.floorDivided(by: 1000).quotient)
    var parts = tm()
    localtime_r(&seconds, &parts)
    let offset = Int64(parts.tm_gmtoff)
    let (days, msOfDay) = (millisecondsSince1970 + offset * 1000).floorDivided(by: 86_400_000)
    var bytes: [UInt8] = []
    Self.format(days: days, millisecondOfDay: msOfDay, suffix: "", into: &bytes)
    let minutes = abs(offset) / 60
    let sign = offset < 0 ? "-" : "+"
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let zone = sign + two(minutes / 60) + ":" + two(minutes % 60)
    return String(decoding: bytes.dropLast(4), as: UTF8.self) + zone  // to the second: without `.sss`
  }

  private static func format(days: Int64, millisecondOfDay ms: Int64, suffix: String, into out: inout [UInt8]) {
    let (year, month, day) = civil(fromDays: days)
    // Written into 23 bytes on the stack and appended once: an import formats two per record, and
    // appending byte by byte checked the array's uniqueness and capacity 23 times each.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
      var at = 0
      func put(_ byte: UInt8) {
        buffer[at] = byte
        at += 1
      }
      func digits(_ value: Int64, _ width: Int) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var v = value
        while divisor > 0 {
          put(UInt8(48 + (v / divisor) % 10))
          v %= divisor
          divisor /= 10
        }
      }
      // Four digits for the years the canonical text holds; a local time near either end can fall
      // outside them, and is written as it is (`10000-01-01`, `-0001-12-31`), never as another year.
      if year < 0 { put(UInt8(ascii: "-")) }
      var (width, bound): (Int, Int64) = (4, 10_000)
      while abs(year) >= bound && width < 18 { (width, bound) = (width + 1, bound * 10) }
      digits(abs(year), width)
      put(UInt8(ascii: "-"))
      digits(month, 2)
      put(UInt8(ascii: "-"))
      digits(day, 2)
      put(UInt8(ascii: "T"))
      digits(ms / 3_600_000, 2)
      put(UInt8(ascii: ":"))
      digits(ms / 60_000 % 60, 2)
      put(UInt8(ascii: ":"))
      digits(ms / 1000 % 60, 2)
      put(UInt8(ascii: "."))
      digits(ms % 1000, 3)
      out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<at]))
    }
    out.append(contentsOf: suffix.utf8)
  }

  /// Parses `YYYY-MM-DD`, `YYYY-MM-DD[T| ]HH:MM[:SS[.fff]]`, each with an optional `Z` or
  /// `±HH[:MM]` offset. Without an offset the time is local wall-clock time.
  public init?(parsing text: some StringProtocol) {
    var text = String(text)
    guard let value = text.withUTF8({ Timestamp(parsing: $0) }) else { return nil }
    self = value
  }

  public init?(parsing bytes: UnsafeBufferPointer<UInt8>) {
    var parser = TimestampParser(bytes: bytes)
    guard let value = parser.parse() else { return nil }
    self = value
  }

  /// `init(parsing:)` for a field that always gives a time of day (an app's export): a date alone
  /// is refused, never read as its midnight.
  public init?(parsingDateTime text: some StringProtocol) {
    var text = String(text)
    guard let value = text.withUTF8({ Timestamp(parsingDateTime: $0) }) else { return nil }
    self = value
  }

  public init?(parsingDateTime bytes: UnsafeBufferPointer<UInt8>) {
    // The parser reads exactly four digits of year, so a time's separator is the eleventh byte.
    guard bytes.count > 10, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ") else { return nil }
    self.init(parsing: bytes)
  }

  /// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's algorithm).
  public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  public static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The UTC offset of local time at a wall-clock instant, in milliseconds. Worked out from the
  /// offsets a day before and a day after (`localtime_r`), not by `mktime`, whose answer for an
  /// hour a clock change repeats depends on what it was asked before (the same 01:30 was read as
  /// 01:30 EST by one importer and EDT by another): a repeated hour is its first, and a time the
  /// clock skips is read with the offset before the change (02:30 as 03:30 after it).
  static func localOffset(wallClockMilliseconds wall: Int64) -> Int64 {
    let seconds = wall.floorDivided(by: 1000).quotient
    func offset(at instant: Int64) -> Int64 {
      var time = time_t(instant)
      var parts = tm()
      guard localtime_r(&time, &parts) != nil else { return 0 }
      return Int64(parts.tm_gmtoff)
    }
    let before = offset(at: seconds - 86_400)
    let after = offset(at: seconds + 86_400)
    // An instant whose local time is the wall time, with either offset; the earlier when both are.
    let candidates = [before, after].filter { offset(at: seconds - $0) == $0 }
    guard let chosen = candidates.max() else { return before * 1000 }
    return chosen * 1000
  }
}

extension Int64 {
  public func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let q = self >= 0 ? self / divisor : (self - divisor + 1) / divisor
    return (q, self - q * divisor)
  }
}

private struct TimestampParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  mutating func number(_ width: Int) -> Int64? {
    guard index + width <= bytes.count else { return nil }
    var value: Int64 = 0
    for _ in 0..<width {
      let b = bytes[index]
      guard b >= 48 && b <= 57 else { return nil }
      value = value * 10 + Int64(b - 48)
      index += 1
    }
    return value
  }

  mutating func consume(_ ascii: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: ascii) else { return false }
    index += 1
    return true
  }

  mutating func parse() -> Timestamp? {
    guard let year = number(4), consume("-"), let month = number(2), consume("-"),
      let day = number(2), (1...12).contains(month), day >= 1, day <= CalendarDay.daysIn(month, of: year)
    else { return nil }
    var ms: Int64 = 0
    if consume("T") || consume(" ") {
      guard let hour = number(2), consume(":"), let minute = number(2), hour < 24, minute < 60
      else { return nil }
      ms = (hour * 60 + minute) * 60_000
      if consume(":") {
        guard let second = number(2), second < 60 else { return nil }
        ms += second * 1000
        if consume(".") || consume(",") {
          var scale: Int64 = 100
          var digits = 0
          while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            ms += Int64(bytes[index] - 48) * scale
            scale /= 10
            index += 1
            digits += 1
          }
          guard digits > 0 else { return nil }
        }
      }
    }
    let wall = Timestamp.days(year: year, month: month, day: day) * 86_400_000 + ms
    if index == bytes.count {
      return Self.canonical(
        Timestamp(millisecondsSince1970: wall - Timestamp.localOffset(wallClockMilliseconds: wall)))
    }
    if consume("Z") || consume("z") {
      return index == bytes.count ? Self.canonical(Timestamp(millisecondsSince1970: wall)) : nil
    }
    _ = consume(" ")
    let sign: Int64
    if consume("+") { sign = 1 } else if consume("-") { sign = -1 } else { return nil }
    guard let oh = number(2) else { return nil }
    _ = consume(":")
    let om = index < bytes.count ? number(2) : 0
    guard let om, index == bytes.count, oh < 24, om < 60 else { return nil }
    return Self.canonical(Timestamp(millisecondsSince1970: wall - sign * (oh * 60 + om) * 60_000))
  }

  /// The instant when the canonical text can write its year (0 to 9999 in UTC), else nil.
  private static func canonical(_ timestamp: Timestamp) -> Timestamp? {
    timestamp.isWithinCanonicalYears ? timestamp : nil
  }
}
