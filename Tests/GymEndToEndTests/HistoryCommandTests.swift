import Foundation
import Testing

/// `gym history …` end to end: stdout carries only records, stderr the cursor and messages.
@Suite struct HistoryCommandTests {
  @Test func listPrintsTwentyNewestFirstAndTheCursorOnStderr() throws {
    let gym = try GymProcess()
    try gym.seed(45)
    // A machine format returns every row unless --limit says; the table keeps the page size.
    #expect(try gym.run(["history", "list", "--format", "ndjson"]).stdoutLines.count == 45)
    #expect(try gym.run(["history", "list"]).stdoutLines.count == 21)
    let page = try gym.run(["history", "list", "--format", "ndjson", "--limit", "20"])
    #expect(page.status == 0)
    #expect(page.stdoutLines.count == 20)
    let dates = try page.stdoutLines.map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["completedAt"] as! String
    }
    #expect(dates == dates.sorted(by: >))
    #expect(page.stderr.hasPrefix("next page: --after "))
  }

  @Test func afterCursorWalksAllPagesWithoutGapsOrRepeats() throws {
    let gym = try GymProcess()
    try gym.seed(45)
    var ids: [String] = []
    var pageSizes: [Int] = []
    let listing = ["history", "list", "--format", "csv", "--fields", "id", "--limit", "20"]
    var arguments = listing
    for _ in 0..<5 {
      let page = try gym.run(arguments)
      #expect(page.status == 0)
      let rows = page.stdoutLines.dropFirst().map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
      ids += rows
      pageSizes.append(rows.count)
      guard let range = page.stderr.range(of: "--after ") else { break }
      let cursor = page.stderr[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
      arguments = listing + ["--after", cursor]
    }
    // 45 workouts, 20 to a page: 20 + 20 + 5, and no cursor after the last.
    #expect(pageSizes == [20, 20, 5])
    let all = try gym.run(["history", "list", "--limit", "0", "--format", "csv", "--fields", "id"])
    #expect(Set(ids).count == 45)
    #expect(ids == all.stdoutLines.dropFirst().map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) })
    #expect(all.stderr.isEmpty)
  }

  @Test func jsonIsOneDocumentWithTheNextCursor() throws {
    let gym = try GymProcess()
    try gym.seed(25)
    let whole = try gym.run(["history", "list", "--format", "json"])
    let all = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])
    #expect((all["items"] as? [Any])?.count == 25)
    #expect(all["next"] is NSNull)
    let first = try gym.run(["history", "list", "--format", "json", "--limit", "20"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
    #expect((document["items"] as? [Any])?.count == 20)
    let next = try #require(document["next"] as? String)
    #expect(first.stderr.isEmpty)
    let second = try gym.run(["history", "list", "--format", "json", "--after", next])
    let last = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
    #expect((last["items"] as? [Any])?.count == 5)
    #expect(last["next"] is NSNull)
  }

  @Test func fieldsChooseAndOrderColumns() throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let csv = try gym.run(["history", "list", "--format", "csv", "--fields", "durationMinutes,status"])
    #expect(csv.stdoutLines.first == "durationMinutes,status")
    #expect(csv.stdoutLines.count == 4)
  }

  @Test func filtersCountAndListAgree() throws {
    let gym = try GymProcess()
    try gym.seed(60)
    for filter in [
      ["--status", "skipped"], ["--where", #"focus in ["push", "pull"] && durationMinutes >= 40"#],
      ["--since", "30d"], ["--until", "now - 10d", "--status", "completed"],
    ] {
      let count = try gym.run(["history", "count"] + filter)
      let list = try gym.run(["history", "list", "--limit", "0", "--format", "ndjson"] + filter)
      #expect(count.status == 0 && list.status == 0)
      #expect(Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == list.stdoutLines.count, "\(filter)")
    }
  }

  @Test func addShowAndDelete() throws {
    let gym = try GymProcess()
    let added = try gym.run([
      "history", "add", "--plan-title", "Leg Day", "--focus", "legs", "--duration", "50",
      "--completed-at", "2026-11-20T18:00:00Z",
    ])
    #expect(added.status == 0)
    let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let shown = try gym.run(["history", "show", id, "--format", "json"])
    let record = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    #expect(record["planTitle"] as? String == "Leg Day")
    #expect(record["completedAt"] as? String == "2026-11-20T18:00:00.000Z")
    #expect(record["status"] as? String == "completed")
    let table = try gym.run(["history", "show", id])
    #expect(table.stdout.contains("completedAt       2026-11-20 18:00"))

    let partial = try gym.run(["history", "delete", id, "00000000-0000-0000-0000-000000000000"])
    #expect(partial.status == 66)
    #expect(partial.stderr.contains("nothing was removed"))
    #expect(try gym.run(["history", "count"]).stdout == "1\n")
    #expect(try gym.run(["history", "delete", id]).status == 0)
    #expect(try gym.run(["history", "count"]).stdout == "0\n")
    let missing = try gym.run(["history", "show", id])
    #expect(missing.status == 66)
    #expect(missing.stderr == "gym: error: no workout with id '\(id)'\n")
  }

  @Test func importIsIdempotentAndReportsCounts() throws {
    let gym = try GymProcess()
    let sample = try gym.run(["history", "sample", "--count", "30", "--format", "csv"])
    let path = try gym.write("w.csv", sample.stdout)
    let first = try gym.run(["history", "import", path])
    #expect(first.stderr == "imported 30 records: 30 inserted, 0 updated, 0 unchanged\n" + gym.createdNote)
    let second = try gym.run(["history", "import", path])
    #expect(second.stderr == "imported 30 records: 0 inserted, 0 updated, 30 unchanged\n")
    #expect(try gym.run(["history", "count"]).stdout == "30\n")
    let export = try gym.run(["history", "list", "--limit", "0", "--format", "ndjson"])
    let roundTrip = try gym.run(["history", "import", "--input-format", "ndjson", "-"], stdin: export.stdout)
    #expect(roundTrip.stderr.contains("30 unchanged"))
  }

  @Test func statsReportsWeeksStreakAndFocus() throws {
    let gym = try GymProcess()
    // A day and two days ago: inside the last two weeks whenever the test runs.
    let format = ISO8601DateFormatter()
    for daysAgo in [1.0, 2.0] {
      try gym.run([
        "history", "add", "--plan-title", "P", "--focus", "core", "--duration", "20", "--completed-at",
        format.string(from: Date().addingTimeInterval(-daysAgo * 86_400)),
      ])
    }
    let stats = try gym.run(["history", "stats", "--format", "json", "--weeks", "2"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
    #expect((document["weeks"] as? [Any])?.count == 2)
    let focus = try #require((document["byFocus"] as? [[String: Any]])?.first)
    #expect(focus["focus"] as? String == "core")
    #expect(document["streak"] is [String: Any])
  }
}

@Suite struct ReadOnlyCommandTests {
  /// Reads never write: no dummy transaction, no checkpoint, the file's bytes stay the same.
  @Test func listingCountingAndShowingLeaveTheDatabaseFileUnchanged() throws {
    let gym = try GymProcess()
    try gym.seed(30)
    let before = try Data(contentsOf: URL(fileURLWithPath: gym.databasePath))
    let modified = try FileManager.default.attributesOfItem(atPath: gym.databasePath)[.modificationDate] as? Date
    for arguments in [
      ["history", "list"], ["history", "count"], ["history", "stats"], ["history", "list", "--limit", "0"],
    ] {
      #expect(try gym.run(arguments).status == 0)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: gym.databasePath)) == before)
    #expect(try FileManager.default.attributesOfItem(atPath: gym.databasePath)[.modificationDate] as? Date == modified)
    #expect(
      !FileManager.default.fileExists(atPath: gym.databasePath + "-wal"), "the WAL is checkpointed and removed on exit")
  }
}

@Suite struct LoggerCommandTests {
  let strong = """
    Date;Workout Name;Duration;Exercise Name;Set Order;Weight;Reps;Distance;Seconds;Notes;Workout Notes;RPE
    2024-01-12 18:30:00;Push Day;1h 5m;Bench Press (Barbell);1;100;5;;;;;8
    2024-01-12 18:30:00;Push Day;1h 5m;Bench Press (Barbell);Rest Timer;;;;90;;;

    """

  @Test func strongNeedsItsWeightUnitInOneLine() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", strong)
    let missing = try gym.run(["history", "import", "--from", "strong", path])
    #expect(missing.status == 65)
    #expect(
      missing.stderr.hasPrefix(
        "gym: error: \(path):1: this Strong layout does not say the weight unit: pass --weight-unit kg or lb"))
    #expect(missing.stderr.filter { $0 == "\n" }.count == 1)
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
  }

  @Test func importedSessionsShowTheirSets() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", strong)
    let imported = try gym.run(["history", "import", "--from", "strong", "--weight-unit", "kg", path])
    #expect(
      imported.stderr
        == "imported 2 rows: workouts 1 inserted, 0 updated, 0 unchanged; sets 1 inserted, 0 updated, 0 unchanged\n"
        + gym.createdNote)
    let id = try gym.run(["history", "list", "--format", "csv", "--fields", "id"]).stdoutLines[1]
    let shown = try gym.run(["history", "show", String(id), "--format", "json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    let sets = try #require(document["sets"] as? [[String: Any]])
    #expect(sets.count == 1)
    #expect(sets.first?["exercise"] as? String == "Bench Press (Barbell)")
    #expect(sets.first?["weightKg"] as? Double == 100)
    #expect(try gym.run(["history", "show", String(id)]).stdout.contains("Bench Press (Barbell)"))
  }
}

