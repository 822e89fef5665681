import Foundation
import Testing

/// Machine formats: every local bucket carries its offset, so a script reads the same instants under
/// any `TZ`; a command of several tables prints one per CSV.
@Suite struct MachineFormatTests {
  @Test func hourBucketsCarryTheirOffset() throws {
    ClockEdge.avoidTheHour()
    let gym = try GymProcess()
    let hourStart = (Int(Date().timeIntervalSince1970) / 3600 - 1) * 3600
    let start = Date(timeIntervalSince1970: TimeInterval(hourStart))
    let iso = ISO8601DateFormatter()
    let sample = """
      {"type":"steps","start":"\(iso.string(from: start))","end":"\(iso.string(from: start.addingTimeInterval(600)))","value":500,"unit":"count","stage":"none","source":"Phone"}

      """
    #expect(try gym.run(["history", "samples", "import", "-", "-q"], stdin: sample).status == 0)
    var instants: [String: [Date]] = [:]
    for zone in ["UTC", "Asia/Kolkata", "America/Bogota"] {
      let result = try gym.run(
        ["history", "recent", "--type", "steps", "--hours", "3", "-f", "csv"], environment: ["TZ": zone])
      #expect(result.status == 0, "\(result.stderr)")
      let labels = result.stdoutLines.dropFirst().map { String($0.split(separator: ",")[0]) }
      #expect(labels.count == 3)
      let suffix = ["UTC": "+00:00", "Asia/Kolkata": "+05:30", "America/Bogota": "-05:00"][zone]!
      #expect(labels.allSatisfy { $0.hasSuffix(suffix) && $0.dropLast(6).hasSuffix(":00:00") }, "\(labels)")
      let dates = labels.compactMap { iso.date(from: $0) }
      #expect(dates.count == 3)
      #expect(zip(dates, dates.dropFirst()).allSatisfy { $0.timeIntervalSince($1) == 3600 })
      instants[zone] = dates
      // The 500 steps, all in one hour, whatever the zone's hours are.
      let sums = result.stdoutLines.dropFirst().compactMap {
        Double($0.split(separator: ",", omittingEmptySubsequences: false)[2])
      }
      #expect(sums.reduce(0, +) == 500)
    }
    // Whole-hour zones agree on the instants; Kolkata's hours start at half past.
    #expect(instants["UTC"] == instants["America/Bogota"])
    #expect(instants["Asia/Kolkata"]!.allSatisfy { Int($0.timeIntervalSince1970) % 3600 == 1800 })
  }

  @Test func statsPrintsOneTablePerCSV() throws {
    let gym = try GymProcess()
    let yesterday = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400))
    let workouts = """
      {"completedAt":"\(yesterday)","planTitle":"A","focus":"legs","durationMinutes":30}
      {"completedAt":"\(yesterday)","planTitle":"B","focus":"legs","durationMinutes":45}
      {"completedAt":"\(yesterday)","planTitle":"C","durationMinutes":20}

      """
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: workouts).status == 0)
    let refused = try gym.run(["history", "stats", "-f", "csv"])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("add --table weeks, streak or focus"))
    let focus = try gym.run(["history", "stats", "-f", "csv", "--table", "focus"]).stdoutLines.dropFirst().sorted()
    #expect(focus == [",1,20", "legs,2,75"])
    let streak = try gym.run(["history", "stats", "-f", "ndjson", "--table", "streak"]).stdout
    #expect(streak.hasPrefix("{\"days\":"))
    #expect(try gym.run(["history", "stats", "-f", "csv", "--table", "weeks", "--weeks", "2"]).stdoutLines.count == 3)
  }
}
