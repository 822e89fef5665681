import Foundation
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
    // The importers' pipeline, `depth` batches deep: 101 batches of ten (the last of five) through eight.
    var made = 0
    seen = []
    try BatchPipeline(make: { () -> [Int] in
      made += 1
      return []
    }).run(produce: numbers(upTo: 1005)) { seen += $0 }
    #expect(seen == Array(0..<1005))
    #expect(made == BatchPipeline<[Int]>.depth)
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

  @Test func everyChunkReachesTheSinkWholeAndInOrder() throws {
    let received = Mutex<[[UInt8]]>([])
    let sink = BackgroundSink(chunkSize: 4, chunks: 2) { chunk in received.withLock { $0.append(chunk) } }
    var chunk: [UInt8] = []
    // 50 chunks of three bytes each, (n, n+1, n+2) for n = 0, 3, 6 …: more than the two in flight.
    for n in stride(from: 0, to: 150, by: 3) {
      chunk.append(contentsOf: [UInt8(n), UInt8(n + 1), UInt8(n + 2)])
      try sink.submit(&chunk)
      #expect(chunk.isEmpty)  // an empty one comes back to fill
    }
    try sink.finish()
    let all = received.withLock { $0 }
    #expect(all.count == 50)
    #expect(all.joined().elementsEqual((0..<150).map(UInt8.init)))
  }

  @Test func aSinkErrorReachesTheWriterAndTheEnd() {
    let sink = BackgroundSink(chunkSize: 4, chunks: 2) { chunk in
      if chunk == [2] { throw Failure() }
    }
    var chunk: [UInt8] = []
    var submitted = 0
    #expect(throws: Failure()) {
      for n in 0..<1000 {
        chunk = [UInt8(n % 256)]
        try sink.submit(&chunk)
        submitted += 1
      }
    }
    // The third chunk fails; with two in flight the writer learns it within two more submits.
    #expect(submitted >= 2 && submitted < 1000)
    #expect(throws: Failure()) { try sink.finish() }
  }

  /// The sink fails on the last chunk: the first `finish` throws its error, and a second (a writer's
  /// cleanup after the first threw) throws it again at once. It waited for ever: `gym export` past the
  /// file size limit hung instead of exiting 74.
  @Test func finishingTwiceAfterTheLastChunkFailedDoesNotWait() throws {
    let sink = BackgroundSink(chunkSize: 4, chunks: 2) { chunk in
      if chunk == [9] { throw Failure() }
    }
    var chunk: [UInt8] = [9]
    try sink.submit(&chunk)
    #expect(throws: Failure()) { try sink.finish() }
    #expect(throws: Failure()) { try sink.finish() }
  }

  @Test func stoppingReleasesAProducerWaitingForAFreeItem() throws {
    let handoff = Handoff([0])
    #expect(handoff.takeFree() == 0)
    handoff.put(0)
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Int??>(nil)
    Thread {
      let taken = handoff.takeFree()  // none is free: waits until stopped
      result.withLock { $0 = .some(taken) }
      done.signal()
    }.start()
    handoff.stop()
    done.wait()
    #expect(result.withLock { $0 } == .some(nil))
    // What was queued before the stop is still there for the consumer.
    #expect(try handoff.takeQueued() == 0)
  }
}