/// The training commands through the binary, on a Strong export whose records are worked out here.
@Suite struct TrainingCommandTests {
  static let strong = """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2026-01-05 18:00:00,Push,45m,Squat (Barbell),1,60,10,,0,,,
    2026-01-05 18:00:00,Push,45m,Squat (Barbell),2,100,5,,0,,,
    2026-01-12 18:00:00,Push,45m,squat  (barbell),1,105,3,,0,,,
    2026-01-12 18:00:00,Push,45m,Push Up,2,,20,,0,,,

    """

  @Test func exercisesAndRecords() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", Self.strong)
    #expect(try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    let exercises = try gym.run([
      "history", "exercises", "-f", "csv", "--fields", "exercise,sets,sessions,bestE1RM,heaviestKg", "--sort",
      "exercise",
    ])
    // Squat: 3 sets in 2 sessions; Epley 100×5 = 116.67 beats 105×3 = 115.5 and 60×10 = 80; heaviest 105.
    #expect(
      exercises.stdoutLines == [
        "exercise,sets,sessions,bestE1RM,heaviestKg", "Push Up,1,1,,", "squat  (barbell),3,2,116.7,105",
      ])
    let prs = try gym.run([
      "history", "prs", "--exercise", "SQUAT (BARBELL)", "-f", "csv", "--fields", "record,value,weightKg,reps",
    ])
    #expect(
      prs.stdoutLines == [
        "record,value,weightKg,reps", "heaviest,105,105,3", "e1RM,116.7,100,5", "setVolume,600,60,10",
        // Session volume: 600 + 500 on the 5th; mostRepsAt per weight: 60 → 10, 100 → 5, 105 → 3.
        "sessionVolume,1100,,15", "mostRepsAt,10,60,10", "mostRepsAt,5,100,5", "mostRepsAt,3,105,3",
      ])
    let brzycki = try gym.run([
      "history", "prs", "--exercise", "squat (barbell)", "--formula", "brzycki", "-f", "csv", "--fields",
      "record,value",
    ])
    // Brzycki: 100×5 → 112.5, 105×3 → 111.18, 60×10 → 80.
    #expect(brzycki.stdoutLines.contains("e1RM,112.5"))
    let pushUp = try gym.run(["history", "prs", "-f", "csv", "--fields", "exercise,record,value"])
    #expect(pushUp.stdoutLines.contains("Push Up,mostReps,20"))
    // Progress per week: the 5th, 60×10 → 80 and 100×5 → 116.67, top 100×5, 2 sets, 15 reps, 600 + 500;
    // the 12th (a Monday), 105×3 → 115.5, 1 set, 315. Per month, all three.
    let weekly = try gym.run(["history", "progress", "--exercise", "squat (barbell)", "-f", "csv"])
    #expect(
      weekly.stdoutLines == [
        "period,bestE1RM,topKg,topReps,sets,reps,volumeKg", "2026-01-05,116.7,100,5,2,15,1100",
        "2026-01-12,115.5,105,3,1,3,315",
      ])
    let monthly = try gym.run(["history", "progress", "--exercise", "squat (barbell)", "--by", "month", "-f", "csv"])
    #expect(
      monthly.stdoutLines == ["period,bestE1RM,topKg,topReps,sets,reps,volumeKg", "2026-01,116.7,105,3,3,18,1415"])
    // The table has the chart above it (plain characters: no UTF-8 locale here); machine formats never.
    let table = try gym.run(["history", "progress", "--exercise", "squat (barbell)"], environment: ["COLUMNS": "80"])
    #expect(table.stdoutLines.first == "e1RM (kg)  116.7 @_ 115.5  (min 115.5, max 116.7)")
    let blocks = try gym.run(
      ["history", "progress", "--exercise", "squat (barbell)"], environment: ["COLUMNS": "80", "LANG": "C.UTF-8"])
    // The 5th's 116.7, then the 12th's 115.5: a fall, drawn from the first value to the last.
    #expect(blocks.stdoutLines.first == "e1RM (kg)  116.7 █▁ 115.5  (min 115.5, max 116.7)")
    let plain = try gym.run(["history", "progress", "--exercise", "squat (barbell)", "--chart", "none"])
    #expect(plain.stdoutLines.first?.hasPrefix("period") == true)
    let none = try gym.run(["history", "prs", "--exercise", "Deadlift"])
    #expect(none.status == 66)
    #expect(none.stderr.contains("no sets of 'Deadlift'"), "\(none.stderr)")
  }

  /// Weeks and months are local: three instants near a day's edge, in four zones. 2026-01-12T02:30Z is
  /// Monday the 12th in UTC, Berlin and Tokyo but Sunday the 11th 23:00 in St John's (−3:30), so the
  /// week of the 5th; 2026-03-31T23:30Z is April in Berlin (+2 from 29 March) and Tokyo; 2026-11-02T02:45Z
  /// is Sunday 1 November 23:15 in St John's (back to −3:30 since 04:30Z that day; −2:30 would make it
  /// Monday the 2nd).
  @Test func periodsAreLocal() throws {
    let gym = try GymProcess()
    let lines = [
      ("1", "2026-01-12T02:30:00.000Z", 100), ("2", "2026-03-31T23:30:00.000Z", 110),
      ("3", "2026-11-02T02:45:00.000Z", 120),
    ]
    .map { id, at, weight in
      #"{"id":"00000000-0000-4000-8000-00000000000\#(id)","completedAt":"\#(at)","status":"completed","planTitle":"Legs","sets":[{"position":1,"exercise":"Squat (Barbell)","kind":"normal","weightKg":\#(weight),"reps":1}]}"#
    }
    let path = try gym.write("workouts.ndjson", lines.joined(separator: "\n") + "\n")
    #expect(try gym.run(["history", "import", path, "-q"]).status == 0)
    let expected: [(zone: String, weeks: [String], months: [String])] = [
      ("UTC", ["2026-01-12,100", "2026-03-30,110", "2026-11-02,120"], ["2026-01,100", "2026-03,110", "2026-11,120"]),
      (
        "America/St_Johns", ["2026-01-05,100", "2026-03-30,110", "2026-10-26,120"],
        ["2026-01,100", "2026-03,110", "2026-11,120"]
      ),
      (
        "Europe/Berlin", ["2026-01-12,100", "2026-03-30,110", "2026-11-02,120"],
        ["2026-01,100", "2026-04,110", "2026-11,120"]
      ),
      (
        "Asia/Tokyo", ["2026-01-12,100", "2026-03-30,110", "2026-11-02,120"],
        ["2026-01,100", "2026-04,110", "2026-11,120"]
      ),
    ]
    for (zone, weeks, months) in expected {
      for (by, rows) in [("week", weeks), ("month", months)] {
        let progress = try gym.run(
          [
            "history", "progress", "--exercise", "squat (barbell)", "--by", by, "-f", "csv", "--fields", "period,topKg",
          ],
          environment: ["TZ": zone])
        #expect(progress.stdoutLines.map(String.init) == ["period,topKg"] + rows, "\(zone) by \(by)")
        // Volume counts by the same periods: quads are the squat's primary group, one set each.
        let volume = try gym.run(
          ["history", "volume", "--by", by, "--muscle", "quads", "-f", "csv", "--fields", "period,sets"],
          environment: ["TZ": zone])
        #expect(
          volume.stdoutLines.map(String.init) == ["period,sets"] + rows.map { $0.replacing(/,\d+$/, with: ",1") },
          "\(zone) by \(by)")
      }
    }
  }

  /// Rename and merge through the binary: the names become one exercise, nothing in the sets is
  /// rewritten, and a later import of the old name counts as the new one.
  @Test func renameAndMergeAreRemembered() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", Self.strong)
    #expect(try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    let merged = try gym.run(["history", "exercises", "merge", "push up", "Squat (Barbell)"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stderr.hasPrefix("'push up' (1 sets) is now 'squat  (barbell)' (4 sets)"))
    let renamed = try gym.run(["history", "exercises", "rename", "SQUAT (barbell)", "Back Squat"])
    #expect(renamed.status == 0, "\(renamed.stderr)")
    #expect(
      try gym.run(["history", "exercises", "-f", "csv", "--fields", "exercise,sets"]).stdoutLines == [
        "exercise,sets", "Back Squat,4",
      ])
    // The sets keep the names they were imported with.
    let id = try gym.run(["history", "list", "--ids", "-n", "1"]).stdout.trimmingCharacters(in: .newlines)
    #expect(try gym.run(["history", "show", id, "-f", "json"]).stdout.contains(#""exercise":"Push Up""#))
    // A later import of an old name counts as the new one: 120 × 2 → Epley 128.
    let later = try gym.write(
      "later.csv",
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
        + "2026-01-19 18:00:00,Legs,45m,Squat (Barbell),1,120,2,,0,,,\n")
    #expect(try gym.run(["history", "import", later, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    let prs = try gym.run([
      "history", "prs", "--exercise", "back squat", "-f", "csv", "--fields", "exercise,record,value",
    ])
    #expect(prs.stdoutLines.contains("Back Squat,heaviest,120"))
    #expect(prs.stdoutLines.contains("Back Squat,e1RM,128"))
    let taken = try gym.run(["history", "exercises", "rename", "back squat", "Nope"])
    #expect(taken.status == 0)
    let unknown = try gym.run(["history", "exercises", "merge", "Deadlift", "Nope"])
    #expect(unknown.status == 66 && unknown.stderr.contains("no sets of 'Deadlift'"))
  }

  /// `show` prints a workout's totals and, beside each set, the records it set then, worked out from
  /// `strong`; json keeps the importable shape.
  @Test func showHasTotalsAndTheRecordsEachSetSet() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", Self.strong)
    #expect(try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    let ids = try gym.run(["history", "list", "--ids"]).stdoutLines.map(String.init)  // the 12th, the 5th
    #expect(ids.count == 2)
    /// The rows of a titled table in the output, each split at its spaces (blank lines end tables).
    func section(_ output: String, _ title: String) -> [[Substring]] {
      let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
      guard let start = lines.firstIndex(of: Substring(title)), start + 2 <= lines.count else { return [] }
      return lines[(start + 2)...].prefix { !$0.isEmpty }.map { $0.split(separator: " ") }
    }
    // The 5th: 60×10 and 100×5. Totals: 2 working sets, 10 + 5 = 15 reps, 600 + 500 = 1100 kg, one
    // exercise, and its session volume a record. 60×10 set the set volume (600); 100×5 the heaviest
    // (100) and the e1RM (100 × (1 + 5/30) = 116.7).
    let fifth = try gym.run(["history", "show", ids[1]]).stdout
    let fifthSets = section(fifth, "sets")
    // position, exercise (two words), kind, weight, reps, duration, then the records.
    #expect(fifthSets.map { $0.dropFirst(7).joined(separator: " ") } == ["setVolume", "heaviest, e1RM"])
    let fifthTotals = try #require(section(fifth, "totals").first)
    #expect(fifthTotals.prefix(5) == ["2", "2", "15", "1100", "1"])
    #expect(
      fifthTotals.suffix(3).joined(separator: " ") == "(barbell) sessionVolume" || fifthTotals.last == "sessionVolume")
    // The 12th: 105×3 is a new heaviest; the push up's 20 its first most reps. 3 + 20 = 23 reps,
    // 105 × 3 = 315 kg (the push up has no weight), two exercises, no session record (315 < 1100).
    let twelfth = try gym.run(["history", "show", ids[0]]).stdout
    #expect(section(twelfth, "sets").map { $0.last } == ["heaviest", "mostReps"])
    #expect(section(twelfth, "totals").first == ["2", "2", "23", "315", "2"])
    // json: the same figures as `totals` and each set's `records`, beside the workout as stored.
    let json = try gym.run(["history", "show", ids[1], "-f", "json"]).stdout
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let totals = try #require(document["totals"] as? [String: Any])
    #expect(totals["sets"] as? Int == 2 && totals["workingSets"] as? Int == 2 && totals["reps"] as? Int == 15)
    #expect(totals["volumeKg"] as? Double == 1100 && totals["exercises"] as? Int == 1)
    #expect((totals["sessionRecords"] as? [String])?.count == 1)
    let sets = try #require(document["sets"] as? [[String: Any]])
    #expect(sets.map { $0["records"] as? [String] } == [["setVolume"], ["heaviest", "e1RM"]])
    // csv: the workout's own columns, then the totals and every record.
    let csv = try gym.run(["history", "show", ids[0], "-f", "csv"]).stdoutLines
    let header = csv[0].split(separator: ",").map(String.init)
    #expect(
      Array(header.suffix(6)) == ["totalSets", "workingSets", "totalReps", "totalVolumeKg", "exercises", "records"])
    #expect(csv[1].hasSuffix(",2,2,23,315,2,\"set 1 heaviest, set 2 mostReps\""), "\(csv[1])")
    // Both import back into an empty database as the same workout and sets: the figures are skipped.
    let copy = try GymProcess()
    for (name, output) in [
      ("one.json", json), ("one.csv", try gym.run(["history", "show", ids[0], "-f", "csv"]).stdout),
    ] {
      let imported = try copy.run(["history", "import", try copy.write(name, output)])
      #expect(imported.status == 0, "\(name) \(imported.stderr)")
    }
    // The 5th came back with its sets, so its records and totals are worked out the same (no
    // workout before it); the 12th, from csv, is its own fields: the sets were never in the csv.
    let copied = try copy.run(["history", "show", ids[1], "-f", "json"]).stdout
    #expect(copied == json, "\(copied)\n\(json)")
    let back = try copy.run(["history", "show", ids[0], "-f", "csv"]).stdoutLines
    #expect(back[0] == csv[0])
    let fields = { (line: Substring) in line.split(separator: ",", omittingEmptySubsequences: false) }
    // The copy's six figures are empty; the original's records cell holds one comma, so seven pieces.
    #expect(fields(back[1]).dropLast(6) == fields(csv[1]).dropLast(7))
  }

  /// An exercise is found by any case, without its equipment when only one exercise has that name,
  /// and a typo is told the nearest name.
  @Test func exerciseNamesAreFoundForgivingly() throws {
    let gym = try GymProcess()
    let more =
      Self.strong + """
        2026-01-19 18:00:00,Pull,45m,Deadlift (Barbell),1,140,5,,0,,,
        2026-01-19 18:00:00,Pull,45m,Bench Press (Barbell),2,80,5,,0,,,
        2026-01-19 18:00:00,Pull,45m,Bench Press (Dumbbell),3,30,10,,0,,,

        """
    let path = try gym.write("strong.csv", more)
    #expect(try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    // `squat` is the one squat: its heaviest is 105 (the 12th's 105×3).
    let squat = try gym.run(["history", "prs", "--exercise", "squat", "-f", "csv", "--fields", "record,value"])
    #expect(squat.status == 0, "\(squat.stderr)")
    #expect(squat.stdoutLines.contains("heaviest,105"))
    // `deadlift` is Deadlift (Barbell): its one set.
    let deadlift = try gym.run([
      "history", "sets", "--exercise", "DEADLIFT", "-f", "csv", "--fields", "exercise,weightKg",
    ])
    #expect(deadlift.stdoutLines == ["exercise,weightKg", "Deadlift (Barbell),140"])
    // `bench press` is two exercises: a usage error naming both.
    let bench = try gym.run(["history", "progress", "--exercise", "bench press"])
    #expect(bench.status == 64)
    #expect(
      bench.stderr.contains("'bench press' is 'Bench Press (Barbell)' or 'Bench Press (Dumbbell)'; name one"),
      "\(bench.stderr)")
    // A typo: 66, the nearest named.
    let typo = try gym.run(["history", "prs", "--exercise", "Deadlfit (Barbell)"])
    #expect(typo.status == 66 && typo.stderr.contains("did you mean 'Deadlift (Barbell)'?"), "\(typo.stderr)")
  }

  /// Each time a record was set or broken, worked out from the four sets of `strong`.
  @Test func prsTimelineListsEachRecordWhenItWasSetOrBroken() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", Self.strong)
    #expect(try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    let timeline = try gym.run([
      "history", "prs", "--timeline", "-f", "csv", "--fields", "exercise,record,value,weightKg,reps,completedAt",
    ])
    #expect(timeline.status == 0, "\(timeline.stderr)")
    let fifth = "2026-01-05"
    let twelfth = "2026-01-12"
    let rows = timeline.stdoutLines.dropFirst().map { line in
      // The day is enough: which workout, not its minute.
      line.split(separator: ",", omittingEmptySubsequences: false).enumerated()
        .map { $0.offset == 5 ? String($0.element.prefix(10)) : String($0.element) }.joined(separator: ",")
    }
    // Push up, bodyweight: 20 reps on the 12th sets its one record.
    // Squat on the 5th, 60×10 and 100×5: heaviest 100; e1RM max(60×(1+10/30), 100×(1+5/30)) = max(80,
    // 116.67) = 116.7; set volume max(600, 500) = 600; session volume 600 + 500 = 1100 over 15 reps.
    // On the 12th, 105×3: heaviest 105 breaks 100; e1RM 105×1.1 = 115.5, set and session volume 315
    // beat nothing. Named by the latest spelling.
    #expect(
      rows == [
        "Push Up,mostReps,20,,20,\(twelfth)",
        "squat  (barbell),heaviest,100,100,5,\(fifth)", "squat  (barbell),heaviest,105,105,3,\(twelfth)",
        "squat  (barbell),e1RM,116.7,100,5,\(fifth)", "squat  (barbell),setVolume,600,60,10,\(fifth)",
        "squat  (barbell),sessionVolume,1100,,15,\(fifth)",
      ])
    // From the 12th on, the 12th sets every record of the period.
    let late = try gym.run([
      "history", "prs", "--timeline", "--exercise", "squat (barbell)", "--since", "2026-01-10", "-f", "csv",
      "--fields", "record,value",
    ])
    #expect(late.stdoutLines == ["record,value", "heaviest,105", "e1RM,115.5", "setVolume,315", "sessionVolume,315"])
  }

  /// One exercise's sets, newest workout first and in their order within it, through both spellings.
  @Test func setsListOneExerciseNewestFirst() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", Self.strong)
    #expect(try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    let fields = ["-f", "csv", "--fields", "position,exercise,weightKg,reps"]
    let all = try gym.run(["history", "sets", "--exercise", "SQUAT (BARBELL)"] + fields)
    #expect(all.status == 0, "\(all.stderr)")
    // The 12th's one squat, then the 5th's two in set order; the push up is another exercise.
    #expect(
      all.stdoutLines == [
        "position,exercise,weightKg,reps", "1,squat  (barbell),105,3", "1,Squat (Barbell),60,10",
        "2,Squat (Barbell),100,5",
      ])
    // Every set: the push up too, 4 in all.
    #expect(try gym.run(["history", "sets", "-f", "csv", "--fields", "exercise"]).stdoutLines.count == 1 + 4)
    // Pages of two: the cursor reaches the third set, then there is none.
    let first = try gym.run(["history", "sets", "--exercise", "squat (barbell)", "-n", "2"] + fields)
    #expect(first.stdoutLines.count == 1 + 2)
    let cursor = try #require(first.stderr.range(of: "--after ").map { first.stderr[$0.upperBound...] })
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let second = try gym.run(
      ["history", "sets", "--exercise", "squat (barbell)", "-n", "2", "--after", cursor] + fields)
    #expect(second.stdoutLines == ["position,exercise,weightKg,reps", "2,Squat (Barbell),100,5"])
    #expect(!second.stderr.contains("--after"))
    // The list options: a date range (the 5th only) and a filter (5 reps or more: 60×10 and 100×5).
    let early = try gym.run(["history", "sets", "--exercise", "squat (barbell)", "--until", "2026-01-06"] + fields)
    #expect(early.stdoutLines.dropFirst() == ["1,Squat (Barbell),60,10", "2,Squat (Barbell),100,5"])
    let heavy = try gym.run(["history", "sets", "--exercise", "squat (barbell)", "-w", "reps >= 5"] + fields)
    #expect(heavy.stdoutLines.dropFirst() == ["1,Squat (Barbell),60,10", "2,Squat (Barbell),100,5"])
    // A name no set has: 66, with the nearest exercise named.
    let typo = try gym.run(["history", "sets", "--exercise", "Squatt (Barbell)"])
    #expect(typo.status == 66)
    #expect(typo.stderr.lowercased().contains("no sets of 'squatt (barbell)'; did you mean 'squat"), "\(typo.stderr)")
  }

  /// `history add` stores what it is told: an intensity not given is unknown, not "moderate".
  @Test func anAddWithoutAnIntensityLeavesItUnknown() throws {
    let gym = try GymProcess()
    #expect(
      try gym.run(["history", "add", "--plan-title", "T", "--focus", "push", "--duration", "45", "-q"]).status == 0)
    #expect(
      try gym.run([
        "history", "add", "--plan-title", "U", "--focus", "push", "--duration", "45", "--intensity", "high", "-q",
      ])
      .status == 0)
    let rows = try gym.run(["history", "list", "-f", "ndjson", "--fields", "planTitle,intensity"]).stdoutLines
    #expect(Set(rows) == [#"{"planTitle":"T","intensity":null}"#, #"{"planTitle":"U","intensity":"high"}"#])
  }

  /// Workouts that end at the same instant list their sets together, each workout's in set order, on
  /// one page and across pages of one: C2 C1 B2 … was C1 B1 A1 C2 B2 A2 before.
  @Test func setsOfWorkoutsEndingTogetherStayTogether() throws {
    let gym = try GymProcess()
    let workouts = ["a", "b", "c"].map { name in
      #"{"id":"00000000-0000-4000-8000-00000000000\#(name)","completedAt":"2024-05-01T11:00:00Z","planTitle":"\#(name)","sets":["#
        + #"{"position":1,"exercise":"Squat","kind":"normal","weightKg":100,"reps":5},"#
        + #"{"position":2,"exercise":"Squat","kind":"normal","weightKg":100,"reps":5}]}"#
    }
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: workouts.joined(separator: "\n")).status == 0)
    let fields = ["-f", "csv", "--fields", "workoutId,position"]
    let expected = ["a", "b", "c"].flatMap { name in [1, 2].map { "00000000-0000-4000-8000-00000000000\(name),\($0)" } }
    #expect(try gym.run(["history", "sets"] + fields).stdoutLines.dropFirst().map(String.init) == expected)
    var paged: [String] = []
    var after: [String] = []
    for _ in 0..<7 {
      let page = try gym.run(["history", "sets", "-n", "1"] + after + fields)
      paged += page.stdoutLines.dropFirst().map(String.init)
      guard let cursor = page.stderr.range(of: "--after ").map({ page.stderr[$0.upperBound...] }) else { break }
      after = ["--after", cursor.trimmingCharacters(in: .whitespacesAndNewlines)]
    }
    #expect(paged == expected)
  }

  /// Volume and the unmapped list through the binary, with the user's own muscles.yaml over the shipped one.
  @Test func volumeWithTheUsersMuscleMap() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", Self.strong)
    #expect(try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    // Shipped: squat (barbell) is quads and glutes; push up is not ranked by weight but is mapped.
    #expect(try gym.run(["history", "exercises", "--unmapped", "--ids"]).stdout == "")
    let volume = try gym.run(["history", "volume", "--muscle", "quads", "-f", "csv"])
    // The 5th: 2 sets, 15 reps, 600 + 500; the 12th: 1 set, 3 reps, 315.
    #expect(
      volume.stdoutLines == [
        "period,muscle,sets,reps,tonnageKg", "2026-01-05,quads,2,15,1100", "2026-01-12,quads,1,3,315",
      ])
    try FileManager.default.createDirectory(atPath: gym.directory + "/config/gym", withIntermediateDirectories: true)
    _ = try gym.write("config/gym/muscles.yaml", "version: 1\nexercises:\n  SQUAT  (Barbell): {primary: [legs]}\n")
    let mine = try gym.run(["history", "volume", "--by", "month", "-f", "csv"])
    #expect(mine.stdoutLines.contains("2026-01,legs,3,18,1415"))
    #expect(!mine.stdoutLines.contains { $0.contains(",quads,") })
    _ = try gym.write("config/gym/muscles.yaml", "version: 1\nexercises:\n  squat (barbell): {secondary: [legs]}\n")
    let broken = try gym.run(["history", "volume"])
    #expect(broken.status == 78)
    #expect(broken.stderr.contains("muscles.yaml: 'squat (barbell)' needs 'primary: [group, …]'"))
  }

  /// An import names the records it brought (of exercises gym had before); one that brings none says nothing.
  @Test func anImportNamesTheRecordsItBrought() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", Self.strong)
    let first = try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg"])
    #expect(!first.stderr.contains("new record"))  // a first session sets no record
    let header =
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
    // 110 × 2: heaviest 110 > 105; Epley 110 × (1 + 2/30) = 117.3 > 116.7; 220 kg beats neither volume.
    let better = try gym.write("better.csv", header + "2026-01-19 18:00:00,Legs,45m,Squat (Barbell),1,110,2,,0,,,\n")
    let brought = try gym.run(["history", "import", better, "--from", "strong", "--weight-unit", "kg"])
    #expect(
      brought.stderr.hasSuffix("\n2 new records: Squat (Barbell) heaviest 110 kg, Squat (Barbell) e1RM 117.3 kg\n"))
    let same = try gym.write(
      "same.csv",
      header + "2026-01-26 18:00:00,Legs,45m,Squat (Barbell),1,60,5,,0,,,\n"
        + "2026-01-26 18:00:00,Legs,45m,Push Up,2,,15,,0,,,\n")
    let none = try gym.run(["history", "import", same, "--from", "strong", "--weight-unit", "kg"])
    #expect(none.status == 0)
    #expect(!none.stderr.contains("new record"))
  }

  /// `--unit lb` and `units.weight: lb`: weights in pounds (1 lb = 0.45359237 kg), the columns renamed;
  /// reps stay reps.
  @Test func weightsInPounds() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", Self.strong)
    #expect(try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    func pounds(_ kilograms: Double) -> String {
      let value = (kilograms / 0.453_592_37 * 10).rounded() / 10
      return value == value.rounded() ? String(Int(value)) : String(value)
    }
    let prs = try gym.run([
      "history", "prs", "--exercise", "squat (barbell)", "--unit", "lb", "-f", "csv", "--fields",
      "record,value,weightLb,reps",
    ])
    #expect(prs.stdoutLines.first == "record,value,weightLb,reps")
    #expect(prs.stdoutLines.contains("heaviest,\(pounds(105)),\(pounds(105)),3"))
    // Epley 100 × (1 + 5/30) = 116.67 kg, converted before it is rounded: 257.2 lb (116.7 kg would be 257.3).
    #expect(prs.stdoutLines.contains("e1RM,\(pounds(100 * (1 + 5.0 / 30))),\(pounds(100)),5"))
    #expect(prs.stdoutLines.contains("mostRepsAt,10,\(pounds(60)),10"))
    let progress = try gym.run(
      ["history", "progress", "--exercise", "squat (barbell)", "-f", "csv"], environment: ["GYM_UNITS_WEIGHT": "lb"])
    #expect(progress.stdoutLines.first == "period,bestE1RM,topLb,topReps,sets,reps,volumeLb")
    #expect(progress.stdoutLines.contains("2026-01-12,\(pounds(115.5)),\(pounds(105)),3,1,3,\(pounds(315))"))
    let volume = try gym.run([
      "history", "volume", "--muscle", "quads", "--unit", "lb", "-f", "csv", "--fields", "period,tonnageLb",
    ])
    #expect(volume.stdoutLines == ["period,tonnageLb", "2026-01-05,\(pounds(1100))", "2026-01-12,\(pounds(315))"])
    let exercises = try gym.run([
      "history", "exercises", "--unit", "lb", "-f", "csv", "--fields", "exercise,heaviestKg", "--sort", "exercise",
    ])
    #expect(exercises.stdoutLines == ["exercise,heaviestLb", "Push Up,", "squat  (barbell),\(pounds(105))"])
    #expect(try gym.run(["history", "prs", "--unit", "stone"]).status == 64)
    // show: the sets table in pounds; json keeps kilograms, as stored, so it imports back.
    let id = try #require(try gym.run(["history", "list", "--ids", "--sort", "completedAt"]).stdoutLines.first)
    let table = try gym.run(["history", "show", String(id), "--unit", "lb"], environment: ["COLUMNS": "200"])
    let header = try #require(table.stdoutLines.first { $0.hasPrefix("position") })
    #expect(header.split(separator: " ").contains("weightLb"))
    let row = try #require(table.stdoutLines.first { $0.contains("Squat (Barbell)") && $0.contains(" 10 ") })
    #expect(row.split(separator: " ").contains(Substring(pounds(60))))
    let json = try gym.run(["history", "show", String(id), "--unit", "lb", "-f", "json"])
    #expect(json.stdout.contains(#""weightKg":60,"#))
    // Body mass is a weight too: 80 kg and 81.5 kg an hour ago → 176.4 and 179.7 lb (the mean 80.75 → 178 lb).
    let stamp = ISO8601DateFormatter()
    stamp.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let hourAgo = stamp.string(from: Date().addingTimeInterval(-3600))
    let samples = [80.0, 81.5].map {
      #"{"type":"bodyMass","start":"\#(hourAgo)","end":"\#(hourAgo)","value":\#($0),"unit":"kg","stage":"none","source":"Scale"}"#
    }
    let samplesPath = try gym.write("mass.ndjson", samples.joined(separator: "\n") + "\n")
    #expect(try gym.run(["history", "samples", "import", samplesPath, "-q"]).status == 0)
    // Two days, so that the hour before is in them whenever the test runs.
    let daily = try gym.run(["history", "daily", "--type", "bodyMass", "--days", "2", "--unit", "lb", "-f", "csv"])
    #expect(
      daily.stdoutLines.contains { $0.hasSuffix(",2,\(pounds(80)),\(pounds(80.75)),\(pounds(81.5))") },
      "\(daily.stdout)")
    let kilograms = try gym.run(["history", "daily", "--type", "bodyMass", "--days", "2", "-f", "csv"])
    #expect(kilograms.stdoutLines.contains { $0.hasSuffix(",2,80,80.75,81.5") }, "\(kilograms.stdout)")
    let summary = try gym.run(["history", "summary", "-f", "json"], environment: ["GYM_UNITS_WEIGHT": "lb"])
    #expect(summary.stdout.contains(#""bodyMassUnit":"lb""#))
    #expect(
      summary.stdout.contains(#""value":\#(pounds(81.5))"#) && summary.stdout.contains(#""value":\#(pounds(80))"#))
  }
}
