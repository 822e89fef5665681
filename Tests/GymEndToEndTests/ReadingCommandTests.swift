import Foundation
import Testing

/// Readings through the binary: start, progress, finish, a re-read, abandon, and a Goodreads export
/// imported again after reading in gym.
@Suite struct ReadingCommandTests {
  func readings(_ gym: GymProcess, _ work: String? = nil) throws -> [String] {
    let result = try gym.run(
      ["library", "readings"] + (work.map { [$0] } ?? []) + [
        "-f", "csv", "--fields", "workId,status,started,finished,pages,percent", "--sort", "id",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdoutLines.dropFirst().map(String.init)
  }

  /// The id of the work whose title begins with `title`: a work's id is its key (Docs/Sync.md).
  static func workId(_ gym: GymProcess, _ title: String) throws -> String {
    let list = try gym.run(["library", "list", "-f", "tsv", "--fields", "id,title", "--limit", "0"])
    let line = try #require(list.stdoutLines.first { $0.split(separator: "\t").last?.hasPrefix(title) == true })
    return String(line.split(separator: "\t")[0])
  }

  @Test func startProgressFinishRereadAbandon() throws {
    let gym = try GymProcess()
    let added = try gym.run(["library", "add", "Piranesi", "--author", "Susanna Clarke", "--pages", "272"])
    #expect(added.status == 0)
    // A work's id is its key (Docs/Sync.md): the one `add` printed.
    let id = String(try #require(added.stdoutLines.first))
    let start = try gym.run(["library", "start", id, "--date", "2026-01-02"])
    #expect(start.status == 0)
    // The reading's key: its day in the high bits, days since 1900-01-01: 126 years of 365 days, 31
    // leap days (1904 … 2024) and 1 → 126 × 365 + 31 + 1 = 46022.
    let printed = try #require(start.stdoutLines.first)
    let reading = try #require(Int64(String(printed)))
    #expect(reading >> 36 == 46022)
    // Starting again says so and changes nothing.
    let again = try gym.run(["library", "start", id, "--date", "2026-01-05"])
    #expect(again.status == 0)
    #expect(again.stderr.contains("already being read (since 2026-01-02); nothing changed"))
    #expect(try readings(gym) == ["\(id),reading,2026-01-02,,,"])
    #expect(try gym.run(["library", "progress", id, "120"]).status == 0)
    #expect(try readings(gym) == ["\(id),reading,2026-01-02,,120,"])
    #expect(try gym.run(["library", "progress", id, "45%"]).status == 0)
    #expect(try readings(gym) == ["\(id),reading,2026-01-02,,,45"])
    // Past the last page, not a number, a finish before the start: refused, nothing changed.
    let past = try gym.run(["library", "progress", id, "273"])
    #expect(past.status == 64 && past.stderr.contains("page 273 is past the end of 'Piranesi' (272 pages"))
    #expect(try gym.run(["library", "progress", id, "101%"]).status == 64)
    let early = try gym.run(["library", "finish", id, "--date", "2026-01-01"])
    #expect(early.status == 64 && early.stderr.contains("was started on 2026-01-02, after 2026-01-01"))
    #expect(try readings(gym) == ["\(id),reading,2026-01-02,,,45"])
    let finish = try gym.run(["library", "finish", id, "--date", "2026-01-20"])
    #expect(finish.status == 0 && finish.stdoutLines == ["\(reading)"])
    #expect(!finish.stderr.contains("re-read"))
    // Finishing again, with nothing in progress, is a re-read.
    let reread = try gym.run(["library", "finish", id, "--date", "2026-06-01"])
    #expect(reread.stderr.contains("a re-read, read twice now"))
    #expect(try readings(gym) == ["\(id),read,2026-01-02,2026-01-20,,45", "\(id),read,,2026-06-01,,"])
    let list = try gym.run(["library", "list", "-f", "csv", "--fields", "status,dateStarted,dateFinished,readCount"])
    // The latest reading is the re-read (no start date); the last finish and two reads.
    #expect(list.stdoutLines == ["status,dateStarted,dateFinished,readCount", "read,,2026-06-01,2"])
    let nothing = try gym.run(["library", "abandon", id])
    #expect(nothing.status == 65 && nothing.stderr.contains("'Piranesi' is not being read; nothing to abandon"))
    #expect(try gym.run(["library", "start", id, "--date", "2026-09-01"]).status == 0)
    #expect(try gym.run(["library", "abandon", id, "--date", "2026-09-10"]).status == 0)
    #expect(try readings(gym, id).last == "\(id),abandoned,2026-09-01,2026-09-10,,")
    let shelf = try gym.run(["library", "list", "-f", "csv", "--fields", "status,readCount"])
    #expect(shelf.stdoutLines == ["status,readCount", "abandoned,2"])
    // The shared list options; newest recorded first by default.
    let read = try gym.run(["library", "readings", "-w", "status == \"read\"", "-f", "csv", "--fields", "id"])
    #expect(read.stdoutLines.count == 3 && read.stdoutLines.last == "\(reading)")
  }

  /// A Goodreads export imported again after a re-read in gym: nothing duplicated, nothing lost.
  @Test func reimportingAnExportKeepsTheReadingsRecordedInGym() throws {
    let gym = try GymProcess()
    let export = LibraryCommandTests.goodreads
    let path = try gym.write("goodreads.csv", export)
    #expect(try gym.run(["library", "import", "goodreads", path, "-q"]).status == 0)
    let id = try Self.workId(gym, "Gideon")
    // Gideon: read once, on 2020/01/15. The Odyssey: on a shelf of the user's own (to read), no reading.
    #expect(try readings(gym) == ["\(id),read,,2020-01-15,,"])
    #expect(try gym.run(["library", "finish", id, "--date", "2026-11-20"]).status == 0)
    #expect(try gym.run(["library", "import", "goodreads", path, "-q"]).status == 0)
    #expect(try readings(gym) == ["\(id),read,,2020-01-15,,", "\(id),read,,2026-11-20,,"])
    // A newer export that knows of the re-read (Read Count 2, the last Date Read) adds nothing either.
    let newer = export.replacingOccurrences(of: "2020/01/15,2019/12/01", with: "2026/11/20,2019/12/01")
      .replacingOccurrences(of: ",read,\"Bones.", with: ",read,\"Bones.").replacingOccurrences(
        of: "great.\",,,1,1", with: "great.\",,,2,1")
    #expect(newer != export)
    let newerPath = try gym.write("newer.csv", newer)
    #expect(try gym.run(["library", "import", "goodreads", newerPath, "-q"]).status == 0)
    #expect(try readings(gym) == ["\(id),read,,2020-01-15,,", "\(id),read,,2026-11-20,,"])
    // A re-read begun in gym since: the old export (on the read shelf, read before it began) leaves it going.
    #expect(try gym.run(["library", "start", id, "--date", "2026-11-21", "-q"]).status == 0)
    #expect(try gym.run(["library", "import", "goodreads", path, "-q"]).status == 0)
    #expect(
      try readings(gym) == ["\(id),read,,2020-01-15,,", "\(id),read,,2026-11-20,,", "\(id),reading,2026-11-21,,,"])
  }

  /// `library show` output from before readings (its entry carried the dates and the read count)
  /// imports as readings; a show reading is checked as `add` checks dates.
  @Test func olderShowOutputAndBadReadings() throws {
    let gym = try GymProcess()
    let old =
      #"{"id":7,"title":"Old Backup","reviewStatus":"verified","lastModified":"2025-01-01T00:00:00.000Z","authors":[{"id":1,"name":"An Author","sortName":"Author, An"}],"editions":[],"entries":[{"id":1,"readingStatus":"read","rating":4,"dateAdded":"2024-12-01","dateStarted":"2024-12-02","dateFinished":"2024-12-20","review":null,"readCount":2,"ownedCopies":1,"shelves":null}]}"#
    #expect(try gym.run(["library", "import", "gym", try gym.write("old.ndjson", old + "\n"), "-q"]).status == 0)
    // The dated read, and one more the read count says without a date. Id 7 is a number local to the
    // older database, not a key: the work gets its own (RecordKeys). The undated read's key has day
    // 0, so it sorts first.
    let work = RecordKeys.work("Old Backup", authors: ["An Author"])
    #expect(try readings(gym) == ["\(work),read,,,,", "\(work),read,2024-12-02,2024-12-20,,"])
    for (reading, message) in [
      (
        #"{"status":"reading","started":"2025-01-01","finished":"2025-01-05"}"#,
        "field 'finished': '2025-01-05' is not empty for a reading in progress"
      ),
      (
        #"{"status":"read","started":"2025-01-09","finished":"2025-01-05"}"#,
        "field 'started': '2025-01-09' is not on or before the finish 2025-01-05"
      ),
      (#"{"status":"read","finished":"2025-02-31"}"#, "field 'finished': '2025-02-31' is not a date (YYYY-MM-DD)"),
    ] {
      let line = #"{"id":\#(work),"readings":["# + reading + "]}\n"
      let bad = try gym.run(["library", "import", "gym", try gym.write("bad.ndjson", line)])
      #expect(bad.status == 65 && bad.stderr.contains(message), "\(bad.stderr)")
    }
    #expect(try readings(gym).count == 2)
  }

  /// `set` without `--status` corrects the latest reading's dates, and refuses what cannot be.
  @Test func correctingDates() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["library", "add", "Piranesi", "--author", "Susanna Clarke", "-q"]).status == 0)
    let id = try Self.workId(gym, "Piranesi")
    #expect(try gym.run(["library", "finish", id, "--date", "2026-01-20", "-q"]).status == 0)
    #expect(try gym.run(["library", "set", id, "--started", "2026-01-02", "-q"]).status == 0)
    #expect(try readings(gym) == ["\(id),read,2026-01-02,2026-01-20,,"])
    let backwards = try gym.run(["library", "set", id, "--started", "2026-02-01"])
    #expect(
      backwards.status == 64 && backwards.stderr.contains("the start 2026-02-01 would come after the finish 2026-01-20")
    )
    #expect(try gym.run(["library", "start", id, "--date", "2026-03-01", "-q"]).status == 0)
    let open = try gym.run(["library", "set", id, "--finished", "2026-03-09"])
    #expect(open.status == 64 && open.stderr.contains("is in progress: 'gym library finish \(id) --date …' ends it"))
    #expect(try readings(gym) == ["\(id),read,2026-01-02,2026-01-20,,", "\(id),reading,2026-03-01,,,"])
    // set --status read ends it, today.
    #expect(try gym.run(["library", "set", id, "--status", "read", "--finished", "2026-03-10", "-q"]).status == 0)
    #expect(try readings(gym).last == "\(id),read,2026-03-01,2026-03-10,,")
  }
}

