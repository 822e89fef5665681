import Foundation
import Testing

/// Local times in other apps' exports are read the same whichever importer reads them and whatever
/// was read before: an hour a clock change repeats as its first, a time it skips with the offset
/// before the change (an hour later on the clock after it). Worked out for America/New_York, whose
/// clocks went back at 06:00 UTC on 2026-11-01 (02:00 EDT → 01:00 EST) and forward at 07:00 UTC on
/// 2026-03-08 (02:00 EST → 03:00 EDT).
@Suite struct LocalTimeTests {
  @Test func aRepeatedOrSkippedHourReadsTheSameInEveryImporter() throws {
    var gym = try GymProcess()
    gym.environment["TZ"] = "America/New_York"
    let strong = """
      Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
      2026-11-01 01:30:00,Repeated,30m,Squat,1,100,5,,,,,
      2026-03-08 02:30:00,Skipped,30m,Squat,1,100,5,,,,,

      """
    let hevy = """
      "title","start_time","end_time","exercise_title","set_type","weight_kg","reps"
      "Hevy repeated","1 Nov 2026, 01:30","1 Nov 2026, 01:50","Squat","normal","100","5"

      """
    for (name, text, format) in [("strong.csv", strong, "strong"), ("hevy.csv", hevy, "hevy")] {
      let imported = try gym.run([
        "history", "import", try gym.write(name, text), "--from", format, "--weight-unit", "kg",
      ])
      #expect(imported.status == 0, "\(imported.stderr)")
    }
    let rows = try gym.run(["history", "list", "-f", "csv", "--fields", "planTitle,completedAt"]).stdoutLines
      .dropFirst()
    // 01:30 EDT (UTC−4) is 05:30Z, + 30 minutes; 02:30 read with EST (UTC−5) is 07:30Z, + 30 minutes;
    // Hevy's end, 01:50 EDT, is 05:50Z.
    #expect(
      Set(rows) == [
        "Repeated,2026-11-01T06:00:00.000Z", "Skipped,2026-03-08T08:00:00.000Z",
        "Hevy repeated,2026-11-01T05:50:00.000Z",
      ])
  }
}
