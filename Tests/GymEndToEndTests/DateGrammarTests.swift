import Foundation
import Testing

/// Every date option takes the same spellings, and every duration option the same durations: what
/// one command accepts, all do, and what one refuses (exit 64, naming the option), all refuse.
@Suite struct DateGrammarTests {
  static let days = [
    "2026-03-05", "2026/03/05", "2026/3/5", "2026-03-05T10:00", "3d", "1h30m", "now - 1w2d", "@2026-03-05 + 1d",
  ]
  static let notDays = ["2026-02-30", "2026/13/01", "1.5h", "30m1h", "yesterday", "2026-03/05"]
  static let spans = ["90s", "30m", "36h", "7d", "2w", "1h30m", "1w2d"]
  static let notSpans = ["1.5h", "30m1h", "7", "0s", "1d-", "2026-03-05", "1 h"]

  /// Each date option, by a command that takes it (`DATE` is where the value goes).
  static let dateOptions: [[String]] = [
    ["history", "list", "--since", "DATE"], ["history", "list", "--until", "DATE"],
    ["history", "count", "--since", "DATE"], ["history", "daily", "--type", "steps", "--since", "DATE"],
    ["history", "sleep", "--until", "DATE"], ["history", "prs", "--since", "DATE"],
    ["history", "volume", "--until", "DATE"], ["history", "samples", "list", "--since", "DATE"],
    ["history", "set", "W", "--completed-at", "DATE"], ["history", "summary", "--until", "DATE"],
    ["staples", "buy", "Milk", "1", "--best-before", "DATE"], ["library", "set", "E", "--started", "DATE"],
    ["library", "set", "E", "--finished", "DATE"], ["report", "--out", "-", "--since", "DATE"],
  ]
  /// Emma's id: her work's key (RecordKeys).
  static let emma = "\(RecordKeys.work("Emma", authors: ["Jane Austen"]))"
  /// Each duration option (`SPAN`), with the rest of a command that would run.
  static let spanOptions: [[String]] = [
    ["export", "prune", "--out", "exports", "--keep-within", "SPAN", "--dry-run"],
    ["export", "status", "--out", "exports", "--max-age", "SPAN"],
  ]

  func prepared() throws -> (GymProcess, workout: String) {
    let gym = try GymProcess()
    try gym.seed(3)
    #expect(try gym.run(["staples", "add", "Milk", "--category", "Dairy"]).status == 0)
    #expect(try gym.run(["library", "add", "Emma", "--author", "Jane Austen"]).status == 0)
    #expect(try gym.run(["export", "create", "--out", "exports"]).status == 0)
    let list = try gym.run(["history", "list", "--limit", "1", "-f", "tsv"])
    return (gym, String(list.stdoutLines[1].split(separator: "\t")[0]))
  }

  @Test func everyDateOptionTakesEveryDaySpellingAndRefusesTheSameOnes() throws {
    let (gym, workout) = try prepared()
    for option in Self.dateOptions {
      let name = option[option.firstIndex(of: "DATE")! - 1]
      for day in Self.days {
        let arguments = option.map { $0 == "DATE" ? day : $0 == "W" ? workout : $0 == "E" ? Self.emma : $0 }
        let result = try gym.run(arguments)
        // Accepted: the command ran (a range with nothing in it is an answer too, or 66 "no data").
        #expect(result.status == 0 || result.status == 66, "\(arguments): \(result.stderr)")
      }
      for bad in Self.notDays {
        let arguments = option.map { $0 == "DATE" ? bad : $0 == "W" ? workout : $0 == "E" ? Self.emma : $0 }
        let result = try gym.run(arguments)
        #expect(result.status == 64, "\(arguments)")
        #expect(result.stderr.contains("\(name) '\(bad)' is not a date"), "\(arguments): \(result.stderr)")
      }
    }
  }

  @Test func everyDurationOptionTakesTheSameDurations() throws {
    let (gym, _) = try prepared()
    for option in Self.spanOptions + [["export", "schedule", "--out", "exports", "--every", "SPAN"]] {
      let name = option[option.firstIndex(of: "SPAN")! - 1]
      for bad in Self.notSpans {
        let arguments = option.map { $0 == "SPAN" ? bad : $0 }
        let result = try gym.run(arguments)
        #expect(result.status == 64, "\(arguments)")
        #expect(result.stderr.contains("\(name) '\(bad)' is not a duration"), "\(arguments): \(result.stderr)")
      }
    }
    // The scheduler never stops by itself: its accepted durations are the same parser's, run here
    // through the two commands that finish.
    for option in Self.spanOptions {
      for span in Self.spans {
        let arguments = option.map { $0 == "SPAN" ? span : $0 }
        #expect(try gym.run(arguments).status == 0, "\(arguments)")
      }
    }
  }

