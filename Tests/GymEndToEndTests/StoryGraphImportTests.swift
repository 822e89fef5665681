import Foundation
import Testing

/// A StoryGraph export generated with its quirks, in its layouts, imported through the binary; what
/// each row becomes is worked out here from the import's rules (Docs/Library/README.md).
@Suite struct StoryGraphImportTests {
  static let header =
    "Title,Authors,Contributors,ISBN/UID,Format,Read Status,Date Added,Last Date Read,Dates Read,Read Count,Moods,Pace,"
    + "Character- or Plot-Driven?,Strong Character Development?,Loveable Characters?,Diverse Characters?,"
    + "Flawed Characters?,Star Rating,Review,Content Warnings,Content Warning Description,Tags,Owned?"

  /// 1. Two readings (the newest first), rated 3.75, two authors, a translator, tags, owned.
  /// 2. Did not finish, put down on 2021/07/11, counted once in Read Count.
  /// 3. Being read since 2025/04/19; an ASIN; no rating.
  /// 4. Read twice but only one date; an ISBN-10 that lost its leading zero (140143505 → 0140143505).
  /// 5. No status, only a tag; empty fields quoted.
  /// 6. To read, with a title ending in a space.
  static let rows = [
    #"Edgedancer,"Brandon Sanderson, Isaac Stewart","Ana Translator (Translator)",9781250166548,hardcover,read,2025/02/12,2025/04/21,"2025/04/19-2025/04/21, 2023/01/02-2023/01/20",2,"adventurous, hopeful",medium,Plot,Yes,Yes,Yes,No,3.75,"Loved it.<br/>""Again"", truly.",,,"fantasy, favourites",Yes"#,
    #"The Secret History,Donna Tartt,,9781400031702,paperback,did-not-finish,2020/01/21,2021/07/11,2021/07/11,1,,,,,,,,,,,,almost-finished,No"#,
    #"Carrie,Stephen King,Franziska Pigulla (Narrator),B0084FWN26,audio,currently-reading,2025/04/01,"","2025/04/19-",0,"","","","","","","","","","","","",No"#,
    #"The Odyssey,Homer,,140143505,paperback,read,2021/05/03,2021/02/04,2021/02/04,2,,,,,,,,4.25,,,,,No"#,
    #"Abandoned Thing,Some Author,,,,"","","","","","","","","","","","","","","","",abandonados,No"#,
    #"Palabras radiantes ,Brandon Sanderson,,,digital,to-read,2024/06/01,,,0,,,,,,,,,,,,,No"#,
  ]

  func readings(_ gym: GymProcess) throws -> [String] {
    try gym.run(
      ["library", "readings", "-f", "csv", "--sort", "title,id", "--fields", "title,status,started,finished"]
    ).stdoutLines.dropFirst().map(String.init)
  }

