import Foundation
import Testing

/// Pages over a sort key that can be empty reach every row: five rated and five unrated books,
/// three a page, by rating up and down; each page's cursor followed until none is printed.
@Suite struct NullablePagingTests {
  func walk(_ gym: GymProcess, sort: String) throws -> (titles: [String], pages: Int) {
    var titles: [String] = []
    var after: [String] = []
    var pages = 0
    while pages < 20 {
      let page = try gym.run(["library", "list", "--sort", sort, "-n", "3", "-f", "csv", "--fields", "title"] + after)
      #expect(page.status == 0, "\(page.stderr)")
      titles += page.stdoutLines.dropFirst().map(String.init)
      pages += 1
      guard let line = page.stderr.split(separator: "\n").first(where: { $0.hasPrefix("next page: --after ") })
      else { break }
      after = ["--after", String(line.dropFirst("next page: --after ".count))]
    }
    return (titles, pages)
  }

  @Test func everyPageOfANullableKeyIsReached() throws {
    let gym = try GymProcess()
    for i in 1...5 {
      #expect(try gym.run(["library", "add", "Rated \(i)", "--rating", String(i), "-q"]).status == 0)
      #expect(try gym.run(["library", "add", "Unrated \(i)", "-q"]).status == 0)
    }
    // Ascending: the five without a rating first (by id, each work's key: RecordKeys), then 1 to 5 stars.
    let unrated = (1...5).map { "Unrated \($0)" }.sorted {
      RecordKeys.work($0, authors: []) < RecordKeys.work($1, authors: [])
    }
    let up = try walk(gym, sort: "rating")
    #expect(up.titles == unrated + (1...5).map { "Rated \($0)" }, "\(up.titles)")
    // Descending: 5 stars to 1, then the unrated, highest id first. Ten rows, three a page: four pages.
    let down = try walk(gym, sort: "rating:desc")
    #expect(down.titles == (1...5).reversed().map { "Rated \($0)" } + unrated.reversed())
    #expect(up.pages == 4 && down.pages == 4)
  }
}