  /// A range that cannot hold anything is refused, not counted as none or less: a --since after now
  /// (the end without --until) in the commands that count periods back, a span reaching before year 1
  /// (3,000,000 days back from 2026 is about 8,200 years: before year 1, under the 3,660,000-day bound).
  @Test func aRangeThatHoldsNothingIsAUsageError() throws {
    let (gym, _) = try prepared()
    for command in [
      ["daily", "--type", "steps"], ["recent", "--type", "steps"], ["trend", "--type", "steps"], ["sleep"],
    ] {
      let result = try gym.run(["history"] + command + ["--since", "2099-01-01"])
      #expect(result.status == 64, "\(command)")
      #expect(result.stderr == "gym: error: --since must be before --until (default: now)\n", "\(command)")
    }
    let early = try gym.run(["history", "list", "--since", "3000000d"])
    #expect(early.status == 64)
    #expect(early.stderr.contains("--since '3000000d' is not a date"))
  }

  /// A period whose buckets would end past 9999-12-31, where SQLite's dates end, is a usage error in
  /// one line, not a crash (a bucket's edge there is NULL).
  @Test func aPeriodPastTheLastDateIsAUsageError() throws {
    let (gym, _) = try prepared()
    for command in [
      ["history", "daily", "--type", "steps"], ["history", "recent", "--type", "steps"],
      ["history", "trend", "--type", "steps"], ["history", "summary"],
    ] {
      let result = try gym.run(command + ["--until", "9999-12-31T23:59:59.999Z"])
      #expect(result.status == 64, "\(command): \(result.status) \(result.stderr)")
      #expect(
        result.stderr == "gym: error: the period reaches past 9999-12-31, where dates end; give an earlier --until\n",
        "\(command)")
    }
    // A report draws days one by one: its period ends a year after now at most (ReportPeriodTests).
    let report = try gym.run(["report", "--out", "r.html", "--until", "9999-12-31T23:59:59.999Z"])
    #expect(report.status == 0, "\(report.stderr)")
  }

  /// What the spellings mean, worked out by hand: the same day whichever way it is written.
  @Test func theSameDayWrittenTwoWaysIsTheSameDay() throws {
    let (gym, _) = try prepared()
    #expect(try gym.run(["staples", "buy", "Milk", "1", "--best-before", "2026/3/5"]).status == 0)
    // The slashed spelling alone already gives the lot that day.
    let first = try gym.run(["staples", "stock", "-f", "tsv"])
    #expect(first.stdoutLines.contains { $0.hasPrefix("Milk\t") && $0.hasSuffix("\t2026-03-05") }, "\(first.stdout)")
    #expect(try gym.run(["staples", "buy", "Milk", "1", "--best-before", "2026-03-05"]).status == 0)
    // Two purchases with one best-before are one day: the stock's nearest best-before is that day.
    let stock = try gym.run(["staples", "stock", "-f", "tsv"])
    #expect(stock.stdoutLines.contains { $0.hasPrefix("Milk\t") && $0.hasSuffix("\t2026-03-05") }, "\(stock.stdout)")
    #expect(
      try gym.run(["library", "set", Self.emma, "--started", "2026/1/9", "--finished", "2026-01-20"]).status == 0)
    let shown = try gym.run(["library", "show", Self.emma, "-f", "json"])
    #expect(shown.stdout.contains("\"2026-01-09\""), "\(shown.stdout)")
    // `@2026-03-05 + 1d` is the 6th at midnight (TZ=UTC): a workout then is counted from it, one
    // a second before is not.
    for at in ["2026-03-05T23:59:59Z", "2026-03-06T00:00:00Z"] {
      #expect(
        try gym.run([
          "history", "add", "--plan-title", "P", "--focus", "legs", "--duration", "30", "--completed-at", at,
        ])
        .status == 0)
    }
    let counted = try gym.run(["history", "count", "--since", "@2026-03-05 + 1d", "--until", "2026/3/7"])
    #expect(counted.stdout == "1\n")
  }
}
