import Foundation
import Testing

/// Sleep per night as the Health app counts it, worked out by hand from the records (times UTC,
/// the process's zone): a night is named by the date it ends and holds the sleep starting from
/// 18:00 the evening before; asleep is core + deep + REM + unspecified from the best source that
/// recorded stages; awake is not sleep; in bed may come from another source.
@Suite struct SleepNightTests {
  static func sample(_ stage: String, _ start: String, _ end: String, _ source: String) -> String {
    #"{"type":"sleep","start":"\#(start)","end":"\#(end)","value":0,"unit":"min","stage":"\#(stage)","source":"\#(source)"}"#
  }

  static let phone = "Anna’s iPhone"
  static let watch = "Anna’s Apple Watch"
  /// In bed 22:00–07:00 from the phone; the watch's stages: core 22:30–02:00, awake 02:00–02:15,
  /// deep 02:15–04:00, REM 04:00–06:30; a nap on the watch at 18:30–19:00 the next evening.
  static let night = [
    sample("inBed", "2024-03-09T22:00:00Z", "2024-03-10T07:00:00Z", phone),
    sample("asleepCore", "2024-03-09T22:30:00Z", "2024-03-10T02:00:00Z", watch),
    sample("awake", "2024-03-10T02:00:00Z", "2024-03-10T02:15:00Z", watch),
    sample("asleepDeep", "2024-03-10T02:15:00Z", "2024-03-10T04:00:00Z", watch),
    sample("asleepREM", "2024-03-10T04:00:00Z", "2024-03-10T06:30:00Z", watch),
    sample("asleep", "2024-03-10T18:30:00Z", "2024-03-10T19:00:00Z", watch),
  ]

