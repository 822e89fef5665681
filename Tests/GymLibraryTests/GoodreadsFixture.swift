import Foundation

/// Goodreads library exports made in the tests, with every quirk of the real ones: ISBNs as
/// spreadsheet formulas (`="…"`, `=""` when empty), `YYYY/MM/DD` dates and blanks, `My Rating` 0
/// for unrated, reviews with HTML, quotes, commas and line breaks, the series in the title,
/// `Additional Authors` lists, a shelf of the user's own, the 24-column and 31-column headers.
enum GoodreadsFixture {
  static let olderHeader = [
    "Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating",
    "Average Rating", "Publisher", "Binding", "Number of Pages", "Year Published", "Original Publication Year",
    "Date Read", "Date Added", "Bookshelves", "Bookshelves with positions", "Exclusive Shelf", "My Review",
    "Spoiler", "Private Notes", "Read Count", "Owned Copies",
  ]
  static let newerHeader =
    olderHeader + [
      "Recommended For", "Recommended By", "Original Purchase Date", "Original Purchase Location", "Condition",
      "Condition Description", "BCID",
    ]

  static let review = "Necromancers in space.<br/><br/>Funny, \"sharp\", and sad,\nall at once."

  /// The rows that carry the quirks, by column name.
  static let quirkRows: [[String: String]] = [
    [
      "Book Id": "42944564", "Title": "Gideon the Ninth (The Locked Tomb #1)", "Author": "Tamsyn Muir",
      "Author l-f": "Muir, Tamsyn", "ISBN": "=\"1250313198\"", "ISBN13": "=\"9781250313195\"", "My Rating": "5",
      "Average Rating": "4.17", "Publisher": "Tor.com", "Binding": "Hardcover", "Number of Pages": "448",
      "Year Published": "2019", "Original Publication Year": "2019", "Date Read": "2020/01/15",
      "Date Added": "2019/12/01", "Bookshelves": "", "Exclusive Shelf": "read", "My Review": review,
      "Read Count": "1", "Owned Copies": "1",
    ],
    [
      "Book Id": "1381", "Title": "The Odyssey", "Author": "Homer", "Author l-f": "Homer, ",
      "Additional Authors": "Robert Fagles, Bernard Knox", "ISBN": "=\"0140268863\"", "ISBN13": "=\"\"",
      "My Rating": "0", "Publisher": "Penguin Classics", "Binding": "Paperback", "Number of Pages": "541",
      "Year Published": "1999", "Original Publication Year": "-700", "Date Read": "", "Date Added": "2021/03/04",
      "Bookshelves": "classics, owned-unread", "Bookshelves with positions": "classics (#3), owned-unread (#1)",
      "Exclusive Shelf": "owned-unread", "Read Count": "0", "Owned Copies": "0",
    ],
    [
      "Book Id": "45899525", "Title": "Harrow the Ninth (The Locked Tomb, #2)", "Author": "tamsyn muir",
      "Author l-f": "muir, tamsyn", "ISBN": "=\"\"", "ISBN13": "=\"9781250313225\"", "My Rating": "4",
      "Date Read": "", "Date Added": "2020/08/04", "Bookshelves": "currently-reading",
      "Exclusive Shelf": "currently-reading", "Read Count": "0", "Owned Copies": "0",
    ],
    [
      "Book Id": "320", "Title": "Cien años de soledad", "Author": "Gabriel García Márquez",
      "Author l-f": "García Márquez, Gabriel", "ISBN": "=\"0060883286\"", "ISBN13": "=\"9780060883287\"",
      "My Rating": "0", "Date Added": "2018/05/20", "Exclusive Shelf": "to-read",
      "Read Count": "0", "Owned Copies": "2",
    ],
    [
      "Book Id": "777", "Title": "A Book With A Bad ISBN", "Author": "Some One", "Author l-f": "One, Some",
      "ISBN": "=\"1234567890\"", "ISBN13": "=\"\"", "My Rating": "3", "Date Read": "2022/02/02",
      "Date Added": "2022/01/01", "Exclusive Shelf": "read", "Read Count": "2", "Owned Copies": "0",
    ],
  ]

  /// Plain generated rows after the quirks: `count` works by a tenth as many authors.
  static func generatedRows(_ count: Int) -> [[String: String]] {
    (0..<count).map { i in
      [
        "Book Id": String(100_000 + i), "Title": "Generated Book \(i)", "Author": "Writer \(i % max(1, count / 10))",
        "My Rating": String(i % 6), "Date Added": "2023/01/\(String(format: "%02d", 1 + i % 28))",
        "Exclusive Shelf": ["read", "to-read", "currently-reading"][i % 3], "Read Count": "0", "Owned Copies": "0",
      ]
    }
  }

  static func csv(_ rows: [[String: String]], newer: Bool = true) -> String {
    let header = newer ? newerHeader : olderHeader
    var text = header.joined(separator: ",") + "\n"
    for row in rows {
      text += header.map { quoted(row[$0] ?? "") }.joined(separator: ",") + "\n"
    }
    return text
  }

  static func quoted(_ value: String) -> String {
    guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "=" }) else { return value }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func file(_ text: String) throws -> String {
    let path = NSTemporaryDirectory() + "goodreads-" + UUID().uuidString + ".csv"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }
}