/// `library stats` on a year worked out by hand from the readings recorded below.
@Suite struct ReadingStatsTests {
  /// 2025: Long Book (900 pages, rated 5, Ann Xavier) read in 2024 and again on 10 March; Short Book
  /// (120 pages, rated 3, Ann Xavier and Bo Young) on 20 March; No Pages (unrated, Bo Young) on 1 July,
  /// then started again and abandoned; Next Year on 1 January 2026.
  func library() throws -> GymProcess {
    let gym = try GymProcess()
    for command in [
      ["library", "add", "Long Book", "--author", "Ann Xavier", "--pages", "900", "--rating", "5"],
      [
        "library", "add", "Short Book", "--author", "Ann Xavier", "--author", "Bo Young", "--pages", "120", "--rating",
        "3",
      ],
      ["library", "add", "No Pages", "--author", "Bo Young"],
      ["library", "add", "Next Year", "--author", "Cy Zed", "--pages", "50"],
      ["library", "finish", "Long Book", "--date", "2024-01-01"],
      ["library", "finish", "Long Book", "--date", "2025-03-10"],
      ["library", "finish", "Short Book", "--date", "2025-03-20"],
      ["library", "start", "No Pages", "--date", "2025-06-01"],
      ["library", "finish", "No Pages", "--date", "2025-07-01"],
      ["library", "start", "No Pages", "--date", "2025-07-20"],
      ["library", "abandon", "No Pages", "--date", "2025-08-01"],
      ["library", "finish", "Next Year", "--date", "2026-01-01"],
    ] {
      var command = command
      if command[1] != "add" { command[2] = try ReadingCommandTests.workId(gym, command[2]) }
      let result = try gym.run(command + ["-q"])
      #expect(result.status == 0, "\(command): \(result.stderr)")
    }
    return gym
  }

