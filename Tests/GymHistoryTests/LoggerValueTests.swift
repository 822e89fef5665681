import Foundation
import GymCore
import TestTimeZone
import Testing

@testable import GymHistory

/// Values as Strong and Hevy write them in real exports, in every language they ship, each read to
/// what it means (worked out here from the spelling, not from gym).
@Suite(.serialized) struct LoggerValueTests {
  init() throws { try TestTimeZone.requireUTC() }

  @Test(arguments: [
    ("1h 5m", 3900), ("36m", 2160), ("38min", 2280), ("9min", 540), ("1h", 3600), ("45s", 45), ("0s", 0),
    ("1h 5min", 3900), ("1:05:00", 3900), ("1 h 46 min", 6360), ("42 min", 2520), ("1小时13分钟", 4380),
    ("13分钟", 780), ("1小时", 3600), ("264h 1m", 950_460), ("1h 23min 4s", 4984),
  ])
  func strongDurations(text: String, seconds: Int) {
    #expect(StrongFormat.seconds(text) == seconds)
  }

  @Test(arguments: ["", "an hour", "5", "1h 5x", "1:65:00", "1:05", "99999999999999999h", "h"])
  func notStrongDurations(text: String) {
    #expect(StrongFormat.seconds(text) == nil)
  }

  @Test func strongDates() {
    #expect(StrongFormat.date("2024-03-05 07:15:00")?.canonical == "2024-03-05T07:15:00.000Z")
    #expect(StrongFormat.date("2025-01-30 12:34:56\u{202F}pm")?.canonical == "2025-01-30T12:34:56.000Z")
    #expect(StrongFormat.date("2025-01-30 12:34:56 am")?.canonical == "2025-01-30T00:34:56.000Z")
    #expect(StrongFormat.date("2025-01-30 1:05:00 PM")?.canonical == "2025-01-30T13:05:00.000Z")
    #expect(StrongFormat.date("2025-01-30 13:05:00 pm") == nil)
  }

  /// Every example the real exports show, and ICU's medium format for the other languages.
  @Test(arguments: [
    ("8 Apr 2026, 16:50", "2026-04-08T16:50"), ("Jun 11, 2026, 1:01 PM", "2026-06-11T13:01"),
    ("Jun 11, 2026, 12:01 AM", "2026-06-11T00:01"), ("17 may 2024, 15:05", "2024-05-17T15:05"),
    ("5 Mai 2026, 07:34", "2026-05-05T07:34"), ("11 Nis 2026, 13:05", "2026-04-11T13:05"),
    ("3 de set. de 2026, 15:30", "2026-09-03T15:30"), ("25 Juli 2026, 14:21", "2026-07-25T14:21"),
    ("25. Juli 2026, 14:21", "2026-07-25T14:21"), ("03.09.2026, 15:30", "2026-09-03T15:30"),
    ("3 sept. 2026, 15:30", "2026-09-03T15:30"), ("3 févr. 2026, 18:00", "2026-02-03T18:00"),
    ("20 giu 2026, 14:13", "2026-06-20T14:13"), ("1 gen 2026, 08:00", "2026-01-01T08:00"),
    ("12 mrt 2026, 09:00", "2026-03-12T09:00"), ("12 okt. 2026, 09:00", "2026-10-12T09:00"),
    ("7 Şub 2026, 10:00", "2026-02-07T10:00"), ("2026-04-08T16:50:00Z", "2026-04-08T16:50"),
    ("2026-04-08 16:50", "2026-04-08T16:50"),
  ])
  func hevyDates(text: String, expected: String) {
    #expect(HevyDates.parse(text)?.canonical == expected + ":00.000Z")
  }

  @Test(arguments: ["32 Apr 2026, 16:50", "8 Foo 2026, 16:50", "8 Apr 2026", "8 Apr 2026, 25:00", "yesterday", ""])
  func notHevyDates(text: String) {
    #expect(HevyDates.parse(text) == nil)
  }

  /// Every language's twelve months, each name read as its own month: no spelling is shared by two.
  @Test func everyMonthNameIsOneMonth() {
    var seen: [String: Int] = [:]
    for (language, months) in HevyDates.months {
      #expect(months.count == 12, "\(language)")
      for (index, names) in months.enumerated() {
        for name in names {
          if let other = seen[name] { #expect(other == index + 1, "\(language) \(name)") }
          seen[name] = index + 1
          #expect(
            HevyDates.parse("2 \(name) 2026, 10:00")?.canonical.prefix(7) == "2026-\(index < 9 ? "0" : "")\(index + 1)")
        }
      }
    }
  }

