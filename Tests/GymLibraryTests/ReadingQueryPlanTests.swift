import GRDB
import GymCore
import Testing

@testable import GymLibrary

/// The readings list and the year's figures walk their indexes: `EXPLAIN QUERY PLAN` of the SQL the
/// commands run (`gym bench --module library` times them on 20,000 works and about 40,000 readings).
@Suite struct ReadingQueryPlanTests {
  let tests = LibraryQueryTests()

  /// The year reads one range of one index, in order, with every figure in it; the authors only
  /// the year's counts, and the author rows of those tied with the fifth.
  @Test func theYearReadsOnlyItsOwnRowsAndSortsNothing() throws {
    let store = try LibraryQueryTests.store(works: 50)
    let books = try tests.plan(store, ReadingYear.booksSQL, ["2024-01-01", "2025-01-01"])
    #expect(books == "SEARCH reading_book USING COVERING INDEX reading_book_finished (finished>? AND finished<?)")
    let authors = try tests.plan(store, ReadingYear.authorsSQL, ["2024-01-01", "2025-01-01", 2024])
    #expect(authors.contains("USING COVERING INDEX reading_author_year_books (year=?"), "\(authors)")
    #expect(authors.contains("SEARCH a USING INTEGER PRIMARY KEY (rowid=?)"), "\(authors)")
    #expect(!authors.contains("SCAN"), "\(authors)")
  }

  @Test func theReadingsListPagesByIdAndByWork() throws {
    let store = try LibraryQueryTests.store(works: 50)
    let page = try Query(table: ReadingSchema.list, limit: 20).selectSQL()
    let pagePlan = try tests.plan(store, page.0, page.1)
    #expect(!pagePlan.contains("TEMP B-TREE"), "\(pagePlan)")
    #expect(pagePlan.contains("SCAN r"), "\(pagePlan)")
    let work = try Query(table: ReadingSchema.list, filter: .compare("workId", .equal, .integer(3)), limit: 20)
      .selectSQL()
    let workPlan = try tests.plan(store, work.0, work.1)
    #expect(
      workPlan.contains("USING INDEX reading_work (workId=?)")
        || workPlan.contains("USING COVERING INDEX reading_work (workId=?)"), "\(workPlan)")
  }
}
