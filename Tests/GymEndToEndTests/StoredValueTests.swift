import Foundation
import GRDB
import Testing

/// Every number is bounded on its way in, and every reader survives whatever is stored. Importers
/// refuse what no person could mean (a 9.3e18-minute workout) with exit 65, the line and the bound.
/// Values written by another program's hand (text in a number column, 1e308, 2^63 − 1) never stop
/// a reader: each command exits 0, or 65 naming a total it cannot show — never a trap.
@Suite struct StoredValueTests {
  @Test func importersRefuseWhatNoPersonCouldMean() throws {
    let gym = try GymProcess()
    let at = "2026-01-05T10:00:00Z"
    let cases: [([String], String, String)] = [
      (
        ["history", "import", "-"], #"{"completedAt":"\#(at)","planTitle":"W","durationMinutes":9.3e18}"#,
        "from 0 to 10080"
      ),
      (
        ["history", "import", "-"],
        #"{"id":"00000000-0000-4000-8000-000000000001","completedAt":"\#(at)","planTitle":"W","sets":[{"position":1,"exercise":"Row","kind":"normal","reps":999999999999999999}]}"#,
        "from 0 to 1000000"
      ),
      (
        ["history", "import", "-"],
        #"{"id":"00000000-0000-4000-8000-000000000001","completedAt":"\#(at)","planTitle":"W","sets":[{"position":1,"exercise":"Row","kind":"normal","weightKg":1e30}]}"#,
        "from -10000 to 10000"
      ),
      (
        ["history", "samples", "import", "-"],
        #"{"type":"steps","start":"\#(at)","end":"\#(at)","value":1e30,"unit":"count","stage":"none","source":"P"}"#,
        "from -1000000000000 to 1000000000000"
      ),
      (
        ["history", "import", "-", "--from", "strong", "--weight-unit", "kg", "--strict"],
        "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
          + "2026-01-05 10:00:00,Push,1h,Bench Press,1,1e30,5,,,,,\n",
        "from -10000 to 10000"
      ),
    ]
    for (command, input, bound) in cases {
      let result = try gym.run(command, stdin: input + "\n")
      #expect(result.status == 65, "\(command): \(result.stderr)")
      // `<stdin>:LINE:` names where, the message the bound.
      #expect(result.stderr.contains("<stdin>:") && result.stderr.contains(bound), "\(command): \(result.stderr)")
    }
    // Nothing was written by any of them.
    let counted = try gym.run(["history", "count"]).stdout
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath) || counted == "0\n", "\(counted)")
    let option = try gym.run([
      "history", "add", "--plan-title", "W", "--focus", "push", "--duration", "9223372036854775807",
    ])
    #expect(option.status == 64 && option.stderr.contains("from 0 to 10080"), "\(option.stderr)")
  }

  /// A database with a little of everything, this week, then one kind of hostile value written
  /// into every number column by hand; every reader runs on it.
  @Test(arguments: ["9.3e18", "1e308", "-1e308", "'abc'", "9223372036854775807", "x'00ff'"])
  func readersSurviveAnyStoredValue(value: String) throws {
    let gym = try GymProcess()
    let now = Date()
    func time(_ hoursAgo: Double) -> String {
      let formatter = ISO8601DateFormatter()
      return formatter.string(from: now.addingTimeInterval(-hoursAgo * 3600))
    }
    let workouts = (1...3).map { i in
      #"{"id":"00000000-0000-4000-8000-00000000000\#(i)","completedAt":"\#(time(Double(i)))","planTitle":"Push Day","durationMinutes":45,"distanceKm":5,"activeEnergyKcal":300,"sets":[{"position":1,"exercise":"Bench Press","kind":"normal","weightKg":100,"reps":5},{"position":2,"exercise":"Bench Press","kind":"normal","weightKg":100,"reps":8,"durationSeconds":30,"rpe":8}]}"#
    }
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: workouts.joined(separator: "\n")).status == 0)
    // Each in its type's unit, as gym stores them.
    let samples = [("steps", "count"), ("heartRate", "count/min"), ("bodyMass", "kg"), ("distance", "km")].enumerated()
      .flatMap { index, sample in
        (1...4).map { hour in
          #"{"type":"\#(sample.0)","start":"\#(time(Double(hour)))","end":"\#(time(Double(hour) - 0.5))","value":\#(10 + index),"unit":"\#(sample.1)","stage":"none","source":"Phone"}"#
        }
      }
    #expect(
      try gym.run(["history", "samples", "import", "-", "-q"], stdin: samples.joined(separator: "\n")).status == 0)
    let today = String(time(0).prefix(10))
    for command in [
      ["library", "add", "Emma", "--pages", "300", "--status", "read", "--finished", today, "--rating", "4"],
      ["staples", "add", "Milk", "--category", "Dairy", "--min-stock", "2"],
      ["staples", "buy", "Milk", "1", "l", "--best-before", today],
      ["staples", "recipe", "add", "Toast", "--ingredient", "Milk:100 ml"],
      ["staples", "cook", "Toast"],
    ] {
      let result = try gym.run(command + ["-q"])
      #expect(result.status == 0, "\(command): \(result.stderr)")
    }
    let queue = try DatabaseQueue(path: gym.databasePath)
    try queue.write { db in
      // The checks the schema has (`>= 0`) are off: another program's hand need not respect them.
      try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
      for (table, columns) in [
        ("workout", ["durationMinutes", "distanceKm", "activeEnergyKcal"]),
        ("workout_set", ["weightKg", "reps", "durationSeconds", "rpe"]), ("sample", ["value"]),
        ("edition", ["pageCount"]), ("stock_lot", ["amount"]), ("grocery_item", ["minStock"]),
        ("recipe", ["usageCount"]),
      ] {
        for column in columns { try db.execute(sql: "UPDATE \(table) SET \(column) = \(value)") }
      }
    }
    let readers: [[String]] = [
      ["history", "list"], ["history", "list", "-f", "json"], ["history", "stats"], ["history", "stats", "-f", "json"],
      ["history", "summary"], ["history", "daily", "--type", "steps"], ["history", "daily", "--type", "heartRate"],
      ["history", "recent", "--type", "steps", "--hours", "48"], ["history", "trend", "--type", "bodyMass"],
      ["history", "samples", "list"], ["history", "exercises", "list"], ["history", "prs"],
      ["history", "progress", "--exercise", "Bench Press"], ["history", "volume"], ["library", "list"],
      ["library", "stats"], ["library", "stats", "-f", "json"], ["staples", "list"], ["staples", "stock"],
      ["staples", "expiring", "--days", "9999"], ["staples", "shopping-list"], ["staples", "cookable"],
      ["staples", "show", "Milk"], ["report", "--out", gym.directory + "/r.html"], ["doctor"],
    ]
    for command in readers {
      let result = try gym.run(command)
      // 66: nothing readable to answer with (no working set left of an exercise).
      #expect([0, 1, 65, 66].contains(result.status), "\(value) \(command): exit \(result.status) \(result.stderr)")
      if result.status == 65 { #expect(result.stderr.contains("out of range"), "\(command): \(result.stderr)") }
    }
    // `doctor` names where they are: every column written above but recipe.usageCount (a count with no
    // bound, so only text or a blob in it is named).
    let doctor = try gym.run(["doctor", "-f", "csv"])
    #expect(doctor.status == 1 && doctor.stdout.contains("values,problem"), "\(doctor.stdout)")
    for column in ["workout.durationMinutes", "workout_set.reps", "sample.value", "workout_set.weightKg"] {
      #expect(doctor.stdout.contains(column), "\(value): \(column) not named: \(doctor.stdout)")
    }
  }
}
