import Foundation
import Testing

/// One person's Goodreads and StoryGraph exports, imported in either order, make one work of each
/// book: matched by ISBN-13, else ISBN-10, else title (a `(Series, #n)` suffix aside) and authors.
/// The files, worked out by hand:
/// - Gideon the Ninth: in both, the same ISBN-13 (Goodreads' title carries the series).
/// - Dune: in both, no ISBN; the same title and author.
/// - The Odyssey: in both, the same ISBN-10 only.
/// - The Name of the Rose: Goodreads gives its ISBN-10 0156001314, StoryGraph the same edition's
///   ISBN-13: 978 + 015600131 and the check digit, (10 − (9+7·3+8+0·3+1+5·3+6+0·3+0+1·3+3+1·3) mod 10)
///   mod 10 = (10 − 69 mod 10) mod 10 = 1, so 9780156001311; titles differ, so only the ISBN joins them.
/// - Emma: Goodreads only. Piranesi: StoryGraph only.
/// So 4 shared + 1 + 1 = 6 works, not 10. Gideon's reading: Goodreads knows only its finish,
/// StoryGraph its start too (2021/01/02); one reading, with that start, either way round.
@Suite struct OneBookAcrossServicesTests {
  static let goodreads =
    "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
    + "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
    + "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies\n"
    + #"42036538,"Gideon the Ninth (The Locked Tomb, #1)",Tamsyn Muir,"Muir, Tamsyn",,="1250313198",="9781250313195",5,4.2,,Hardcover,,,,2021/01/10,2020/12/01,,,read,,,,1,0"#
    + "\n"
    + #"234225,Dune,Frank Herbert,"Herbert, Frank",,="",="",4,4.3,,,,,,2019/05/01,2019/04/01,,,read,,,,1,0"#
    + "\n"
    + #"1381,The Odyssey,Homer,Homer,,="0140268863",="",3,3.8,,,,,,2018/02/01,2018/01/01,,,read,,,,1,0"#
    + "\n"
    + #"6969,Emma,Jane Austen,"Austen, Jane",,="",="",0,4.0,,,,,,,2024/01/01,,,to-read,,,,0,0"#
    + "\n"
    + #"119073,The Name of the Rose,Umberto Eco,"Eco, Umberto",,="0156001314",="",4,4.1,,,,,,2017/03/01,2017/01/01,,,read,,,,1,0"#
    + "\n"
  static let storygraph =
    "Title,Authors,ISBN/UID,Format,Read Status,Date Added,Last Date Read,Dates Read,Read Count,Star Rating\n"
    + "Gideon the Ninth,Tamsyn Muir,9781250313195,hardcover,read,2020/12/01,2021/01/10,2021/01/02-2021/01/10,1,4.5\n"
    + "Il nome della rosa,Umberto Eco,9780156001311,paperback,read,2017/01/01,2017/03/01,2017/03/01,1,4\n"
    + "Dune,Frank Herbert,,paperback,read,2019/04/01,2019/05/01,2019/05/01,1,4\n"
    + "The Odyssey,Homer,0140268863,paperback,read,2018/01/01,2018/02/01,2018/02/01,1,3\n"
    + "Piranesi,Susanna Clarke,9781635575637,hardcover,to-read,2024/02/01,,,0,\n"

  func importBoth(goodreadsFirst: Bool) throws -> GymProcess {
    let gym = try GymProcess()
    let g = try gym.write("goodreads.csv", Self.goodreads)
    let s = try gym.write("storygraph.csv", Self.storygraph)
    for (source, path) in goodreadsFirst
      ? [("goodreads", g), ("storygraph", s)] : [("storygraph", s), ("goodreads", g)]
    {
      let result = try gym.run(["library", "import", source, path])
      #expect(result.status == 0, "\(result.stderr)")
    }
    return gym
  }

  @Test(arguments: [true, false])
  func oneWorkPerBook(goodreadsFirst: Bool) throws {
    let gym = try importBoth(goodreadsFirst: goodreadsFirst)
    #expect(try gym.run(["library", "count"]).stdout == "6\n")
    // Each shared book keeps its Goodreads id, whichever came first.
    let works = try gym.run(["library", "show", "--all", "-f", "ndjson"]).stdoutLines.map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["goodreadsId"] as? Int ?? 0
    }
    #expect(works.sorted() == [0, 1381, 6969, 119_073, 234225, 42_036_538])  // Piranesi has none
    // The same dated read from both: one reading each, not two; Gideon's start from StoryGraph.
    let readings = try gym.run(
      ["library", "readings", "-f", "csv", "--sort", "finished", "--fields", "status,started,finished"]
    ).stdoutLines.dropFirst().map(String.init)
    #expect(
      readings == [
        "read,,2017-03-01", "read,,2018-02-01", "read,,2019-05-01", "read,2021-01-02,2021-01-10",
      ], "\(readings)")
  }

  /// A StoryGraph edition is labelled as StoryGraph's, beside the Goodreads one.
  @Test func editionsSayWhereTheyCameFrom() throws {
    let gym = try importBoth(goodreadsFirst: true)
    let shown = try gym.run(["library", "show", "9781250313195", "-f", "json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    let editions = try #require(document["editions"] as? [[String: Any]])
    #expect(
      Set(editions.compactMap { $0["source"] as? String }) == ["goodreads", "storygraph"], "\(shown.stdout)")
    // Importing StoryGraph again changes nothing.
    let again = try gym.run(["library", "import", "storygraph", gym.directory + "/storygraph.csv"])
    #expect(again.stderr.contains("works 0 added, 0 updated, 5 unchanged"), "\(again.stderr)")
  }
}

