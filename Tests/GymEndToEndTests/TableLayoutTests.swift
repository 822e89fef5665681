import Foundation
import Testing

/// Tables fit the width COLUMNS gives: free text shrinks with `…`, identifiers, dates and numbers are
/// never cut, columns that still do not fit are left out with a note, and CJK characters and emoji
/// count as the two columns a terminal gives them. The expected lines are worked out by hand from
/// those rules (wide characters: 三, 体, 作, 者 and 🙂 take two columns).
@Suite struct TableLayoutTests {
  func library() throws -> GymProcess {
    let gym = try GymProcess()
    for title in Self.titles {
      #expect(try gym.run(["library", "add", title, "--author", "作者 Name", "-q"]).status == 0)
    }
    return gym
  }

  func table(_ gym: GymProcess, columns: Int) throws -> GymProcess.Result {
    try gym.run(
      ["library", "list", "--sort", "id", "--fields", "id,title,authors,status"], environment: ["COLUMNS": "\(columns)"]
    )
  }

  static let titles = [
    "三体", "Ça ira 🙂 ok", "Schöne neue Welt", "A very long title that goes on and on and on forever and ever",
  ]

  /// The rows by id (each work's key, RecordKeys), and the id column's width: its widest key.
  func rows() -> (ids: [String], titles: [String], width: Int) {
    let keyed = Self.titles.map { (RecordKeys.work($0, authors: ["作者 Name"]), $0) }.sorted { $0.0 < $1.0 }
    let ids = keyed.map { String($0.0) }
    return (ids, keyed.map(\.1), ids.map(\.count).max()!)
  }

  /// `text` followed by spaces to `width` terminal columns; `wide` is how many of its characters
  /// take two (三, 体, 作, 者, 🙂).
  func padded(_ text: String, _ width: Int, wide: Int = 0) -> String {
    text + String(repeating: " ", count: width - text.count - wide)
  }

  func wide(_ title: String) -> Int { title.filter { "三体🙂".contains($0) }.count }

  @Test func eightyColumnsShrinkTheTitle() throws {
    let result = try table(try library(), columns: 80)
    let (ids, titles, id) = rows()
    // authors "作者 Name" is 2 + 2 + 1 + 4 = 9 columns, status 6, three gaps of 2: the title gets
    // 80 − id − 9 − 6 − 6; the long one is cut to one less, and "…".
    let title = 80 - id - 21
    let shown = titles.map { $0.count > title ? String($0.prefix(title - 1)) + "…" : $0 }
    #expect(
      result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        == ["\(padded("id", id))  \(padded("title", title))  authors    status"]
        + zip(ids, shown).map { "\($0)  \(padded($1, title, wide: wide($1)))  作者 Name  toRead" } + [""])
    #expect(result.stderr.isEmpty)
  }

  @Test func twoHundredColumnsShowEverything() throws {
    let result = try table(try library(), columns: 200)
    let (ids, titles, id) = rows()
    // Every title whole: the widest is 61 columns.
    #expect(
      result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        == ["\(padded("id", id))  \(padded("title", 61))  authors    status"]
        + zip(ids, titles).map { "\($0)  \(padded($1, 61, wide: wide($1)))  作者 Name  toRead" } + [""])
  }

  @Test func thirtyColumnsLeaveOutWhatDoesNotFitAndSaySo() throws {
    let result = try table(try library(), columns: 30)
    let (ids, titles, id) = rows()
    // id, title at its shortest (10), authors (9) and status (6) with gaps are id + 31 > 30: status
    // goes, then authors (id + 21 > 30); the title takes what is left, 30 − id − 2.
    let title = 30 - id - 2
    let shown = titles.map { $0.count + wide($0) > title ? String($0.prefix(title - 1)) + "…" : $0 }
    #expect(
      result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        == ["\(padded("id", id))  title"] + zip(ids, shown).map { "\($0)  \($1)" } + [""])
    #expect(
      result.stderr
        == "gym: authors, status left out to fit 30 columns; --fields chooses the columns, COLUMNS sets the width\n")
  }

  /// At 80 columns a workout list keeps every id and date whole, and no line ends in a space.
  @Test func identifiersAndDatesAreNeverCut() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    let ids = try gym.run(["history", "list", "--ids"]).stdoutLines
    let table = try gym.run(["history", "list"], environment: ["COLUMNS": "80"])
    let rows = table.stdoutLines.dropFirst()
    #expect(rows.map { String($0.prefix(36)) } == ids.map(String.init))
    #expect(
      rows.allSatisfy { $0.range(of: #"^\S{36}  \d{4}-\d{2}-\d{2} \d{2}:\d{2}  "#, options: .regularExpression) != nil }
    )
    #expect(table.stdoutLines.allSatisfy { !$0.hasSuffix(" ") && $0.count <= 80 })
  }
}