  /// A header spelling stands for one English column, whatever the language.
  @Test func everyStrongSpellingIsOneColumn() {
    var seen: [String: String] = [:]
    for (language, names) in StrongHeaders.languages {
      for (english, local) in names {
        #expect(StrongHeaders.columns.contains(english), "\(language) \(english)")
        if let other = seen[local] { #expect(other == english, "\(language) \(local)") }
        seen[local] = english
      }
    }
    for (_, english) in StrongHeaders.layouts { #expect(StrongHeaders.columns.contains(english)) }
  }

  /// Found in review: two-digit years are not guessed, and the 12-hour markers Spanish and English
  /// devices write with dots read as AM and PM.
  @Test func hevyYearsAndMarkers() {
    #expect(HevyDates.parse("03.09.26, 15:30") == nil)
    #expect(HevyDates.parse("8 Apr 26, 16:50") == nil)
    #expect(HevyDates.parse("Jun 11, 2026, 1:01 p.m.")?.canonical == "2026-06-11T13:01:00.000Z")
    #expect(HevyDates.parse("11 jun 2026, 1:01 p. m.")?.canonical == "2026-06-11T13:01:00.000Z")
    #expect(HevyDates.parse("11 jun 2026, 12:30 a. m.")?.canonical == "2026-06-11T00:30:00.000Z")
  }

  /// Every spelling of a time, in every style `HevyDates.spellings` writes, reads back as that
  /// time and no other: midnight and noon (the 12-hour forms' edges), a time with seconds, the first
  /// and last of the months and days, and September's two English spellings.
  @Test(arguments: [
    (2024, 1, 12, 18, 30, 0), (2024, 2, 3, 7, 5, 0), (2026, 9, 8, 0, 5, 0), (2026, 12, 31, 12, 5, 0),
    (2025, 6, 1, 23, 59, 30), (2026, 3, 29, 2, 30, 0),
  ])
  func everySpellingReadsBackAsItsTime(
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
  ) {
    let time = HevyDates.Written(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    let spellings = HevyDates.spellings(time)
    #expect(Set(spellings).count == spellings.count)
    for text in spellings { #expect(HevyDates.written(text) == time, "\(text)") }
  }

  @Test func theSpellingsOfOneTimeAreTheStylesHevyWrites() {
    let spellings = Set(HevyDates.spellings(.init(year: 2024, month: 1, day: 12, hour: 18, minute: 30, second: 0)))
    for text in [
      "12 Jan 2024, 18:30", "Jan 12, 2024, 6:30 PM", "12 Jan 2024, 6:30 PM", "Jan 12, 2024, 18:30",
      "12 ene 2024, 18:30", "12 ene 2024, 6:30 p. m.", "12 Jan 2024, 18:30", "12 Oca 2024, 18:30",
      "12 de jan. de 2024, 18:30", "12 janv. 2024, 18:30", "12 Januar 2024, 18:30", "12. Januar 2024, 18:30",
      "12.01.2024, 18:30", "12 gen 2024, 18:30", "12 jan 2024, 18:30", "12 Jan 2024, 18:30:00",
      "2024-01-12 18:30:00", "2024-01-12T18:30", "2024-01-12 18:30",
    ] {
      #expect(spellings.contains(text), "\(text)")
    }
    let september = Set(HevyDates.spellings(.init(year: 2026, month: 9, day: 8, hour: 7, minute: 5, second: 0)))
    #expect(
      ["8 Sep 2026, 07:05", "8 Sept 2026, 7:05", "8 sept 2026, 07:05", "8 sep 2026, 7:05 a. m."].allSatisfy(
        september.contains))
  }

  /// A duration that would end past year 9999 is an error, not a date written with a wrapped year.
  @Test func aDurationPastTheCalendarIsAnError() throws {
    let start = try #require(StrongFormat.date("2024-03-05 07:15:00"))
    let minutes =
      Double(try #require(StrongFormat.seconds(Array(repeating: "9999999h", count: 8).joined(separator: " ")))) / 60
    #expect(throws: InputError.self) {
      try LoggedWorkout(key: "k", title: "t", start: start, minutes: minutes, notes: nil)
    }
    #expect(
      (try? LoggedWorkout(key: "k", title: "t", start: start, minutes: 65, notes: nil))?.end.canonical
        == "2024-03-05T08:20:00.000Z")
  }
}
