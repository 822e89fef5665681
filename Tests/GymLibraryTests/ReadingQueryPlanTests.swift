import GRDB
import GymCore
import Testing

@testable import GymLibrary

/// The readings list and the year's figures walk their indexes: `EXPLAIN QUERY PLAN` of the SQL the
/// commands run (`gym bench --module library` times them on 20,000 works and about 40,000 readings).
@Suite struct ReadingQueryPlanTests {
  let tests = LibraryQueryTests()

  @Test func theYearReadsTheFinishedIndexAndSortsNothing() throws {
    let store = try LibraryQueryTests.store(works: 50)
    let books = try tests.plan(store, ReadingYear.booksSQL, ["2024-01-01", "2024-12-31"])
    #expect(books.contains("SEARCH r USING COVERING INDEX reading_finished (status=? AND finished>? AND finished<?)"))
    // The re-read test looks up the work's own read readings, never all of them.
    #expect(books.contains("SEARCH o USING COVERING INDEX reading_work (workId=? AND status=?)"), "\(books)")
    #expect(!books.contains("TEMP B-TREE"), "\(books)")
    let authors = try tests.plan(store, ReadingYear.authorsSQL, ["2024-01-01", "2024-12-31"])
    #expect(authors.contains("reading_finished (status=? AND finished>? AND finished<?)"))
    #expect(authors.contains("SEARCH wa USING COVERING INDEX work_author_position (workId=?)"))
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
