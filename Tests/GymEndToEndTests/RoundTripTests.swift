import Foundation
import Testing

/// Every list and show output imports back: the `{"items": …}` document, NDJSON, CSV, and show's
/// workout with its sets. `--partial` changes only the fields given; `--dry-run` counts and keeps
/// nothing; a CSV may leave out what `add` has a default for.
@Suite struct RoundTripTests {
  static let workouts = """
    {"id":"00000000-0000-4000-8000-000000000001","completedAt":"2026-03-01T07:30:00Z","status":"completed","planTitle":"Leg Day, heavy","focus":"legs","durationMinutes":61.5,"intensity":"high","notes":"say \\"hi\\"\\nnew line"}
    {"id":"00000000-0000-4000-8000-000000000002","completedAt":"2026-03-02T18:00:00Z","status":"skipped","planTitle":"Run","focus":null,"durationMinutes":null,"intensity":null}
    {"id":"00000000-0000-4000-8000-000000000003","completedAt":"2026-03-03T12:00:00Z","status":"completed","planTitle":"ヨガ 🧘","focus":"mobility","durationMinutes":30,"intensity":"low","distanceKm":0.25,"activeEnergyKcal":120}

    """

  @Test(arguments: ["json", "ndjson", "csv"])
  func historyListImportsBack(format: String) throws {
    let source = try GymProcess()
    #expect(try source.run(["history", "import", "-", "-q"], stdin: Self.workouts).status == 0)
    let printed = try source.run(["history", "list", "-f", format])
    #expect(printed.status == 0)
    let target = try GymProcess()
    let imported = try target.run(
      ["history", "import", "-", "--input-format", format], stdin: printed.stdout)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stderr.hasPrefix("imported 3 records: 3 inserted, 0 updated, 0 unchanged\n"))
    // The same records, field for field, as the source wrote them.
    #expect(
      try target.run(["history", "list", "-f", "ndjson"]).stdout
        == source.run(["history", "list", "-f", "ndjson"]).stdout)
    let again = try target.run(["history", "import", "-", "--input-format", format], stdin: printed.stdout)
    #expect(again.stderr == "imported 3 records: 0 inserted, 0 updated, 3 unchanged\n")
  }

  @Test func theJSONDocumentNamesItsMistakes() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: #"{"items": [], "next": null}"#).status == 0)
    let bad = try gym.run(["history", "import", "-"], stdin: #"{"items": [], "next": 3}"#)
    #expect(bad.status == 65)
    #expect(bad.stderr.contains("hold text or null (a cursor)"))
    // An object that is not the document is a record, and its unknown field is named.
    let record = try gym.run(["history", "import", "-"], stdin: #"{"itemz": []}"#)
    #expect(record.status == 65)
    #expect(record.stderr.contains("unknown field 'itemz'"))
  }

  static let strong = """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2024-01-12 18:30:00,Push,45m,Bench Press (Barbell),1,60,10,,0,,,
    2024-01-12 18:30:00,Push,45m,Bench Press (Barbell),2,70,8,,0,,,8
    2024-01-12 18:30:00,Push,45m,Dips,3,,12,,0,slow,,

    """

  @Test func showWithItsSetsImportsBack() throws {
    let source = try GymProcess()
    #expect(
      try source.run(["history", "import", "-", "--from", "strong", "--weight-unit", "kg", "-q"], stdin: Self.strong)
        .status == 0)
    let id = try source.run(["history", "list", "--ids"]).stdout.trimmingCharacters(in: .newlines)
    let shown = try source.run(["history", "show", id, "-f", "json"]).stdout
    #expect(
      shown.contains(
        #""sets":[{"position":1,"exercise":"Bench Press (Barbell)","kind":"normal","weightKg":60,"reps":10"#))

    let target = try GymProcess()
    let imported = try target.run(["history", "import", "-"], stdin: shown)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stderr.hasPrefix(
        "imported 1 records: 1 inserted, 0 updated, 0 unchanged; sets 3 inserted, 0 updated, 0 unchanged, 0 removed\n"))
    #expect(try target.run(["history", "show", id, "-f", "json"]).stdout == shown)

    // The sets given are the workout's sets: one changed, one left out.
    var trimmed = shown.replacingOccurrences(of: #""reps":8"#, with: #""reps":9"#)
    trimmed.removeSubrange(trimmed.range(of: #",\{"position":3[^}]*\}"#, options: .regularExpression)!)
    let changed = try target.run(["history", "import", "-"], stdin: trimmed)
    #expect(
      changed.stderr
        == "imported 1 records: 0 inserted, 0 updated, 1 unchanged; sets 0 inserted, 1 updated, 1 unchanged, 1 removed\n"
    )
    let after = try target.run(["history", "show", id, "-f", "json"]).stdout
    #expect(after.contains(#""weightKg":70,"reps":9"#))
    #expect(!after.contains("Dips"))
    // A record without `sets` leaves them alone; `"sets": []` removes them all.
    let workoutOnly = try source.run(["history", "list", "-f", "ndjson"]).stdout
    #expect(
      try target.run(["history", "import", "-"], stdin: workoutOnly).stderr
        == "imported 1 records: 0 inserted, 0 updated, 1 unchanged\n")
    let none = workoutOnly.replacingOccurrences(of: "}\n", with: #","sets":[]}"# + "\n")
    #expect(
      try target.run(["history", "import", "-"], stdin: none).stderr.hasSuffix(
        "sets 0 inserted, 0 updated, 0 unchanged, 2 removed\n"))
    #expect(!(try target.run(["history", "show", id]).stdout.contains("Bench")))
  }

  @Test func partialChangesOnlyTheGivenFields() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: Self.workouts).status == 0)
    let before = try gym.run(["history", "list", "-f", "ndjson"]).stdout
    let edit = """
      {"id":"00000000-0000-4000-8000-000000000002","notes":"rained off"}
      {"id":"00000000-0000-4000-8000-000000000001","intensity":null}
      {"id":"00000000-0000-4000-8000-000000000003","planTitle":"ヨガ 🧘"}

      """
    let result = try gym.run(["history", "import", "-", "--partial"], stdin: edit)
    #expect(result.stderr == "imported 3 records: 0 inserted, 2 updated, 1 unchanged\n")
    let expected =
      before
      .replacingOccurrences(of: #""intensity":"high""#, with: #""intensity":null"#)
      .replacingOccurrences(of: #""intensity":null,"notes":null"#, with: #""intensity":null,"notes":"rained off""#)
    #expect(try gym.run(["history", "list", "-f", "ndjson"]).stdout == expected)
    // A new id with --partial is added like any record, and must then say what a workout needs.
    let missing = try gym.run(
      ["history", "import", "-", "--partial"], stdin: #"{"id":"00000000-0000-4000-8000-000000000009","notes":"x"}"#)
    #expect(missing.status == 65)
    #expect(missing.stderr.contains("field 'completedAt' is missing"))
    let noKey = try gym.run(["history", "import", "-", "--partial"], stdin: #"{"notes":"x"}"#)
    #expect(noKey.stderr.contains("field 'id' is missing; --partial changes the records its id names"))
    #expect(try gym.run(["history", "list", "-f", "ndjson"]).stdout == expected)
  }

  /// A list of some fields imports back without touching the others: a record that names its id
  /// and leaves a field out keeps that field's value (a null clears it, as always). A new id is added
  /// with what it leaves out unknown.
  @Test func aListOfSomeFieldsImportsBackKeepingTheRest() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: Self.workouts).status == 0)
    let before = try gym.run(["history", "list", "-f", "ndjson"]).stdout
    for format in ["ndjson", "csv", "json"] {
      let some = try gym.run(["history", "list", "--fields", "id,completedAt,planTitle", "-f", format])
      let imported = try gym.run(["history", "import", "-", "--input-format", format], stdin: some.stdout)
      #expect(imported.stderr == "imported 3 records: 0 inserted, 0 updated, 3 unchanged\n", "\(format)")
      #expect(try gym.run(["history", "list", "-f", "ndjson"]).stdout == before, "\(format)")
    }
    let edit = """
      {"id":"00000000-0000-4000-8000-000000000001","completedAt":"2026-03-01T07:30:00Z","planTitle":"Legs"}
      {"id":"00000000-0000-4000-8000-000000000003","completedAt":"2026-03-03T12:00:00Z","planTitle":"ヨガ 🧘","notes":null}
      {"id":"00000000-0000-4000-8000-000000000004","completedAt":"2026-03-04T12:00:00Z","planTitle":"Swim"}

      """
    let result = try gym.run(["history", "import", "-"], stdin: edit)
    #expect(result.stderr == "imported 3 records: 1 inserted, 1 updated, 1 unchanged\n")
    // A CSV of the key and one field (no required column) edits that field alone; so does the pantry's.
    let notes = "id,notes\n00000000-0000-4000-8000-000000000002,rained off\n"
    let edited = try gym.run(["history", "import", "-", "--input-format", "csv"], stdin: notes)
    #expect(edited.stderr == "imported 1 records: 0 inserted, 1 updated, 0 unchanged\n", "\(edited.stderr)")
    #expect(
      try gym.run(["staples", "add", "Milk", "--category", "Dairy", "--staple", "--unit", "l", "-q"]).status == 0)
    let pantry = try gym.run(["staples", "list", "--all", "--fields", "name,notes", "-f", "csv"]).stdout
      .replacingOccurrences(of: "Milk,", with: "Milk,keep cold")
    #expect(try gym.run(["staples", "import", "-", "--input-format", "csv", "-q"], stdin: pantry).status == 0)
    let milk = try gym.run([
      "staples", "list", "--all", "-f", "ndjson", "--fields", "name,category,isStaple,unit,notes",
    ])
    #expect(milk.stdout == #"{"name":"Milk","category":"Dairy","isStaple":true,"unit":"l","notes":"keep cold"}"# + "\n")
    // A rule broken by such a record is told with its line, as for a whole record.
    let blank = try gym.run(
      ["staples", "import", "-", "--input-format", "ndjson"], stdin: #"{"name":"Milk","category":"  "}"#)
    #expect(blank.status == 65)
    #expect(blank.stderr.contains("<stdin>:1: the record breaks the table's rule CHECK"), "\(blank.stderr)")
    let lines = try gym.run(["history", "list", "-f", "ndjson"]).stdout.split(separator: "\n")
    let first = try #require(lines.first { $0.contains("-000000000001") })
    #expect(first.contains(#""planTitle":"Legs""#) && first.contains(#""intensity":"high""#))
    #expect(first.contains(#""durationMinutes":61.5"#))
    let new = try #require(lines.first { $0.contains("-000000000004") })
    #expect(new.contains(#""status":"completed""#) && new.contains(#""intensity":null"#))
  }

  @Test func dryRunCountsAndKeepsNothing() throws {
    let gym = try GymProcess()
    let fresh = try gym.run(["history", "import", "-", "--dry-run"], stdin: Self.workouts)
    #expect(
      fresh.stderr == "validated 3 records; no database yet, so each would be inserted; nothing written (--dry-run)\n")
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: Self.workouts).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: gym.databasePath))
    let input =
      Self.workouts.replacingOccurrences(of: #""planTitle":"Run""#, with: #""planTitle":"Long run""#)
      + #"{"id":"00000000-0000-4000-8000-000000000004","completedAt":"2026-03-04T12:00:00Z","planTitle":"Swim"}"# + "\n"
    let dry = try gym.run(["history", "import", "-", "--dry-run"], stdin: input)
    #expect(dry.stderr == "would import 4 records: 1 inserted, 1 updated, 2 unchanged; nothing written (--dry-run)\n")
    #expect(try gym.run(["history", "count"]).stdout == "3\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: gym.databasePath)) == before)
    let staples = try gym.run(
      ["staples", "import", "-", "--dry-run", "--input-format", "csv"], stdin: "name,category\nTofu,Protein\n")
    #expect(staples.stderr == "would import 1 items: 1 inserted, 0 updated, 0 unchanged; nothing written (--dry-run)\n")
    #expect(try gym.run(["staples", "count"]).stdout == "0\n")
  }

  @Test func csvMayLeaveOutWhatAddDefaults() throws {
    let gym = try GymProcess()
    let result = try gym.run(
      ["history", "import", "-", "--input-format", "csv"], stdin: "planTitle,completedAt\nRun,2026-01-01T10:00:00Z\n")
    #expect(result.status == 0, "\(result.stderr)")
    let record = try gym.run(["history", "list", "-f", "csv", "--fields", "id,status,planTitle,intensity"]).stdoutLines
    let cells = record[1].split(separator: ",", omittingEmptySubsequences: false)
    #expect(cells[0].count == 36 && cells[0].filter { $0 == "-" }.count == 4)
    #expect(cells[1...] == ["completed", "Run", ""])  // intensity unknown, not invented
    let needed = try gym.run(["history", "import", "-", "--input-format", "csv"], stdin: "planTitle\nRun\n")
    #expect(needed.status == 65)
    #expect(needed.stderr.contains("completedAt"))
  }

  @Test(arguments: ["json", "ndjson", "csv"])
  func staplesListsImportBack(format: String) throws {
    let source = try GymProcess()
    #expect(try source.run(["staples", "seed", "-q"]).status == 0)
    let target = try GymProcess()
    for (list, flags) in [
      (["staples", "list", "-f", format], [String]()), (["staples", "recipes", "-f", format], ["--recipes"]),
    ] {
      let printed = try source.run(list)
      let imported = try target.run(
        ["staples", "import", "-", "--input-format", format, "-q"] + flags, stdin: printed.stdout)
      #expect(imported.status == 0, "\(imported.stderr)")
      #expect(try target.run(list).stdout == printed.stdout)
    }
    let one = try source.run(["staples", "show", "Milk", "-f", format]).stdout
    #expect(
      try target.run(["staples", "import", "-", "--input-format", format], stdin: one).stderr
        == "imported 1 items: 0 inserted, 0 updated, 1 unchanged\n")
    // The same item with another stock: its row is unchanged, its stock (its lots) is not, and the
    // note says so.
    if format == "ndjson" {
      #expect(one.contains(#""quantity":"#), "\(one)")
      let restocked = one.replacing(/"quantity":[0-9.]+/, with: #""quantity":99"#)
      #expect(
        try target.run(["staples", "import", "-", "--input-format", format], stdin: restocked).stderr
          == "imported 1 items: 0 inserted, 0 updated, 1 unchanged; stock changed for 1 items\n")
    }
  }

  /// A sample without a stage lists its stage as null (unknown), in every format, and imports back
  /// as the same sample; `stage == nil` finds it.
  @Test(arguments: ["json", "ndjson", "csv"])
  func samplesWithoutAStageListNullAndImportBack(format: String) throws {
    let source = try GymProcess()
    let samples = """
      {"type":"steps","start":"2026-01-01T10:00:00Z","end":"2026-01-01T10:10:00Z","value":500,"unit":"count","source":"Phone"}
      {"type":"sleep","start":"2026-01-01T01:00:00Z","end":"2026-01-01T02:00:00Z","value":60,"unit":"min","stage":"asleepREM","source":"Watch"}

      """
    #expect(try source.run(["history", "samples", "import", "-", "-q"], stdin: samples).status == 0)
    let json = try source.run(["history", "samples", "list", "-f", "ndjson", "--sort", "type:desc"]).stdoutLines
    #expect(json.first?.contains(#""stage":null"#) == true)
    #expect(json.last?.contains(#""stage":"asleepREM""#) == true)
    #expect(try source.run(["history", "samples", "count", "-w", "stage == nil"]).stdout == "1\n")
    let printed = try source.run(["history", "samples", "list", "-f", format]).stdout
    let target = try GymProcess()
    let imported = try target.run(["history", "samples", "import", "-", "--input-format", format], stdin: printed)
    #expect(imported.stderr.hasPrefix("imported 2 samples: 2 inserted, 0 skipped as duplicates\n"))
    #expect(
      try target.run(["history", "samples", "list", "-f", "ndjson"]).stdout
        == source.run(["history", "samples", "list", "-f", "ndjson"]).stdout)
    // The same sample again, its stage said as null or left out: a duplicate, not a second sample.
    let again = try target.run(
      ["history", "samples", "import", "-"],
      stdin: String(samples.split(separator: "\n")[0]).replacingOccurrences(of: "}", with: #","stage":null}"#))
    #expect(again.stderr == "imported 1 samples: 0 inserted, 1 skipped as duplicates\n")
  }

  static let everyListField =
    "id,title,authors,status,rating,coverImageURL,subtitle,series,seriesPosition,reviewStatus,originalLanguage,"
    + "firstPublished,dateAdded,dateStarted,dateFinished,readCount,ownedCopies,shelves,isbn"

  func library() throws -> GymProcess {
    let gym = try GymProcess()
    let path = try gym.write("goodreads.csv", LibraryCommandTests.goodreads)
    #expect(try gym.run(["library", "import", "goodreads", path, "-q"]).status == 0)
    let added = try gym.run([
      "library", "add", "The Dispossessed", "--author", "Ursula K. Le Guin", "--isbn", "9780060512750", "--pages",
      "387",
      "--status", "reading", "--series", "Hainish Cycle", "--rating", "4", "--review", "Anarres, \"Urras\"", "-q",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    return gym
  }

  /// Everything but when it was last changed (the import's own time).
  func withoutTimes(_ text: String) -> String {
    text.replacingOccurrences(of: #""lastModified":"[^"]*","#, with: "", options: .regularExpression)
  }

  @Test(arguments: ["json", "ndjson", "csv"])
  func libraryListImportsBack(format: String) throws {
    let source = try library()
    let printed = try source.run(["library", "list", "-f", format, "--fields", Self.everyListField]).stdout
    let target = try GymProcess()
    let imported = try target.run(["library", "import", "gym", "-", "--input-format", format], stdin: printed)
    #expect(imported.stderr.hasPrefix("imported 3 works: 3 added, 0 updated, 0 unchanged\n"), "\(imported.stderr)")
    let list = ["library", "list", "-f", "ndjson", "--fields", Self.everyListField, "--sort", "id"]
    #expect(try target.run(list).stdout == source.run(list).stdout)
    let again = try target.run(["library", "import", "gym", "-", "--input-format", format], stdin: printed)
    #expect(again.stderr == "imported 3 works: 0 added, 0 updated, 3 unchanged\n")
  }

  @Test func libraryShowImportsBackAndEditsInPlace() throws {
    let source = try library()
    let all = try source.run(["library", "show", "--all", "-f", "ndjson"]).stdout
    let target = try GymProcess()
    #expect(try target.run(["library", "import", "gym", "-", "-q"], stdin: all).status == 0)
    #expect(try withoutTimes(target.run(["library", "show", "--all", "-f", "ndjson"]).stdout) == withoutTimes(all))
    // show's one work, its rating changed: that work updated, nothing else.
    let dispossessed = RecordKeys.work("The Dispossessed", authors: ["Ursula K. Le Guin"])
    let one = try source.run(["library", "show", "\(dispossessed)", "-f", "json"]).stdout
      .replacingOccurrences(of: #""rating":4"#, with: #""rating":5"#)
    #expect(
      try target.run(["library", "import", "gym", "-"], stdin: one).stderr
        == "imported 1 works: 0 added, 1 updated, 0 unchanged\n")
    // A list record that gives one field changes that field only.
    let partial = try target.run(
      ["library", "import", "gym", "-"], stdin: #"{"id":\#(RecordKeys.work(goodreadsId: 1381)),"status":"reading"}"#)
    #expect(partial.stderr == "imported 1 works: 0 added, 1 updated, 0 unchanged\n")
    let expected = withoutTimes(all)
      .replacingOccurrences(
        of: #""readingStatus":"reading","rating":4"#, with: #""readingStatus":"reading","rating":5"#
      )
      .replacingOccurrences(of: #""readingStatus":"toRead""#, with: #""readingStatus":"reading""#)
    #expect(try withoutTimes(target.run(["library", "show", "--all", "-f", "ndjson"]).stdout) == expected)
    // A record for a work that is not there must say at least its title.
    let untitled = try target.run(["library", "import", "gym", "-"], stdin: #"{"id":99,"rating":3}"#)
    #expect(untitled.status == 65)
    #expect(untitled.stderr.contains("no work has id 99, and a new work needs its title"))
  }

  /// A recipe as `recipe show --format json` prints it, ingredients included, imports back as it was.
  @Test func recipesWithTheirIngredientsImportBack() throws {
    let source = try GymProcess()
    #expect(try source.run(["staples", "seed", "-q"]).status == 0)
    let names = try source.run(["staples", "recipes", "--ids"]).stdoutLines.map(String.init)
    #expect(names.count >= 5)
    var shown = ""
    for name in names { shown += try source.run(["staples", "recipe", "show", name, "-f", "json"]).stdout }
    #expect(shown.contains(#""ingredients":[{"item":"#))
    let target = try GymProcess()
    let items = try source.run(["staples", "list", "--all", "-f", "ndjson"]).stdout
    #expect(try target.run(["staples", "import", "-", "-q"], stdin: items).status == 0)
    let imported = try target.run(["staples", "import", "-", "--recipes"], stdin: shown)
    #expect(
      imported.stderr
        == "imported \(names.count) recipes: \(names.count) inserted, 0 updated, 0 unchanged; ingredients changed in \(names.count) recipes\n"
    )
    var after = ""
    for name in names { after += try target.run(["staples", "recipe", "show", name, "-f", "json"]).stdout }
    #expect(after == shown)
    #expect(
      try target.run(["staples", "import", "-", "--recipes"], stdin: shown).stderr
        == "imported \(names.count) recipes: 0 inserted, 0 updated, \(names.count) unchanged\n")
    // One line fewer: the recipe has exactly the lines given.
    let first = String(shown.split(separator: "\n")[0])
    var trimmed = first
    trimmed.removeSubrange(trimmed.range(of: #",\{"item":[^}]*\}\]"#, options: .regularExpression)!)
    trimmed = trimmed.replacingOccurrences(of: #"}}"#, with: "}]}")
    let changed = try target.run(["staples", "import", "-", "--recipes"], stdin: trimmed + "\n")
    #expect(changed.stderr.hasSuffix("ingredients changed in 1 recipes\n"), "\(changed.stderr) \(trimmed)")
    let lines = try target.run(["staples", "recipe", "show", names[0], "-f", "json"]).stdout
    #expect(lines.components(separatedBy: #"{"item""#).count == first.components(separatedBy: #"{"item""#).count - 1)
  }
}
