import Foundation
import Testing

/// Tables fit the width COLUMNS gives: free text shrinks with `…`, identifiers, dates and numbers are
/// never cut, columns that still do not fit are left out with a note, and CJK characters and emoji
/// count as the two columns a terminal gives them. The expected lines are worked out by hand from
/// those rules (wide characters: 三, 体, 作, 者 and 🙂 take two columns).
@Suite struct TableLayoutTests {
  func library() throws -> GymProcess {
    let gym = try GymProcess()
    for title in [
      "三体", "Ça ira 🙂 ok", "Schöne neue Welt", "A very long title that goes on and on and on forever and ever",
    ] {
      #expect(try gym.run(["library", "add", title, "--author", "作者 Name", "-q"]).status == 0)
    }
    return gym
  }

  func table(_ gym: GymProcess, columns: Int) throws -> GymProcess.Result {
    try gym.run(
      ["library", "list", "--sort", "id", "--fields", "id,title,authors,status"], environment: ["COLUMNS": "\(columns)"]
    )
  }

  @Test func eightyColumnsShrinkTheTitle() throws {
    let result = try table(try library(), columns: 80)
    #expect(
      result.stdout.split(separator: "\n", omittingEmptySubsequences: false) == [
        "id  title                                                      authors    status",
        " 1  三体                                                       作者 Name  toRead",
        " 2  Ça ira 🙂 ok                                               作者 Name  toRead",
        " 3  Schöne neue Welt                                           作者 Name  toRead",
        " 4  A very long title that goes on and on and on forever and…  作者 Name  toRead",
        "",
      ])
    #expect(result.stderr.isEmpty)
  }

  @Test func twoHundredColumnsShowEverything() throws {
    let result = try table(try library(), columns: 200)
    #expect(
      result.stdout.split(separator: "\n", omittingEmptySubsequences: false) == [
        "id  title                                                          authors    status",
        " 1  三体                                                           作者 Name  toRead",
        " 2  Ça ira 🙂 ok                                                   作者 Name  toRead",
        " 3  Schöne neue Welt                                               作者 Name  toRead",
        " 4  A very long title that goes on and on and on forever and ever  作者 Name  toRead",
        "",
      ])
  }

  @Test func thirtyColumnsLeaveOutWhatDoesNotFitAndSaySo() throws {
    let result = try table(try library(), columns: 30)
    #expect(
      result.stdout.split(separator: "\n", omittingEmptySubsequences: false) == [
        "id  title            authors", " 1  三体             作者 Name", " 2  Ça ira 🙂 ok     作者 Name",
        " 3  Schöne neue We…  作者 Name", " 4  A very long ti…  作者 Name", "",
      ])
    #expect(
      result.stderr
        == "gym: status left out to fit 30 columns; --fields chooses the columns, COLUMNS sets the width\n")
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
