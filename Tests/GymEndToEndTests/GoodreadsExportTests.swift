import Foundation
import Testing

/// `library export goodreads`: Goodreads' 24 columns, and a library that fits them comes back whole
/// when the file is imported into an empty database.
@Suite struct GoodreadsExportTests {
  /// Everything the comparison covers, each printed sorted: works with their authors, shelf, rating,
  /// tags, dates, edition; every reading; every author with their sort name.
  func library(_ gym: GymProcess, database: String) throws -> [String] {
    let environment = ["GYM_DATABASE": database]
    let works = try gym.run(
      [
        "library", "list", "-f", "csv", "--sort", "title", "--fields",
        "title,authors,status,rating,dateAdded,dateStarted,dateFinished,readCount,ownedCopies,shelves,isbn,firstPublished",
      ], environment: environment)
    let readings = try gym.run(
      [
        "library", "readings", "-f", "csv", "--sort", "title,finished,status", "--fields",
        "title,status,started,finished",
      ],
      environment: environment)
    let authors = try gym.run(
      ["library", "authors", "-f", "csv", "--fields", "name,sortName,works"], environment: environment)
    let reviews = try gym.run(
      ["library", "show", "--all", "-f", "ndjson"], environment: environment)
    for result in [works, readings, authors, reviews] { #expect(result.status == 0, "\(result.stderr)") }
    // From show: each work's review and edition details, ids and lastModified left out.
    let details = try reviews.stdoutLines.map { line -> String in
      let work = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let entry = (work["entries"] as? [[String: Any]])?.first ?? [:]
      let edition = (work["editions"] as? [[String: Any]])?.first ?? [:]
      return [
        work["title"], work["goodreadsId"], entry["review"], edition["isbn10"], edition["isbn13"], edition["publisher"],
        edition["binding"], edition["pageCount"], edition["year"],
      ].map { "\($0 ?? "nil")" }.joined(separator: "|")
    }.sorted()
    return works.stdoutLines.map(String.init) + readings.stdoutLines.map(String.init)
      + authors.stdoutLines.map(String.init) + details
  }

  @Test func aLibraryComesBackWhole() throws {
    ClockEdge.avoidMidnight()
    let gym = try GymProcess()
    let goodreads =
      LibraryCommandTests.goodreads + #"""
        58295640,Harrow the Ninth (The Locked Tomb #2),Tamsyn Muir,"Muir, Tamsyn",,"=""1250313228""","=""9781250313225""",0,4.0,Tor.com,Hardcover,510,2020,2020,,2020/08/04,currently-reading,currently-reading (#2),currently-reading,,,,0,0

        """#
    let path = try gym.write("goodreads.csv", goodreads)
    #expect(try gym.run(["library", "import", "goodreads", path, "-q"]).status == 0)
    // Work 5, which Goodreads never knew: two authors, an ISBN, read on 1 February, rated 4.
    let addition = try gym.run([
      "library", "add", "A Local Book", "--author", "Ann Xavier", "--author", "Bo Young", "--isbn", "9780441013593",
      "--pages", "321", "--year", "2024", "--rating", "4",
    ])
    #expect(addition.status == 0, "\(addition.stderr)")
    let local = String(addition.stdoutLines[0])
    #expect(try gym.run(["library", "finish", local, "--date", "2026-02-01", "-q"]).status == 0)
    // Gideon read again in gym (a dated re-read; the import's reading has its Date Read).
    let gideon = RecordKeys.work(goodreadsId: 42_944_564)
    let odyssey = RecordKeys.work(goodreadsId: 1381)
    #expect(try gym.run(["library", "finish", "\(gideon)", "--date", "2026-03-01", "-q"]).status == 0)
    #expect(try gym.run(["library", "set", "\(odyssey)", "--status", "abandoned", "-q"]).status == 0)
    let export = try gym.run(["library", "export", "goodreads"])
    #expect(export.status == 0, "\(export.stderr)")
    let lines = export.stdoutLines
    #expect(lines.first == Substring(GoodreadsExportTests.header))
    #expect(lines.first?.split(separator: ",").count == 24)
    // The local book: no Book Id; ISBNs as formulas (it has only the ISBN-13 it was added with); its
    // finish date with slashes.
    let localRow = try #require(lines.first { $0.contains("A Local Book") })
    let added = try today()
    #expect(
      localRow
        == #",A Local Book,Ann Xavier,"Xavier, Ann",Bo Young,"=""""","=""9780441013593""",4,,,,321,2024,,2026/02/01,"#
        + added + #",,,read,,,,1,0"#)
    let before = try library(gym, database: gym.databasePath)
    let copy = gym.directory + "/copy.sqlite"
    let exported = try gym.write("export.csv", export.stdout)
    let reimport = try gym.run(["library", "import", "goodreads", exported, "-q"], environment: ["GYM_DATABASE": copy])
    #expect(reimport.status == 0, "\(reimport.stderr)")
    // Gideon's two reads: the export says the last date and a count of 2, so one stays undated: the
    // one thing the layout cannot say. Everything else is exact.
    var expected = before
    expected = expected.map {
      $0 == "Gideon the Ninth (The Locked Tomb #1),read,,2020-01-15"
        ? "Gideon the Ninth (The Locked Tomb #1),read,," : $0
    }.sorted()
    let after = try library(gym, database: copy)
    #expect(after.sorted() == expected)
    // And by hand, the readings the file carries: Gideon read twice (the last on 1 March), the Odyssey
    // abandoned, Harrow being read, the local book read on 1 February.
    for line in [
      "A Local Book,read,,2026-02-01", "Gideon the Ninth (The Locked Tomb #1),read,,",
      "Gideon the Ninth (The Locked Tomb #1),read,,2026-03-01", "Harrow the Ninth (The Locked Tomb #2),reading,,",
      "The Odyssey,abandoned,,",
    ] {
      #expect(after.contains(line), "\(line)")
    }
    #expect(after.contains { $0.hasPrefix("A Local Book,\"Ann Xavier, Bo Young\",read,4,") })
    #expect(before.contains("Gideon the Ninth (The Locked Tomb #1),read,,2020-01-15"))
    // Imported again: nothing changes.
    let again = try gym.run(["library", "import", "goodreads", exported], environment: ["GYM_DATABASE": copy])
    #expect(again.stderr.contains("works 0 added, 0 updated, 4 unchanged"), "\(again.stderr)")
    #expect(try library(gym, database: copy) == after)
  }

  static let header =
    "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
    + "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
    + "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies"

  /// Today in UTC (the tests run gym with TZ=UTC), with slashes: `add` dates the entry.
  func today() throws -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day], from: Date())
    return String(format: "%04d/%02d/%02d", parts.year!, parts.month!, parts.day!)
  }
}