  @Test func theYearByTheDefinitions() throws {
    let gym = try library()
    // Books: three finished readings in 2025 (the abandoned one and 2026's do not count); Long Book's
    // is a re-read. Pages 900 + 120 (No Pages has none). Rating (5 + 3) / 2 of the 2 rated. Authors: Ann
    // Xavier 2 and Bo Young 2, by sort name. Goal 4: missed by 1. Put down: No Pages, on 1 August.
    let table = try gym.run(
      ["library", "stats", "--year", "2025"],
      environment: ["COLUMNS": "40", "LANG": "C.UTF-8", "GYM_LIBRARY_GOAL": "4"])
    #expect(table.status == 0, "\(table.stderr)")
    let lines = table.stdoutLines.map(String.init)
    #expect(
      Array(lines.prefix(8)) == [
        "2025 in books", "books     3 (1 re-read)", "pages     1020", "put down  1 (did not finish)",
        "rating    4 average of 2 rated",
        "longest   Long Book, 900 pages", "shortest  Short Book, 120 pages", "authors   Ann Xavier 2, Bo Young 2",
      ])
    #expect(lines.dropFirst(8).first == "goal      4 a year: missed by 1")
    // Bars: labels 7 wide, values 1, so 40 − 7 − 1 − 4 = 28 columns; March's 2 fill them, July's 1 half.
    #expect(lines.contains("2025-03  " + String(repeating: "█", count: 28) + "  2"))
    #expect(lines.contains("2025-07  " + String(repeating: "█", count: 14) + String(repeating: " ", count: 14) + "  1"))
    let csv = try gym.run(["library", "stats", "--year", "2025", "-f", "csv"])
    #expect(csv.stdoutLines.count == 13)
    #expect(csv.stdoutLines.contains("2025-03,2,1020") && csv.stdoutLines.contains("2025-07,1,0"))
    #expect(csv.stdoutLines.contains("2025-01,0,0"))
    let json = try gym.run(
      ["library", "stats", "--year", "2025", "-f", "json"], environment: ["GYM_LIBRARY_GOAL": "3"])
    let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["books"] as? Int == 3 && object["rereads"] as? Int == 1 && object["pages"] as? Int == 1020)
    #expect(object["averageRating"] as? Double == 4)
    #expect((object["longest"] as? [String: Any])?["title"] as? String == "Long Book")
    #expect((object["goal"] as? [String: Any])?["status"] as? String == "reached")
    #expect((object["authors"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ann Xavier", "Bo Young"])
  }

  /// This year's goal: on an even pace, goal × day of the year ÷ days in the year books by today.
  @Test func thisYearsGoal() throws {
    ClockEdge.avoidMidnight()
    let gym = try GymProcess()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let now = Date()
    let year = calendar.component(.year, from: now)
    let day = calendar.ordinality(of: .day, in: .year, for: now)!
    let days = calendar.range(of: .day, in: .year, for: now)!.count
    let expected = 1000 * day / days
    #expect(try gym.run(["library", "add", "Only", "--author", "A B", "-q"]).status == 0)
    #expect(try gym.run(["library", "finish", try ReadingCommandTests.workId(gym, "Only"), "-q"]).status == 0)
    let result = try gym.run(["library", "stats", "--chart", "none"], environment: ["GYM_LIBRARY_GOAL": "1000"])
    #expect(result.stdoutLines.first == "\(year) in books")
    #expect(
      result.stdoutLines.contains("goal      1000 a year: behind by \(expected - 1) (\(expected) expected by today)"))
  }
}

