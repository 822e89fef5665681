import Testing

@testable import GymLibrary

/// Ratings: quarter stars from 0.25 to 5; in whole stars for Goodreads, never rounding to none.
@Suite struct StarsTests {
  @Test func quarterStars() {
    #expect([0.25, 1, 3.75, 4.5, 5].allSatisfy(Stars.isValid))
    #expect(![0, 0.2, 3.8, 5.25, -1, .nan, .infinity].contains(where: Stars.isValid))
  }

  @Test func wholeStars() {
    #expect([0.25, 0.5, 1.25, 2.5, 3.75, 5].map(Stars.whole) == [1, 1, 1, 3, 4, 5])
  }
}
