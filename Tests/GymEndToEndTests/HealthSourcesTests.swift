import Foundation
import Testing

/// A watch and a phone counting the same walks, the phone alone while the watch charges, an app
/// re-counting a walk, partial overlaps, a walk across midnight, a night's sleep from two sources,
/// and the days around a daylight-saving change in Paris, through the binary. The expected totals
/// come from a minute-by-minute reading of the rule written here, not from gym.
@Suite struct HealthSourcesTests {
  struct Walk {
    let source: String
    let start: Date
    let minutes: Int
    let steps: Int
  }

  static let watch = "Jane’s Apple Watch"
  static let phone = "Jane’s iPhone"
  static let app = "Pedometer++"
  static let paris = TimeZone(identifier: "Europe/Paris")!

  /// A local time in Paris.
  static func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = paris
    return calendar.date(from: DateComponents(year: 2026, month: 3, day: day, hour: hour, minute: minute))!
  }

  /// 27–30 March 2026: Paris moves from +01:00 to +02:00 on the 29th (a 23-hour day).
  static let walks: [Walk] = (27...30).flatMap { day -> [Walk] in
    [
      Walk(source: watch, start: at(day, 8), minutes: 20, steps: 2000 + day),
      Walk(source: phone, start: at(day, 8, 5), minutes: 20, steps: 1800 + day),  // overlaps 15 of 20
      Walk(source: phone, start: at(day, 15), minutes: 10, steps: 900),  // the watch is charging
      Walk(source: watch, start: at(day, 12), minutes: 30, steps: 3000),
      Walk(source: phone, start: at(day, 12), minutes: 30, steps: 2900),
      Walk(source: app, start: at(day, 11, 50), minutes: 50, steps: 3500),  // re-counts the walk, and more
      Walk(source: watch, start: at(day, 23, 50), minutes: 20, steps: 600),  // across midnight
    ]
  }

  /// Per Paris day, minute by minute: each minute goes to the highest-priority source covering it
  /// (watch, then phone, then the app), or to every source with `allSources`.
  static func expected(allSources: Bool = false, only: String? = nil) -> [String: Double] {
    let rank = [watch: 0, phone: 1, app: 2]
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = paris
    func day(_ date: Date) -> String {
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
    var totals: [String: Double] = [:]
    let walks = walks.filter { only == nil || $0.source == only }
    let first = walks.map(\.start).min()!
    let last = walks.map { $0.start.addingTimeInterval(Double($0.minutes) * 60) }.max()!
    var minute = first
    while minute < last {
      let covering = walks.filter {
        $0.start <= minute && minute < $0.start.addingTimeInterval(Double($0.minutes) * 60)
      }
      let best = covering.map { rank[$0.source]! }.min()
      for walk in covering where allSources || rank[walk.source] == best {
        totals[day(minute), default: 0] += Double(walk.steps) / Double(walk.minutes)
      }
      minute.addTimeInterval(60)
    }
    return totals
  }

  static func export() -> String {
    let utc = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
    func date(_ d: Date) -> String {
      d.formatted(utc).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " +0000")
    }
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"fr_FR\">\n"
    for walk in walks {
      xml += """
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\(walk.source)" unit="count" \
        startDate="\(date(walk.start))" endDate="\(date(walk.start.addingTimeInterval(Double(walk.minutes) * 60)))" \
        value="\(walk.steps)"/>

        """
    }
    // One night, two sources: the watch's 420 minutes and an app's 450.
    for (source, minutes) in [(watch, 420), ("AutoSleep", 450)] {
      xml += """
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="\(source)" startDate="\(date(at(28, 0, 30)))" \
        endDate="\(date(at(28, 0, 30).addingTimeInterval(Double(minutes) * 60)))" value="HKCategoryValueSleepAnalysisAsleepCore"/>

        """
    }
    return xml + "</HealthData>\n"
  }

  /// `daily` rows for 27–31 March, by label.
  static func daily(_ gym: GymProcess, _ type: String, _ extra: [String] = []) throws -> [String: Double] {
    let days = Int(Date().timeIntervalSince(at(27, 12)) / 86_400) + 2
    let result = try gym.run(
      ["history", "daily", "--type", type, "--days", String(days), "--format", "csv"] + extra,
      environment: ["GYM_TIME_ZONE": "Europe/Paris"])
    #expect(result.status == 0, "\(result.stderr)")
    var rows: [String: Double] = [:]
    for line in result.stdoutLines.dropFirst() {
      let cells = line.split(separator: ",", omittingEmptySubsequences: false)
      if cells[0].hasPrefix("2026-03-2") || cells[0].hasPrefix("2026-03-3"), let sum = Double(cells[2]) {
        rows[String(cells[0].prefix(10))] = sum
      }
    }
    return rows
  }

  static func close(_ a: [String: Double], _ b: [String: Double]) -> Bool {
    Set(a.keys) == Set(b.keys) && a.allSatisfy { abs($0.value - b[$0.key]!) < 0.001 }
  }

  @Test func stepsCountEachMomentOnceInTheConfiguredZone() throws {
    let gym = try GymProcess()  // TZ=UTC: only time.zone makes the days Paris days
    let path = try gym.write("export.xml", Self.export())
    let imported = try gym.run(["history", "import-health", path])
    #expect(imported.status == 0, "\(imported.stderr)")

    let deduplicated = try Self.daily(gym, "steps")
    // Each day is named by its local start with Paris's offset: winter time until the 29th, summer after.
    let days = try gym.run(
      ["history", "daily", "--type", "steps", "--days", "1000", "--format", "csv"],
      environment: ["GYM_TIME_ZONE": "Europe/Paris"]
    ).stdout
    #expect(days.contains("\n2026-03-29T00:00:00+01:00,") && days.contains("\n2026-03-30T00:00:00+02:00,"))
    #expect(Self.close(deduplicated, Self.expected()), "\(deduplicated) vs \(Self.expected())")
    // Spot check against hand arithmetic: the 27th's walks 2027 + (1827 × 5/20) + 900 + 3000 + (3500 × 20/50)
    // + 600 × 10/20 from its late walk, + 600 × 10/20 carried in from the 26th: none.
    #expect(abs(deduplicated["2026-03-27"]! - (2027 + 1827.0 * 5 / 20 + 900 + 3000 + 3500.0 * 20 / 50 + 300)) < 0.001)

    let all = try Self.daily(gym, "steps", ["--all-sources"])
    #expect(Self.close(all, Self.expected(allSources: true)))
    #expect(abs(all.values.reduce(0, +) - Double(Self.walks.map(\.steps).reduce(0, +))) < 0.001)  // the plain sum

    let phoneOnly = try Self.daily(gym, "steps", ["--source", Self.phone])
    #expect(Self.close(phoneOnly, Self.expected(only: Self.phone)))
  }

  @Test func aNightFromTwoSourcesIsTheWatchsAndSourcesAreListedInPriorityOrder() throws {
    let gym = try GymProcess()
    let path = try gym.write("export.xml", Self.export())
    #expect(try gym.run(["history", "import-health", path]).status == 0)
    #expect(try Self.daily(gym, "sleep")["2026-03-28"] == 420)
    #expect(try Self.daily(gym, "sleep", ["--all-sources"])["2026-03-28"] == 870)
    let sources = try gym.run(["history", "samples", "sources", "--format", "csv"])
    #expect(
      sources.stdoutLines.map { $0.split(separator: ",")[1] }.dropFirst() == [
        Substring(Self.watch), Substring(Self.phone), "AutoSleep", "Pedometer++",
      ])
    // health.sources puts the app first.
    let reordered = try gym.run(
      ["history", "samples", "sources", "--format", "csv"], environment: ["GYM_HEALTH_SOURCES": "pedometer*"])
    #expect(reordered.stdoutLines.dropFirst().first?.contains("Pedometer++") == true)
  }
}
