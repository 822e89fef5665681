import Foundation
import Testing

/// What spreadsheets and real exports do to every CSV importer, through the binary: a byte-order
/// mark before quoted header names, CRLF, trailing blank lines; and what a source leaves unsaid
/// stays unknown, shown empty and found as nil.
@Suite struct ImportQuirkTests {
  @Test func gymsOwnCSVFromASpreadsheetWithUnknownValues() throws {
    let gym = try GymProcess()
    let header = ["id", "completedAt", "status", "planTitle", "focus", "durationMinutes", "intensity"]
    let text =
      "\u{FEFF}" + header.map { "\"\($0)\"" }.joined(separator: ",") + "\r\n"
      + "6f9619ff-8b86-d011-b42d-00c04fc964ff,2026-03-01T10:00:00Z,completed,Walk,,28.81,\r\n"
      + "7f9619ff-8b86-d011-b42d-00c04fc964ff,2026-03-02T10:00:00Z,completed,Push,push,45,high\r\n\r\n\r\n"
    let path = try gym.write("workouts.csv", text)
    let imported = try gym.run(["history", "import", path])
    #expect(imported.status == 0, "\(imported.stderr)")
    let unknown = try gym.run([
      "history", "list", "--where", "focus == nil", "--format", "csv", "--fields",
      "planTitle,focus,durationMinutes,intensity",
    ])
    #expect(unknown.stdoutLines == ["planTitle,focus,durationMinutes,intensity", "Walk,,28.81,"])
    #expect(try gym.run(["history", "count", "--where", "intensity == nil"]).stdout == "1\n")
    let json = try gym.run(["history", "list", "--where", "focus == nil", "--format", "ndjson", "--fields", "focus"])
    #expect(json.stdout == "{\"focus\":null}\n")
  }

  /// Goodreads through a spreadsheet: quoted names behind a byte-order mark, one author written
  /// with a run of spaces in one row and one space in the other, a review ending in a space.
  @Test func goodreadsAuthorsAreOnePersonAndReviewsStayAsWritten() throws {
    let gym = try GymProcess()
    let header = [
      "Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating", "Average Rating",
      "Publisher", "Binding", "Number of Pages", "Year Published", "Original Publication Year", "Date Read",
      "Date Added", "Bookshelves", "Bookshelves with positions", "Exclusive Shelf", "My Review", "Spoiler",
      "Private Notes", "Read Count", "Owned Copies",
    ]
    let rows: [[String: String]] = [
      [
        "Book Id": "11", "Title": "The Book", "Author": "Elisabeth  Jaquette", "Exclusive Shelf": "read",
        "My Review": "Loved it. ", "My Rating": "4",
      ],
      ["Book Id": "12", "Title": "Another", "Author": "Elisabeth Jaquette", "Exclusive Shelf": "to-read"],
    ]
    var text = "\u{FEFF}" + header.map { "\"\($0)\"" }.joined(separator: ",") + "\r\n"
    for row in rows { text += header.map { "\"\(row[$0] ?? "")\"" }.joined(separator: ",") + "\r\n" }
    let path = try gym.write("goodreads.csv", text)
    let imported = try gym.run(["library", "import", "goodreads", path])
    #expect(imported.status == 0, "\(imported.stderr)")
    let authors = try gym.run(["library", "authors", "--format", "csv"])
    #expect(authors.stdoutLines.count == 2, "\(authors.stdout)")
    #expect(authors.stdout.contains("Elisabeth Jaquette") && !authors.stdout.contains("Elisabeth  Jaquette"))
    let id = try gym.run(["library", "list", "--where", "rating == 4", "--format", "csv", "--fields", "id"])
      .stdoutLines[1]
    let shown = try gym.run(["library", "show", String(id), "--format", "json"])
    #expect(shown.stdout.contains("\"review\":\"Loved it. \""), "\(shown.stdout)")
    // Missing ratings are Swift's nil: `!=` and `!` include the unrated book, `<` does not.
    for (filter, count) in [
      ("rating != 4", "1"), ("!(rating == 4)", "1"), ("rating < 5", "1"), ("!(rating < 5)", "1"),
      ("rating == nil", "1"),
    ] {
      #expect(try gym.run(["library", "count", "--where", filter]).stdout == count + "\n", "\(filter)")
    }
  }
}
