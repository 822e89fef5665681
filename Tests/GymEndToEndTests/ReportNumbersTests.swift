import Foundation
import Testing

/// The report's numbers are the command line's: a record to 0.1 as `history prs` prints it, in pounds
/// converted once from the stored kilograms, and a table that says when it lists only the newest.
@Suite struct ReportNumbersTests {
  /// Three exercises, one set each, in one workout a week ago: four records each (heaviest, e1RM,
  /// set volume, session volume), 3 × 4 = 12 records in the period, of which the table lists 10.
  /// Leg press: 9999.9 kg × 12, shown as it is (not a chart label's 10000). Bench: 102.058 kg (225 lb) × 6; in pounds its
  /// heaviest is 102.058 / 0.45359237 = 225.0 lb, not 102.1 kg converted (225.1).
  static let strong = """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    \(day),Legs,1h,Leg Press,1,9999.9,12,,,,,
    \(day),Legs,1h,Bench Press (Barbell),2,102.058,6,,,,,
    \(day),Legs,1h,Squat (Barbell),3,100,5,,,,,

    """

  static var day: String {
    let format = DateFormatter()
    format.timeZone = TimeZone(identifier: "UTC")
    format.dateFormat = "yyyy-MM-dd"
    return format.string(from: Date().addingTimeInterval(-7 * 86_400)) + " 10:00:00"
  }

  @Test func recordsAreThePrsNumbersAndTheTableSaysWhatItLeavesOut() throws {
    let gym = try GymProcess()
    let file = try gym.write("strong.csv", Self.strong)
    let imported = try gym.run(["history", "import", "--from", "strong", "--weight-unit", "kg", file, "-q"])
    #expect(imported.status == 0, "\(imported.stderr)")
    let prs = try gym.run(["history", "prs", "-f", "csv"]).stdoutLines.dropFirst()
    #expect(prs.count == 12, "\(prs)")
    let report = gym.directory + "/r.html"
    #expect(try gym.run(["report", "--out", report, "-q"]).status == 0)
    let html = try String(contentsOfFile: report, encoding: .utf8)
    #expect(html.contains("Records set: the newest 10 of 12 (all: gym history prs)"))
    // Which 10 of the 12 (all of one day) is not fixed; each of the leg press's three set records
    // shows its set, and two rows left out cannot take all three.
    #expect(html.contains("9999.9 kg × 12") && !html.contains("10000 kg"))
    let pounds = try gym.run(["history", "prs", "-f", "csv", "--unit", "lb", "--exercise", "bench press"])
    #expect(
      pounds.stdoutLines.contains { $0.hasPrefix("Bench Press (Barbell),heaviest,225,225,6,") }, "\(pounds.stdout)")
  }
}
