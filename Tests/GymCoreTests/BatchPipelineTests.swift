import Synchronization
import Testing

@testable import GymCore

@Suite struct BatchPipelineTests {
  struct Failure: Error, Equatable {}

  /// A producer of 0, 1, 2 … up to `total`, ten to a batch; the counter lives in a `Mutex` because
  /// the producer runs on another thread.
  func numbers(upTo total: Int, failAt: Int? = nil) -> @Sendable (inout [Int]) throws -> Bool {
    let next = Mutex(0)
    return { batch in
      try next.withLock { next in
        batch.removeAll(keepingCapacity: true)
        while batch.count < 10 && next < total {
          if next == failAt { throw Failure() }
          batch.append(next)
          next += 1
        }
        return next < total
      }
    }
  }

  @Test func everyItemArrivesOnceInOrder() throws {
    var seen: [Int] = []
    try BatchPipeline(batches: [[Int]](repeating: [], count: 2)).run(produce: numbers(upTo: 1005)) { seen += $0 }
    #expect(seen == Array(0..<1005))
  }

  @Test func aProducerErrorReachesTheCallerAfterEarlierBatches() {
    var seen: [Int] = []
    #expect(throws: Failure()) {
      try BatchPipeline(batches: [[Int]](repeating: [], count: 3)).run(produce: numbers(upTo: 100, failAt: 55)) {
        seen += $0
      }
    }
    #expect(seen == Array(0..<50))
  }

  @Test func aConsumerErrorStopsTheProducer() {
    var batches = 0
    #expect(throws: Failure()) {
      try BatchPipeline(batches: [[Int]](repeating: [], count: 2)).run(produce: numbers(upTo: 1_000_000)) { _ in
        batches += 1
        if batches == 3 { throw Failure() }
      }
    }
    #expect(batches == 3)
  }
}
