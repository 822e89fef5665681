import ArgumentParser
import Testing

@testable import GymLibrary

/// `library add` and `set` refuse what the importers refuse, so a book gym writes imports back:
/// pages and copies 0 to 1,000,000, a year from -5000 to 9999, a start not after the finish.
@Suite struct LibraryEditBoundsTests {
  func refusal(_ arguments: [String]) -> String? {
    do {
      _ = try LibraryAdd.parse(["Dune", "--author", "Frank Herbert"] + arguments)
      return nil
    } catch {
      return LibraryAdd.message(for: error)
    }
  }

  @Test func numbersPastTheImportersBoundsAreRefused() {
    #expect(refusal(["--pages", "1000001"]) == "--pages must be from 0 to 1000000")
    #expect(refusal(["--pages=-1"]) == "--pages must be from 0 to 1000000")
    #expect(refusal(["--owned-copies", "1000000000000"]) == "--owned-copies must be from 0 to 1000000")
    #expect(refusal(["--year", "99999"]) == "--year must be from -5000 to 9999")
    #expect(refusal(["--year", "9223372036854775807"]) == "--year must be from -5000 to 9999")
    #expect(refusal(["--pages", "1000000", "--owned-copies", "2", "--year=-5000"]) == nil)
  }

  @Test func aStartAfterTheFinishIsRefused() {
    #expect(
      refusal(["--status", "read", "--started", "2030-01-01", "--finished", "2020-01-01"])
        == "--started 2030-01-01 would come after --finished 2020-01-01")
    #expect(refusal(["--started", "2020-01-01", "--finished", "2020-01-01"]) == nil)
    #expect(refusal(["--finished", "0000-01-01"]) != nil)
  }
}
