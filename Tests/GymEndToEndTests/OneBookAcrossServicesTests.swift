import Foundation
import Testing

/// One person's Goodreads and StoryGraph exports, imported in either order, make one work of each
/// book: matched by ISBN-13, else ISBN-10, else title (a `(Series, #n)` suffix aside) and authors.
/// The files, worked out by hand:
/// - Gideon the Ninth: in both, the same ISBN-13 (Goodreads' title carries the series).
/// - Dune: in both, no ISBN; the same title and author.
/// - The Odyssey: in both, the same ISBN-10 only.
/// - Emma: Goodreads only. Piranesi: StoryGraph only.
/// So 3 shared + 1 + 1 = 5 works, not 8.
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
  static let storygraph =
    "Title,Authors,ISBN/UID,Format,Read Status,Date Added,Last Date Read,Dates Read,Read Count,Star Rating\n"
    + "Gideon the Ninth,Tamsyn Muir,9781250313195,hardcover,read,2020/12/01,2021/01/10,2021/01/10,1,4.5\n"
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
    #expect(try gym.run(["library", "count"]).stdout == "5\n")
    // Each shared book keeps its Goodreads id, whichever came first.
    let works = try gym.run(["library", "show", "--all", "-f", "ndjson"]).stdoutLines.map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["goodreadsId"] as? Int ?? 0
    }
    #expect(works.sorted() == [0, 1381, 6969, 234225, 42_036_538])  // Piranesi has none
    // The same dated read from both: one reading each, not two.
    let readings = try gym.run(
      ["library", "readings", "-f", "csv", "--sort", "finished", "--fields", "status,finished"]
    ).stdoutLines.dropFirst().map(String.init)
    #expect(readings == ["read,2018-02-01", "read,2019-05-01", "read,2021-01-10"])
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
    #expect(again.stderr.contains("works 0 added, 0 updated, 4 unchanged"), "\(again.stderr)")
  }
}