  @Test func everyQuirkImports() throws {
    let gym = try GymProcess()
    // A BOM and CRLF line ends, as a spreadsheet saves it.
    let text = "\u{FEFF}" + ([Self.header] + Self.rows).joined(separator: "\r\n") + "\r\n"
    let path = try gym.write("storygraph.csv", text)
    let result = try gym.run(["library", "import", "storygraph", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("imported 6 books: works 6 added"), "\(result.stderr)")
    #expect(result.stderr.contains("(none) 1"))
    let works = try gym.run([
      "library", "list", "-f", "csv", "--sort", "title", "--fields",
      "title,authors,status,rating,dateAdded,readCount,ownedCopies,shelves,isbn",
    ])
    #expect(
      works.stdoutLines.dropFirst().map(String.init) == [
        "Abandoned Thing,Some Author,toRead,,,0,0,abandonados,",
        "Carrie,Stephen King,reading,,2025-04-01,0,0,,",
        // Two dated reads; Read Count 2 adds none.
        #"Edgedancer,"Brandon Sanderson, Isaac Stewart",read,3.75,2025-02-12,2,1,"fantasy, favourites",9781250166548"#,
        "Palabras radiantes,Brandon Sanderson,toRead,,2024-06-01,0,0,,",
        // Read twice, one date: one undated read more. The ISBN with its zero back.
        "The Odyssey,Homer,read,4.25,2021-05-03,2,0,,0140143505",
        // Did not finish: its Read Count 1 is the abandoned reading, so no read.
        "The Secret History,Donna Tartt,abandoned,,2020-01-21,0,0,almost-finished,9781400031702",
      ])
    #expect(
      try readings(gym) == [
        "Carrie,reading,2025-04-19,", "Edgedancer,read,2023-01-02,2023-01-20", "Edgedancer,read,2025-04-19,2025-04-21",
        // A reading's id begins with its day (Docs/Sync.md, "Keys"): the undated read's is 0, first.
        "The Odyssey,read,,", "The Odyssey,read,,2021-02-04", "The Secret History,abandoned,,2021-07-11",
      ])
    // The review exactly, HTML and quotes included; the format as the binding.
    let show = try gym.run(["library", "show", "--all", "-f", "ndjson"])
    #expect(show.stdout.contains(#""review":"Loved it.<br/>\"Again\", truly.""#))
    #expect(show.stdout.contains(#""binding":"hardcover""#))
    // Imported again: nothing changes, nothing doubles.
    let again = try gym.run(["library", "import", "storygraph", path])
    #expect(again.stderr.contains("works 0 added, 0 updated, 6 unchanged"), "\(again.stderr)")
    #expect(try readings(gym).count == 6)
    // Carrie finished in gym since: the file's reading in progress is that one, not a new one.
    let carrie = try #require(
      try gym.run(["library", "list", "-w", "title == \"Carrie\"", "--ids"]).stdoutLines.first.map(String.init))
    #expect(try gym.run(["library", "finish", carrie, "--date", "2025-05-02", "-q"]).status == 0)
    #expect(try gym.run(["library", "import", "storygraph", path, "-q"]).status == 0)
    #expect(try readings(gym).filter { $0.hasPrefix("Carrie") } == ["Carrie,read,2025-04-19,2025-05-02"])
  }

  /// The first layouts: `Author` (2021) and `ISBN` (until 2022).
  @Test func olderLayouts() throws {
    let gym = try GymProcess()
    let older = Self.header.replacingOccurrences(of: "Authors,", with: "Author,")
      .replacingOccurrences(of: "ISBN/UID", with: "ISBN")
    let path = try gym.write("old.csv", ([older] + Self.rows.prefix(2)).joined(separator: "\n") + "\n")
    #expect(try gym.run(["library", "import", "storygraph", path, "-q"]).status == 0)
    let list = try gym.run(["library", "list", "-f", "csv", "--sort", "title", "--fields", "title,authors,isbn"])
    #expect(list.stdoutLines.contains(#"Edgedancer,"Brandon Sanderson, Isaac Stewart",9781250166548"#))
  }

  @Test(arguments: [
    ("Star Rating", "3.8", "'3.8' is not a rating from 0.25 to 5 in quarter stars"),
    // 0x1p2 is 4 to Swift's Double(), not a rating as an export writes one.
    ("Star Rating", "0x1p2", "'0x1p2' is not a rating from 0.25 to 5 in quarter stars"),
    ("Read Status", "lost", "'lost' is not one of"),
    ("Dates Read", "2021/07/20-2021/07/40", "is not dates as YYYY/MM/DD"),
    ("Owned?", "Maybe", "'maybe' is not Yes or No"),
  ])
  func aBadRowIsSkippedOrWithStrictImportsNothing(column: String, value: String, message: String) throws {
    let gym = try GymProcess()
    let names = Self.header.split(separator: ",").map(String.init)
    let index = try #require(names.firstIndex(of: column))
    var cells = Array(repeating: "", count: names.count)
    cells[0] = "A Title"
    cells[1] = "An Author"
    cells[5] = "read"
    cells[index] = value
    let path = try gym.write("bad.csv", Self.header + "\n" + Self.rows[5] + "\n" + cells.joined(separator: ",") + "\n")
    let result = try gym.run(["library", "import", "storygraph", path, "--strict"])
    #expect(result.status == 65)
    #expect(
      result.stderr.contains("bad.csv:3: column '\(column)'") && result.stderr.contains(message), "\(result.stderr)")
    // The good row before it is not imported either: no database is made at all.
    #expect(try gym.run(["library", "count"]).status == 66)
    let kept = try gym.run(["library", "import", "storygraph", path])
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(
      kept.stderr.contains("bad.csv:3: skipped: column '\(column)'") && kept.stderr.contains(message), "\(kept.stderr)")
    #expect(kept.stderr.contains("works 1 added") && kept.stderr.contains("1 record skipped (line 3)"))
    #expect(try gym.run(["library", "count"]).stdout == "1\n")
  }
}