/// A goal per year, as Goodreads' reading challenge: the year's own, else `library.goal`.
@Suite struct ReadingGoalTests {
  @Test func eachYearHasItsGoal() throws {
    let gym = try GymProcess()
    for command in [
      ["library", "add", "Dune", "--author", "Frank Herbert"], ["library", "finish", "Dune", "--date", "2024-05-01"],
      ["library", "add", "Emma", "--author", "Jane Austen"], ["library", "finish", "Emma", "--date", "2024-06-01"],
    ] {
      var command = command
      if command[1] != "add" { command[2] = try ReadingCommandTests.workId(gym, command[2]) }
      #expect(try gym.run(command + ["-q"]).status == 0)
    }
    #expect(try gym.run(["library", "goal", "3", "--year", "2024"]).stderr == "goal 2024: 3 books\n")
    let environment = ["GYM_LIBRARY_GOAL": "1"]
    func goal(_ year: String) throws -> String? {
      try gym.run(["library", "stats", "--year", year], environment: environment).stdoutLines
        .first { $0.hasPrefix("goal") }.map(String.init)
    }
    // 2024: its own goal, 3; 2 books read, so missed by 3 − 2 = 1. 2023: library.goal, 1; none read.
    #expect(try goal("2024") == "goal      3 a year: missed by 1")
    #expect(try goal("2023") == "goal      1 a year: missed by 1")
    let listed = try gym.run(["library", "goal", "-f", "csv"], environment: environment)
    #expect(listed.stdoutLines.map(String.init) == ["year,books", "2024,3"])
    #expect(listed.stderr == "other years: library.goal, 1 book\n")
    #expect(try gym.run(["library", "goal", "--clear", "--year", "2024", "-q"]).status == 0)
    #expect(try goal("2024") == "goal      1 a year: reached")  // 2 read ≥ 1
    let bad = try gym.run(["library", "goal", "0"])
    #expect(bad.status == 64 && bad.stderr.contains("the goal must be from 1 to 100000 books"))
  }
}
