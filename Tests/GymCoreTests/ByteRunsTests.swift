import Testing

@testable import GymCore

@Suite struct ByteRunsTests {
  /// Runs of the same bytes are equal wherever they lie; a different byte, a different length
  /// (a prefix included) or one empty run against a full one is not.
  @Test func comparesBytesNotAddresses() {
    let sample = Array("HKQuantityTypeIdentifierStepCount".utf8)
    let copy = Array(sample)
    let differsAtTheEnd = Array("HKQuantityTypeIdentifierStepCounu".utf8)
    sample.withUnsafeBufferPointer { a in
      #expect(ByteRuns.equal(copy, a))
      #expect(!ByteRuns.equal(differsAtTheEnd, a))
      // The first 24 bytes, "HKQuantityTypeIdentifier", are a prefix: same bytes, shorter.
      #expect(!ByteRuns.equal(Array(sample.prefix(24)), a))
      #expect(ByteRuns.equal(UnsafeBufferPointer(rebasing: a[0..<24]), "HKQuantityTypeIdentifier"))
      #expect(!ByteRuns.equal(UnsafeBufferPointer(rebasing: a[0..<24]), "HKQuantityTypeIdentifieR"))
      #expect(!ByteRuns.equal([], a))
      #expect(ByteRuns.equal([], UnsafeBufferPointer(rebasing: a[5..<5])))
    }
    // An empty buffer has no address at all; it still equals an empty run.
    #expect(ByteRuns.equal(UnsafeBufferPointer(start: nil, count: 0), ""))
    #expect(ByteRuns.equal([], UnsafeBufferPointer(start: nil, count: 0)))
  }
}
