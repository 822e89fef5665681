import Foundation
import Testing
import ZIPFoundation

/// Other apps' exports are kept whole: each case a real export showed, generated here (no one's
/// export is committed), imported through the binary. A record gym cannot read is skipped and told
/// with its line; `--strict` refuses the same file with 65 and the first problem, writing nothing.
/// The expected counts are worked out from the files.
@Suite struct ExportsKeptWholeTests {
  static let strongHeader =
    "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"

  /// A Strong export saved once by a spreadsheet: some rows lost the leading zero of their hour.
  /// Two sessions, two sets each; rows 3 and 4 are the same session as rows 2 and 5 are.
  @Test func oneDigitHoursAreTheSameSession() throws {
    let gym = try GymProcess()
    let rows = [
      "2020-08-08 09:45:31,Push,45m,Bench Press (Barbell),1,60,8,,,,,",
      "2020-08-08 9:45:31,Push,45m,Bench Press (Barbell),2,60,8,,,,,",
      "2020-08-09 7:05:00,Pull,40m,Deadlift (Barbell),1,100,5,,,,,",
      "2020-08-09 07:05:00,Pull,40m,Deadlift (Barbell),2,100,5,,,,,",
    ]
    let edited = try gym.write("edited.csv", ([Self.strongHeader] + rows).joined(separator: "\n") + "\n")
    let result = try gym.run(["history", "import", edited, "--weight-unit", "kg"])
    #expect(result.status == 0, "\(result.stderr)")
    // 2 sessions of 2 sets each: 2 workouts, 4 sets.
    #expect(
      result.stderr.contains("workouts 2 inserted") && result.stderr.contains("sets 4 inserted"), "\(result.stderr)")
    // The file as Strong wrote it (every hour two digits) is the same two sessions: nothing new.
    let padded = rows.map {
      $0.replacingOccurrences(of: " 9:", with: " 09:").replacingOccurrences(of: " 7:", with: " 07:")
    }
    let original = try gym.write("strong.csv", ([Self.strongHeader] + padded).joined(separator: "\n") + "\n")
    let again = try gym.run(["history", "import", original, "--weight-unit", "kg"])
    #expect(again.stderr.contains("workouts 0 inserted, 0 updated, 2 unchanged"), "\(again.stderr)")
    #expect(try gym.run(["history", "count"]).stdout == "2\n")
  }

  /// One row of four cannot be read: the other three import, the one is told with its line and
  /// value; a dry run says the same; importing again is idempotent; --strict refuses it all.
  @Test func anUnreadableRowIsSkippedAndTold() throws {
    let gym = try GymProcess()
    let rows = [
      "2020-08-08 09:45:31,Push,45m,Bench Press (Barbell),1,60,8,,,,,",
      "2020-08-08 09:45:31,Push,45m,Bench Press (Barbell),2,sixty,8,,,,,",
      "2020-08-09 10:00:00,Pull,40m,Deadlift (Barbell),1,100,5,,,,,",
      "2020-08-09 10:00:00,Pull,40m,Deadlift (Barbell),2,100,5,,,,,",
    ]
    let path = try gym.write("strong.csv", ([Self.strongHeader] + rows).joined(separator: "\n") + "\n")
    let strict = try gym.run(["history", "import", path, "--weight-unit", "kg", "--strict"])
    #expect(strict.status == 65)
    #expect(strict.stderr.contains("strong.csv:3: column 'Weight': 'sixty' is not a number"), "\(strict.stderr)")
    #expect(try gym.run(["history", "count"]).status == 66)  // nothing written, no database made
    let told = "strong.csv:3: skipped: column 'Weight': 'sixty' is not a number"
    let dryRun = try gym.run(["history", "import", path, "--weight-unit", "kg", "--dry-run"])
    #expect(dryRun.status == 0 && dryRun.stderr.contains(told), "\(dryRun.stderr)")
    #expect(dryRun.stderr.contains("1 record skipped (line 3)"), "\(dryRun.stderr)")
    let result = try gym.run(["history", "import", path, "--weight-unit", "kg"])
    #expect(result.status == 0 && result.stderr.contains(told), "\(result.stderr)")
    // Rows 2, 4 and 5 (lines): 2 sessions, 1 + 2 sets.
    #expect(result.stderr.contains("workouts 2 inserted") && result.stderr.contains("sets 3 inserted"))
    #expect(result.stderr.contains("; 1 record skipped (line 3)"), "\(result.stderr)")
    let again = try gym.run(["history", "import", path, "--weight-unit", "kg"])
    #expect(
      again.stderr.contains("workouts 0 inserted, 0 updated, 2 unchanged; sets 0 inserted, 0 updated, 3 unchanged"))
    #expect(again.stderr.contains("1 record skipped (line 3)"))
  }

  /// Header recognition: a Strong or Hevy file needs no --from, and says what it was read as; another
  /// app's export given to the wrong command names the command that reads it.
  @Test func exportsAreRecognisedByTheirHeader() throws {
    let gym = try GymProcess()
    let strong = try gym.write(
      "strong.csv", Self.strongHeader + "\n2024-03-05 07:15:00,Morning,1h 5m,Squat (Barbell),1,100,5,,,,,\n")
    let hevy = try gym.write(
      "hevy.csv",
      "\u{FEFF}\"title\",\"start_time\",\"end_time\",\"description\",\"exercise_title\",\"superset_id\",\"exercise_notes\","
        + "\"set_index\",\"set_type\",\"weight_kg\",\"reps\",\"distance_km\",\"duration_seconds\",\"rpe\"\n"
        + "\"Legs\",\"8 Aug 2020, 09:00\",\"8 Aug 2020, 10:00\",\"\",\"Squat (Barbell)\",,\"\",0,\"normal\",100,5,,,\n")
    let goodreads = try gym.write(
      "goodreads.csv",
      "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
        + "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
        + "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies\n"
        + "1,Dune,Frank Herbert,\"Herbert, Frank\",,=\"\",=\"\",0,4.2,,,,,,,2024/01/01,,,to-read,,,,0,0\n")
    let storygraph = try gym.write(
      "storygraph.csv",
      "Title,Authors,ISBN/UID,Format,Read Status,Date Added\nDune,Frank Herbert,,,to-read,2024/01/01\n")

    let asStrong = try gym.run(["history", "import", strong, "--weight-unit", "kg"])
    #expect(
      asStrong.status == 0 && asStrong.stderr.contains("as a Strong export (from its header)"), "\(asStrong.stderr)")
    let asHevy = try gym.run(["history", "import", hevy])
    #expect(asHevy.status == 0 && asHevy.stderr.contains("as a Hevy export (from its header)"), "\(asHevy.stderr)")
    #expect(try gym.run(["history", "count"]).stdout == "2\n")  // one session in each file

    let wrongHistory = try gym.run(["history", "import", goodreads])
    #expect(wrongHistory.status == 65)
    #expect(
      wrongHistory.stderr.contains(
        "this is a Goodreads export; import it with 'gym library import goodreads \(goodreads)'"),
      "\(wrongHistory.stderr)")
    let wrongLibrary = try gym.run(["library", "import", hevy])
    #expect(wrongLibrary.status == 65)
    #expect(wrongLibrary.stderr.contains("gym history import \(hevy) --from hevy"), "\(wrongLibrary.stderr)")
    let wrongStaples = try gym.run(["staples", "import", strong])
    #expect(wrongStaples.status == 65)
    #expect(wrongStaples.stderr.contains("this is a Strong export"), "\(wrongStaples.stderr)")

    let asGoodreads = try gym.run(["library", "import", goodreads])
    #expect(asGoodreads.status == 0 && asGoodreads.stderr.contains("as a Goodreads export"), "\(asGoodreads.stderr)")
    // Stdin is recognised too: the header is looked at, not consumed.
    let asStoryGraph = try gym.run(
      ["library", "import", "-"], stdin: try String(contentsOfFile: storygraph, encoding: .utf8))
    #expect(
      asStoryGraph.status == 0 && asStoryGraph.stderr.contains("as a StoryGraph export"), "\(asStoryGraph.stderr)")
    // Dune by Frank Herbert from both: matched by title and author, one work.
    #expect(try gym.run(["library", "count"]).stdout == "1\n")
    let own = try gym.run(["library", "list", "-f", "ndjson"]).stdout
    let asGym = try gym.run(["library", "import", "-"], stdin: own)
    #expect(asGym.status == 0 && asGym.stderr.contains("1 unchanged"), "\(asGym.stderr)")
    #expect(!asGym.stderr.contains("export (from its header)"))
  }

  /// The summary counts the books read, not the rows: three rows, one a rating of 9 stars (skipped),
  /// are two books.
  @Test func aSkippedRowIsNoBookInTheSummary() throws {
    let gym = try GymProcess()
    let header =
      "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
      + "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
      + "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies\n"
    let rows = ["1,Dune,Frank Herbert", "2,Emma,Jane Austen", "3,Ulysses,James Joyce"].enumerated().map { i, book in
      book + ",,,,,\(i == 1 ? 9 : 0),4.2,,,,,,,2024/01/01,,,to-read,,,,0,0\n"
    }
    let path = try gym.write("goodreads.csv", header + rows.joined())
    let result = try gym.run(["library", "import", "goodreads", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("imported 2 books: works 2 added"), "\(result.stderr)")
    #expect(result.stderr.contains("; 1 record skipped (line 3)"), "\(result.stderr)")
  }

  static let storyGraphHeader = "Title,Authors,Read Status,Date Added,Last Date Read,Dates Read,Read Count,Star Rating"

  /// A reading entered backwards in StoryGraph: read by its Last Date Read (finished then, start
  /// unknown), or with its ends swapped when that says nothing of it; the other books unharmed.
  @Test func aBackwardsRangeIsReadAndTheRestImports() throws {
    let gym = try GymProcess()
    let rows = [
      "Alpha,A. Author,read,2025/01/01,2025/04/04,2025/04/14-2025/04/04,1,4",
      "Beta,B. Author,read,2025/01/01,2025/06/01,\"2025/06/01, 2024/03/20-2024/03/02\",2,",
      "Gamma,C. Author,to-read,2025/01/01,,,0,",
    ]
    let path = try gym.write("storygraph.csv", ([Self.storyGraphHeader] + rows).joined(separator: "\n") + "\n")
    let strictResult = try gym.run(["library", "import", "storygraph", path, "--strict"])
    #expect(strictResult.status == 0, "a reading read with a warning is no skip: \(strictResult.stderr)")
    #expect(strictResult.stderr.contains("storygraph.csv:2: warning: column 'Dates Read': '2025/04/14-2025/04/04'"))
    #expect(strictResult.stderr.contains("storygraph.csv:3: warning: column 'Dates Read': '2024/03/20-2024/03/02'"))
    #expect(strictResult.stderr.contains("imported 3 books: works 3 added"), "\(strictResult.stderr)")
    let readings = try gym.run(
      ["library", "readings", "-f", "csv", "--sort", "title,id", "--fields", "title,status,started,finished"]
    ).stdoutLines.dropFirst().map(String.init)
    #expect(
      readings == [
        // Its Last Date Read is one end: finished then, the other end is no start.
        "Alpha,read,,2025-04-04",
        // The older reading, not the last: its ends swapped; the newest a finish date alone.
        "Beta,read,2024-03-02,2024-03-20", "Beta,read,,2025-06-01",
      ])
  }

  static let goodreadsHeader =
    "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
    + "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
    + "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies"

  /// Goodreads counts the read in progress in Read Count: a book on currently-reading with Read
  /// Count 1 is one reading in progress, not a finished read as well; with Read Count 2, one earlier
  /// read. Exporting to Goodreads' layout writes the counts back as they were.
  @Test func aReadInProgressIsNotAFinishedRead() throws {
    let gym = try GymProcess()
    let rows = [
      "1,Dune,Frank Herbert,\"Herbert, Frank\",,=\"\",=\"\",0,4.2,,,,,,,2024/01/01,currently-reading,,currently-reading,,,,1,0",
      "2,Emma,Jane Austen,\"Austen, Jane\",,=\"\",=\"\",0,4.0,,,,,,,2024/01/01,currently-reading,,currently-reading,,,,2,0",
    ]
    let path = try gym.write("goodreads.csv", ([Self.goodreadsHeader] + rows).joined(separator: "\n") + "\n")
    #expect(try gym.run(["library", "import", "goodreads", path]).status == 0)
    let readings = try gym.run(
      ["library", "readings", "-f", "csv", "--sort", "title,status", "--fields", "title,status,finished"]
    ).stdoutLines.dropFirst().map(String.init)
    // Dune: 1 − 1 in progress = 0 finished reads; Emma: 2 − 1 = 1, undated.
    #expect(readings == ["Dune,reading,", "Emma,read,", "Emma,reading,"])
    let stats = try gym.run(["library", "list", "-f", "csv", "--sort", "title", "--fields", "title,readCount"])
    #expect(stats.stdoutLines.dropFirst().map(String.init) == ["Dune,0", "Emma,1"])
    let exported = try gym.run(["library", "export", "goodreads"])
    // Read Count is the last column but one (Owned Copies); counted from the end, past the quoted
    // commas of "Herbert, Frank".
    let lines = exported.stdoutLines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    // 0 + 1 in progress and 1 + 1 in progress: the counts of the file imported.
    #expect(lines.map { String($0[$0.count - 2]) } == ["1", "2"], "\(exported.stdout)")
  }

  static func health(_ body: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout)*)>\n]>\n"
      + "<HealthData locale=\"de_DE\">\n <ExportDate value=\"20150816191805+0200\"/>\n" + body + "</HealthData>\n"
  }

  /// The 2015 layout (iOS 8–9): compact dates and `source`, in a zip as `Exportieren.xml`.
  @Test func theFirstHealthLayoutImports() throws {
    let gym = try GymProcess()
    let xml = Self.health(
      #" <Record type="HKQuantityTypeIdentifierStepCount" source="Anna’s iPhone" unit="count" startDate="20141018163200+0100" endDate="20141018163700+0100" value="42"/>"#
        + "\n"
        + #" <Record type="HKQuantityTypeIdentifierBodyMass" source="Anna’s iPhone" unit="lb" startDate="20141019080000+0100" endDate="20141019080000+0100" value="150"/>"#
        + "\n")
    let path = gym.directory + "/export.zip"
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
    let data = Data(xml.utf8)
    try archive.addEntry(
      with: "apple_health_export/Exportieren.xml", type: .file, uncompressedSize: Int64(data.count),
      compressionMethod: .deflate
    ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
    let result = try gym.run(["history", "import-health", path, "--strict"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("2 samples inserted"), "\(result.stderr)")
    let listed = try gym.run([
      "history", "samples", "list", "-f", "csv", "--fields", "type,start,end,value,unit,source", "--sort", "start",
    ])
    // 16:32 at +01:00 is 15:32 UTC; 150 lb × 0.45359237 = 68.0388555 kg.
    #expect(
      listed.stdoutLines.dropFirst().map(String.init) == [
        "steps,2014-10-18T15:32:00.000Z,2014-10-18T15:37:00.000Z,42,count,Anna’s iPhone",
        "bodyMass,2014-10-19T07:00:00.000Z,2014-10-19T07:00:00.000Z,68.038856,kg,Anna’s iPhone",
      ], "\(listed.stdout)")
  }

  /// Every spelling of a unit Apple has written, blood pressure inside its `<Correlation>`, and a
  /// record gym cannot read among them.
  @Test func unitSpellingsCorrelationsAndASkippedRecord() throws {
    let gym = try GymProcess()
    func record(_ type: String, _ unit: String, _ value: String, at time: String, source: String = "Watch") -> String {
      #" <Record type="HKQuantityTypeIdentifier\#(type)" sourceName="\#(source)" unit="\#(unit)" startDate="2024-01-01 \#(time) +0000" endDate="2024-01-01 \#(time) +0000" value="\#(value)"/>"#
        + "\n"
    }
    var body = ""
    for (index, unit) in ["mL/kg·min", "mL/min·kg", "mL/(kg·min)", "mL/kg/min"].enumerated() {
      body += record("VO2Max", unit, "45.5", at: "10:0\(index):00")
    }
    body += record("HeartRate", "/min", "61", at: "11:00:00")
    body += record("HeartRate", "count/min", "62", at: "11:01:00")
    // Lines 1–6 are the prologue, the root and ExportDate; 7–10 the VO2 max, 11 and 12 heart rates.
    body += record("HeartRate", "count/min", "many", at: "11:02:00")  // line 13: skipped
    body +=
      #" <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" startDate="2024-01-02 08:00:00 +0000" endDate="2024-01-02 08:00:00 +0000">"#
      + "\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n"
      + record("BloodPressureDiastolic", "mmHg", "80", at: "08:00:00", source: "Omron").replacingOccurrences(
        of: "2024-01-01", with: "2024-01-02")
      + record("BloodPressureSystolic", "mmHg", "120", at: "08:00:00", source: "Omron").replacingOccurrences(
        of: "2024-01-01", with: "2024-01-02")
      + " </Correlation>\n"
    let path = try gym.write("export.xml", Self.health(body))
    let strict = try gym.run(["history", "import-health", path, "--strict"])
    #expect(strict.status == 65)
    #expect(strict.stderr.contains("export.xml:13: HKQuantityTypeIdentifierHeartRate: value 'many' is not a number"))
    let result = try gym.run(["history", "import-health", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("export.xml:13: skipped: HKQuantityTypeIdentifierHeartRate: value 'many'"))
    // 4 VO2 max + 2 heart rates + 2 blood pressure = 8 samples; 9 records read, 1 skipped.
    #expect(result.stderr.contains("read 9 records: 8 samples inserted"), "\(result.stderr)")
    #expect(result.stderr.contains("; 1 record skipped (line 13)"), "\(result.stderr)")
    let vo2 = try gym.run(["history", "samples", "list", "--type", "vo2Max", "-f", "csv", "--fields", "value,unit"])
    #expect(vo2.stdoutLines.dropFirst().map(String.init) == Array(repeating: "45.5,ml/kg/min", count: 4))
    let heart = try gym.run([
      "history", "samples", "list", "--type", "heartRate", "-f", "csv", "--fields", "value,unit", "--sort", "start",
    ])
    #expect(heart.stdoutLines.dropFirst().map(String.init) == ["61,count/min", "62,count/min"])
    // The pair: the same start, end and source.
    let pressure = try gym.run([
      "history", "samples", "list", "-f", "csv", "--fields", "type,start,value,unit,source", "--sort", "type",
    ])
    #expect(
      pressure.stdoutLines.filter { $0.hasPrefix("bloodPressure") }.map(String.init) == [
        "bloodPressureDiastolic,2024-01-02T08:00:00.000Z,80,mmHg,Omron",
        "bloodPressureSystolic,2024-01-02T08:00:00.000Z,120,mmHg,Omron",
      ], "\(pressure.stdout)\(pressure.stderr)")
    let again = try gym.run(["history", "import-health", path])
    #expect(again.stderr.contains("0 samples inserted, 8 skipped as duplicates"), "\(again.stderr)")
  }
}
