import Foundation
import Testing

/// Charts above the series commands print: drawn from the rows by the definitions (bars scaled to
/// the largest value, to an eighth of a column), only in the table format, in the style chosen.
@Suite struct ChartCommandTests {
  /// 600 steps the day before yesterday, 300 yesterday (noon UTC; the tests run gym with TZ=UTC).
  func gym() throws -> (GymProcess, [String]) {
    ClockEdge.avoidMidnight()
    let gym = try GymProcess()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let today = calendar.startOfDay(for: Date())
    let days = (0...2).map { calendar.date(byAdding: .day, value: -$0, to: today)! }
    let format = DateFormatter()
    format.timeZone = TimeZone(identifier: "UTC")
    format.dateFormat = "yyyy-MM-dd"
    let names = days.map { format.string(from: $0) }
    let samples = [(names[2], 600), (names[1], 300)].map { day, steps in
      #"{"type":"steps","start":"\#(day)T12:00:00.000Z","end":"\#(day)T12:10:00.000Z","value":\#(steps),"unit":"count","stage":"none","source":"Phone"}"#
    }
    let path = try gym.write("steps.ndjson", samples.joined(separator: "\n") + "\n")
    #expect(try gym.run(["history", "samples", "import", path, "-q"]).status == 0)
    return (gym, names)
  }

  @Test func barsAboveTheTable() throws {
    let (gym, days) = try gym()
    // COLUMNS 40: labels 10 wide, values 3, so 40 − 10 − 3 − 4 = 23 columns. 600 fills them; 300 is
    // 11.5 columns: 11 full blocks and ▌. Today has no steps: no bar, no value.
    let result = try gym.run(
      ["history", "daily", "--type", "steps", "--days", "3"], environment: ["COLUMNS": "40", "LANG": "C.UTF-8"])
    let lines = result.stdoutLines.map(String.init)
    #expect(
      Array(lines.prefix(5)) == [
        "steps per day", days[0],
        days[1] + "  " + String(repeating: "█", count: 11) + "▌" + String(repeating: " ", count: 11) + "  300",
        days[2] + "  " + String(repeating: "█", count: 23) + "  600",
        "day         count  sum",
      ])
    // Plain characters: 11.5 columns round to 12 hashes.
    let plain = try gym.run(
      ["history", "daily", "--type", "steps", "--days", "3", "--ascii"], environment: ["COLUMNS": "40"])
    #expect(
      plain.stdoutLines.contains(
        Substring(days[1] + "  " + String(repeating: "#", count: 12) + String(repeating: " ", count: 11) + "  300")))
  }

  @Test func theStyleIsChosenAndMachineFormatsHaveNone() throws {
    let (gym, _) = try gym()
    let daily = ["history", "daily", "--type", "steps", "--days", "3"]
    // A sparkline, oldest to newest, levels from the lowest value (300: ▁) to the highest (600: █),
    // the first (600) and last (300) at its ends; today has no value: a space.
    let spark = try gym.run(daily + ["--chart", "spark"], environment: ["LANG": "C.UTF-8"])
    #expect(spark.stdoutLines.first == "steps per day  600 █▁  300  (min 300, max 600)")
    let configured = try gym.run(daily, environment: ["LANG": "C.UTF-8", "GYM_OUTPUT_CHART": "spark"])
    #expect(configured.stdoutLines.first == spark.stdoutLines.first)
    let none = try gym.run(daily + ["--chart", "none"])
    #expect(none.stdoutLines.first == "day         count  sum")
    for format in ["csv", "tsv", "json", "ndjson"] {
      let machine = try gym.run(daily + ["-f", format])
      #expect(!machine.stdout.contains("steps per day"), "\(format)")
      #expect(!machine.stdout.contains("█") && !machine.stdout.contains("#"), "\(format)")
    }
  }
}