  func imported() throws -> GymProcess {
    let gym = try GymProcess()
    let result = try gym.run(["history", "samples", "import", "-"], stdin: Self.night.joined(separator: "\n") + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    return gym
  }

  @Test func aNightIsBedtimeToWakeWithItsStages() throws {
    let gym = try imported()
    let result = try gym.run(["history", "sleep", "--since", "2024-03-09", "--until", "2024-03-12", "-f", "csv"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines.map(String.init) == [
        "night,bedtime,wake,inBed,asleep,awake,core,deep,rem,unspecified,source,inBedSource",
        // The nap at 18:30 starts after 18:00: the next night's. 30 min asleep, unspecified.
        "2024-03-11,2024-03-10T18:30:00.000Z,2024-03-10T19:00:00.000Z,,30,0,,,,30,\(Self.watch),",
        // In bed 22:00–07:00 = 9 h = 540; core 210 + deep 105 + REM 150 = 465 asleep; awake 15, not sleep.
        // Bedtime the first in-bed record; wake the end of the last asleep stage, 06:30.
        "2024-03-10,2024-03-09T22:00:00.000Z,2024-03-10T06:30:00.000Z,540,465,15,210,105,150,,\(Self.watch),\(Self.phone)",
        "2024-03-09,,,,,,,,,,,",
      ], "\(result.stdout)")
  }

  /// A day holds the night that ends in it, whole: never split at midnight, never in-bed or awake time.
  @Test func dailySleepIsTheNightAsleep() throws {
    let gym = try imported()
    let result = try gym.run([
      "history", "daily", "--type", "sleep", "--since", "2024-03-09", "--until", "2024-03-12", "-f", "csv",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // Days newest first: 03-11 the nap (30), 03-10 the night (465), 03-09 nothing.
    #expect(
      result.stdoutLines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst() }
        .map { $0.joined(separator: ",") } == ["1,30", "1,465", "0,"], "\(result.stdout)")
  }

  /// The summary's last night, as of the morning after: in bed from the phone, asleep from the watch.
  @Test func theSummaryTakesInBedAndStagesFromTheirOwnSources() throws {
    let gym = try imported()
    let result = try gym.run(["history", "summary", "-f", "json", "--until", "2024-03-10T09:00:00Z"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(json["lastNightInBed"] as? Double == 540)
    #expect(json["lastNightAsleep"] as? Double == 465)  // 210 + 105 + 150
  }

  /// A night entered by hand in Health outranks an app's: a 19-minute in-bed record from a clock app
  /// never stands for a 10-hour night.
  @Test func aManualEntryOutranksAnApp() throws {
    let gym = try GymProcess()
    let records = [
      Self.sample("inBed", "2024-03-09T21:00:00Z", "2024-03-10T07:00:00Z", "Health"),
      Self.sample("inBed", "2024-03-09T23:00:00Z", "2024-03-09T23:19:00Z", "Clock"),
    ]
    #expect(
      try gym.run(["history", "samples", "import", "-"], stdin: records.joined(separator: "\n") + "\n").status == 0)
    let result = try gym.run(["history", "sleep", "--since", "2024-03-10", "--until", "2024-03-11", "-f", "csv"])
    // 21:00 to 07:00 is 10 h = 600 min; no stages, so asleep is unknown, not 0.
    #expect(
      result.stdoutLines.dropFirst().map(String.init) == [
        "2024-03-10,2024-03-09T21:00:00.000Z,2024-03-10T07:00:00.000Z,600,,,,,,,,Health"
      ], "\(result.stdout)\(result.stderr)")
  }

  /// Any past range: a range past the bound is refused, --since after --until too.
  @Test func rangesAreCheckedAndBounded() throws {
    let gym = try imported()
    let reversed = try gym.run(["history", "sleep", "--since", "2024-03-12", "--until", "2024-03-09"])
    #expect(reversed.status == 64 && reversed.stderr.contains("--since must be before --until"), "\(reversed.stderr)")
    let long = try gym.run(["history", "daily", "--type", "steps", "--since", "1990-01-01", "--until", "2024-01-01"])
    // 1990-01-01 to 2023-12-31: 34 years, 8 of them leap (1992 … 2020) = 34 × 365 + 8 = 12418 days.
    #expect(long.status == 64 && long.stderr.contains("spans 12418 days; at most 3660"), "\(long.stderr)")
  }
}

/// Sources rank by the device their records name, not by their name: a phone renamed "Zed Phone"
/// outranks an app called "Aardvark Pedometer", as in the Health app.
@Suite struct SourceDeviceTests {
  static func record(_ source: String, device: String?, value: Int) -> String {
    let deviceAttribute =
      device.map {
        #" device="&lt;&lt;HKDevice: 0x1&gt;, name:\#($0), manufacturer:Apple Inc., model:\#($0), hardware:x, software:17.0&gt;""#
      } ?? ""
    return
      #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\#(source)"\#(deviceAttribute) unit="count" startDate="2024-03-10 10:00:00 +0000" endDate="2024-03-10 11:00:00 +0000" value="\#(value)"/>"#
  }

  @Test func aRenamedPhoneOutranksAnApp() throws {
    let gym = try GymProcess()
    let xml =
      "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
      + Self.record("Zed Phone", device: "iPhone", value: 1000)
      + "\n" + Self.record("Aardvark Pedometer", device: nil, value: 800) + "\n</HealthData>\n"
    let path = try gym.write("export.xml", xml)
    #expect(try gym.run(["history", "import-health", path]).status == 0)
    let daily = try gym.run([
      "history", "daily", "--type", "steps", "--since", "2024-03-10", "--until", "2024-03-11", "-f", "csv",
    ])
    // The same hour from both: the phone's 1000 count, and the app's 800, covered all along by the
    // phone, count for nothing (1 sample counted). By name alone the app would come first: 800.
    #expect(daily.stdoutLines.dropFirst().map(String.init) == ["2024-03-10T00:00:00+00:00,1,1000"], "\(daily.stdout)")
    let sources = try gym.run(["history", "samples", "sources", "-f", "csv"])
    #expect(sources.stdoutLines.dropFirst().map { $0.split(separator: ",")[1] } == ["Zed Phone", "Aardvark Pedometer"])
  }

  /// Steps a person entered by hand in an app (`HKWasUserEntered`) outrank the watch's for the same hour.
  @Test func entriesByHandOutrankDevices() throws {
    let gym = try GymProcess()
    let manual = Self.record("Pedometer++", device: nil, value: 500).replacingOccurrences(
      of: "/>", with: ">\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n </Record>")
    let xml =
      "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
      + Self.record("Anna’s Watch", device: "Watch", value: 900)
      + "\n" + manual + "\n</HealthData>\n"
    #expect(try gym.run(["history", "import-health", try gym.write("export.xml", xml)]).status == 0)
    let daily = try gym.run([
      "history", "daily", "--type", "steps", "--since", "2024-03-10", "--until", "2024-03-11", "-f", "csv",
    ])
    // The same hour: the 500 entered by hand count; the watch's 900, covered by them, do not.
    #expect(daily.stdoutLines.dropFirst().map(String.init) == ["2024-03-10T00:00:00+00:00,1,500"], "\(daily.stdout)")
  }
}