/// Did-not-finish is a status of its own across imports: Goodreads shelves people make for it (any
/// case) and StoryGraph's `did-not-finish`; the year's stats count the books put down that year apart
/// from the books read.
@Suite struct DidNotFinishTests {
  @Test func didNotFinishShelvesAndTheYearsCount() throws {
    let gym = try GymProcess()
    var goodreads = OneBookAcrossServicesTests.goodreads.split(separator: "\n").prefix(1).joined() + "\n"
    for (id, title, shelf) in [
      (1, "Ulysses", "DNF"), (2, "Moby-Dick", "did-not-finish"), (3, "Middlemarch", "dropped"),
    ] {
      goodreads +=
        "\(id),\(title),A. Author,\"Author, A.\",,=\"\",=\"\",0,3.0,,,,,,,2021/01/01,\(shelf),,\(shelf),,,,0,0\n"
    }
    // On a dnf shelf, Date Read is the day the book was put down, not a finished read.
    // Its Read Count of 1 is that session (as currently-reading's counts the one in progress): no read.
    goodreads += "4,Walden,A. Author,\"Author, A.\",,=\"\",=\"\",0,3.0,,,,,,2021/04/04,2021/01/01,dnf,,dnf,,,,1,0\n"
    let storygraph =
      "Title,Authors,Read Status,Date Added,Last Date Read,Dates Read,Read Count\n"
      + "The Secret History,Donna Tartt,did-not-finish,2021/01/21,2021/07/11,2021/07/11,1\n"
      + "Emma,Jane Austen,read,2021/01/01,2021/03/01,2021/03/01,1\n"
    #expect(try gym.run(["library", "import", try gym.write("goodreads.csv", goodreads)]).status == 0)
    #expect(try gym.run(["library", "import", try gym.write("storygraph.csv", storygraph)]).status == 0)
    let works = try gym.run(["library", "list", "-f", "csv", "--sort", "title", "--fields", "title,status,shelves"])
    #expect(
      works.stdoutLines.dropFirst().map(String.init) == [
        "Emma,read,", "Middlemarch,abandoned,", "Moby-Dick,abandoned,", "The Secret History,abandoned,",
        "Ulysses,abandoned,", "Walden,abandoned,",
      ], "\(works.stdout)")
    let stats = try gym.run(["library", "stats", "--year", "2021", "-f", "json"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
    // Emma read in March; The Secret History put down on 2021-07-11 and Walden on 2021-04-04; the
    // Goodreads three undated.
    #expect(json["books"] as? Int == 1)
    #expect(json["didNotFinish"] as? Int == 2)
    let readings = try gym.run(["library", "readings", "-f", "csv", "--fields", "title,status,finished"])
    #expect(readings.stdoutLines.contains("Walden,abandoned,2021-04-04"), "\(readings.stdout)")
    #expect(readings.stdoutLines.filter { $0.hasPrefix("Walden,") }.count == 1, "\(readings.stdout)")
    // Importing again changes nothing.
    let again = try gym.run(["library", "import", try gym.write("goodreads.csv", goodreads)])
    #expect(again.stderr.contains("4 unchanged"), "\(again.stderr)")
    // Through `library export goodreads` and back: Walden put down on 2021-04-04, no read.
    let exported = try gym.run(["library", "export", "goodreads"])
    #expect(exported.status == 0, "\(exported.stderr)")
    let back = gym.directory + "/back.sqlite"
    let reimport = try gym.run(["library", "import", try gym.write("back.csv", exported.stdout), "--database", back])
    #expect(reimport.status == 0, "\(reimport.stderr)")
    let returned = try gym.run([
      "library", "readings", "-f", "csv", "--fields", "title,status,finished", "--database", back,
    ])
    #expect(
      returned.stdoutLines.filter { $0.hasPrefix("Walden,") } == ["Walden,abandoned,2021-04-04"], "\(returned.stdout)")
  }

  /// A book read, then read again and put down: Goodreads' layout has one Date Read, on the
  /// abandoned shelf the day it was put down, and a Read Count of 2 (the read and that session); the
  /// round trip keeps the read (undated) and the put-down day.
  @Test func aBookReadThenPutDownKeepsBothThroughGoodreads() throws {
    let gym = try GymProcess()
    let id = try gym.run(["library", "add", "Walden", "--author", "Henry David Thoreau"]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(try gym.run(["library", "start", id, "--date", "2020-01-01", "-q"]).status == 0)
    #expect(try gym.run(["library", "finish", id, "--date", "2020-02-01", "-q"]).status == 0)
    #expect(try gym.run(["library", "start", id, "--date", "2021-03-01", "-q"]).status == 0)
    #expect(try gym.run(["library", "abandon", id, "--date", "2021-04-04", "-q"]).status == 0)
    let exported = try gym.run(["library", "export", "goodreads"])
    let row = try #require(exported.stdoutLines.first { $0.contains("Walden") })
    #expect(row.contains(",2021/04/04,") && row.contains(",abandoned,") && row.hasSuffix(",2,0"), "\(row)")
    let back = gym.directory + "/back.sqlite"
    #expect(
      try gym.run(["library", "import", try gym.write("back.csv", exported.stdout), "--database", back]).status == 0)
    let returned = try gym.run([
      "library", "readings", "-f", "csv", "--fields", "status,finished", "--sort", "status", "--database", back,
    ])
    #expect(returned.stdoutLines.dropFirst().sorted() == ["abandoned,2021-04-04", "read,"], "\(returned.stdout)")
  }
}
