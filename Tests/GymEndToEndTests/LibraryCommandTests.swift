import Foundation
import Testing

/// `gym library` end to end: what a user types and what they see.
@Suite struct LibraryCommandTests {
  static let goodreads = #"""
    Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies
    42944564,Gideon the Ninth (The Locked Tomb #1),Tamsyn Muir,"Muir, Tamsyn",,"=""1250313198""","=""9781250313195""",5,4.17,Tor.com,Hardcover,448,2019,2019,2020/01/15,2019/12/01,,,read,"Bones.<br/>""Great"", truly
    great.",,,1,1
    1381,The Odyssey,Homer,"Homer, ","Robert Fagles, Bernard Knox","=""0140268863""","=""""",0,3.78,Penguin,Paperback,541,1999,-700,,2021/03/04,owned-unread,owned-unread (#1),owned-unread,,,,0,0

    """#

  @Test func addListShowSetRemove() throws {
    let gym = try GymProcess()
    // A work's id is its key: from its title and authors (RecordKeys).
    let dune = RecordKeys.work("Dune", authors: ["Frank Herbert"])
    let omens = RecordKeys.work("Good Omens", authors: ["Terry Pratchett", "Neil Gaiman"])
    let herbert = RecordKeys.author("Frank Herbert")
    #expect(
      try gym.run(["library", "add", "Dune", "--author", "Frank Herbert", "--isbn", "0441013597"]).stderr
        == "added work \(dune): 'Dune'\n" + gym.createdNote)
    try gym.run(["library", "add", "Good Omens", "--author", "Terry Pratchett", "--author", "Neil Gaiman"])
    let list = try gym.run(["library", "--format", "csv"])
    #expect(
      list.stdoutLines == [
        "id,title,authors,status,rating,coverImageURL", "\(omens),Good Omens,\"Terry Pratchett, Neil Gaiman\",toRead,,",
        "\(dune),Dune,Frank Herbert,toRead,,",
      ])
    let set = try gym.run(["library", "set", "978-0441013593", "--status", "read", "--rating", "5"])
    #expect(set.status == 0, "\(set.stderr)")
    // Setting the entry moved Dune to the top: lastModified changed.
    let after = try gym.run(["library", "list", "--format", "csv", "--fields", "title,status,rating,readCount"])
    #expect(after.stdoutLines == ["title,status,rating,readCount", "Dune,read,5,1", "Good Omens,toRead,,0"])
    let show = try gym.run(["library", "show", "\(dune)", "--format", "json"])
    #expect(show.stdout.contains("\"title\":\"Dune\""))
    #expect(
      show.stdout.contains(
        "\"authors\":[{\"id\":\(herbert),\"name\":\"Frank Herbert\",\"sortName\":\"Herbert, Frank\"}]"))
    #expect(show.stdout.contains("\"isbn10\":\"0441013597\""))
    #expect(show.stdout.contains("\"readingStatus\":\"read\""))
    // Keyset paging over the view: the cursor ends with the work id.
    let first = try gym.run(["library", "list", "--limit", "1", "--fields", "title", "--format", "csv"])
    #expect(first.stdoutLines == ["title", "Dune"])
    let cursor = try #require(first.stderr.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
    let second = try gym.run([
      "library", "list", "--limit", "1", "--fields", "title", "--format", "csv", "--after", cursor,
    ])
    #expect(second.stdoutLines == ["title", "Good Omens"])
    #expect(second.stderr.isEmpty)
    let sorted = try gym.run(["library", "list", "--sort", "title:desc", "--fields", "title", "--format", "csv"])
    #expect(sorted.stdoutLines == ["title", "Good Omens", "Dune"])
    #expect(try gym.run(["library", "remove", "\(omens)"]).stderr == "removed work \(omens): 'Good Omens'\n")
    let authors = try gym.run(["library", "authors", "--format", "csv"])
    #expect(authors.stdoutLines == ["id,name,sortName,works", "\(herbert),Frank Herbert,\"Herbert, Frank\",1"])
  }

  @Test func goodreadsImportSearchAndFilters() throws {
    let gym = try GymProcess()
    let file = try gym.write("goodreads_library_export.csv", Self.goodreads)
    let imported = try gym.run(["library", "import", "goodreads", file])
    #expect(imported.status == 0)
    #expect(
      imported.stderr == """
        imported 2 books: works 2 added, 0 updated, 0 unchanged; authors 4 added; shelves seen: owned-unread 1 (kept as a tag), \
        read 1

        """ + gym.createdNote)
    let again = try gym.run(["library", "import", "goodreads", file])
    #expect(again.stderr.hasPrefix("imported 2 books: works 0 added, 0 updated, 2 unchanged; authors 0 added"))
    let found = try gym.run(["library", "search", "locked tomb", "--format", "csv"])
    #expect(
      found.stdoutLines.dropFirst().map { $0.split(separator: ",")[1] } == ["Gideon the Ninth (The Locked Tomb #1)"])
    let byAuthor = try gym.run(["library", "list", "--author", "fagles", "--fields", "title", "--format", "csv"])
    #expect(byAuthor.stdoutLines == ["title", "The Odyssey"])
    let read = try gym.run(["library", "count", "--status", "read"])
    #expect(read.stdout == "1\n")
    let rated = try gym.run(["library", "count", "--where", "rating >= 4 && series == \"The Locked Tomb\""])
    #expect(rated.stdout == "1\n")
    let graph = try gym.run(["library", "show", "--all", "--format", "ndjson"])
    #expect(graph.stdoutLines.count == 2)
    #expect(graph.stdout.contains("\"review\":\"Bones.<br/>\\\"Great\\\", truly\\ngreat.\""))
  }

  @Test func badInputIsOneLineWithItsExitCode() throws {
    let gym = try GymProcess()
    try gym.run(["library", "add", "Dune", "--author", "Frank Herbert"])
    let missing = try gym.run(["library", "show", "42"])
    #expect(missing.status == 66)
    #expect(
      missing.stderr
        == "gym: error: no such work: '42' is not a work id or an ISBN in the library; see 'gym library list'\n")
    let notGoodreads = try gym.write("books.csv", "Title,Author\nDune,Frank Herbert\n")
    let refused = try gym.run(["library", "import", "goodreads", notGoodreads])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("books.csv:1: not a Goodreads export: missing column(s) Book Id, Exclusive Shelf"))
    #expect(refused.stderr.split(separator: "\n").count == 1)
    let badRow = try gym.write("bad.csv", Self.goodreads.replacingOccurrences(of: ",5,4.17,", with: ",9,4.17,"))
    let rejected = try gym.run(["library", "import", "goodreads", badRow, "--strict"])
    #expect(rejected.status == 65)
    #expect(
      rejected.stderr.hasSuffix(
        "bad.csv:2: column 'My Rating': '9' is not a whole number from 0 to 5; nothing was imported\n"))
    #expect(try gym.run(["library", "count"]).stdout == "1\n")
    let badISBN = try gym.run(["library", "add", "X", "--isbn", "0441013598"])
    #expect(badISBN.status == 64)
    #expect(badISBN.stderr.contains("--isbn '0441013598' is not a valid ISBN-10 or ISBN-13"))
    let badField = try gym.run(["library", "list", "--sort", "pages"])
    #expect(badField.status == 64)
    #expect(badField.stderr.contains("pages"))
  }

  /// `library authors` pages like every list: --limit (default output.page_size), --offset, a cursor
  /// for the next page on stderr, and the list options (--where, --sort, --fields).
  @Test func authorsPageWithLimitAndOffset() throws {
    let gym = try GymProcess()
    for (title, author) in [
      ("Dune", "Frank Herbert"), ("Excession", "Iain Banks"), ("Foundation", "Isaac Asimov"),
      ("Dune Messiah", "Frank Herbert"),
    ] {
      #expect(try gym.run(["library", "add", title, "--author", author, "-q"]).status == 0)
    }
    // By sort name: Asimov, Banks, Herbert.
    let first = try gym.run(["library", "authors", "--format", "csv", "--limit", "2"])
    #expect(first.stdoutLines.map { $0.split(separator: ",")[1] } == ["name", "Isaac Asimov", "Iain Banks"])
    let cursor = try #require(first.stderr.split(separator: " ").last).trimmingCharacters(in: .newlines)
    #expect(first.stderr.hasPrefix("next page: --after "))
    let second = try gym.run(["library", "authors", "--format", "csv", "--limit", "2", "--after", cursor])
    #expect(second.stdoutLines.map { $0.split(separator: ",")[1] } == ["name", "Frank Herbert"])
    #expect(second.stderr.isEmpty)
    let offset = try gym.run(["library", "authors", "--format", "csv", "--limit", "2", "--offset", "2"])
    #expect(offset.stdout == second.stdout)
    let prolific = try gym.run(["library", "authors", "-w", "works >= 2", "--fields", "name,works", "-f", "csv"])
    #expect(prolific.stdoutLines == ["name,works", "Frank Herbert,2"])
    let byWorks = try gym.run(["library", "authors", "--by", "works", "--ids"])
    #expect(byWorks.stdoutLines.first == "\(RecordKeys.author("Frank Herbert"))")  // with two works
  }
}
