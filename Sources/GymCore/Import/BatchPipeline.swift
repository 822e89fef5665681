import Foundation

/// Runs a producer on a thread of its own and hands the batches it fills to a consumer on the
/// calling thread, with two batches in flight: on two cores, parsing one batch overlaps with
/// writing the previous one. Batches are reused, so a long import allocates none after the first.
///
/// Ownership of a batch passes through the queues: the producer and the consumer never touch the
/// same batch at the same time, which is why the class can be `@unchecked Sendable`.
public final class BatchPipeline<Batch>: @unchecked Sendable {
  /// One box per batch: the array is never changed, each side changes only the box it owns.
  private final class Box {
    var batch: Batch
    init(_ batch: Batch) { self.batch = batch }
  }

  private let boxes: [Box]
  private var free: [Int]
  private var full: [Int] = []
  private var cancelled = false
  private var finished = false
  private var failure: (any Error)?
  private let condition = NSCondition()
  private let done = DispatchSemaphore(value: 0)

  public init(batches: [Batch]) {
    boxes = batches.map(Box.init)
    free = Array(batches.indices)
  }

  /// `produce` fills a batch and returns false once the input is exhausted (the batch it just
  /// filled is still consumed). `consume` sees every batch, in order, on the calling thread.
  /// An error on either side stops both and is rethrown here, after the producer has stopped.
  public func run(
    produce: @escaping @Sendable (inout Batch) throws -> Bool, consume: (Batch) throws -> Void
  ) throws {
    let producer = Thread { [self] in
      defer { done.signal() }
      while let index = take(from: \.free) {
        do {
          let more = try produce(&boxes[index].batch)
          put(index, last: !more)
          if !more { return }
        } catch {
          fail(error)
          return
        }
      }
    }
    producer.start()
    defer {
      condition.lock()
      cancelled = true
      condition.broadcast()
      condition.unlock()
      done.wait()  // the producer has let go of its input before the caller closes it
    }
    while true {
      condition.lock()
      while full.isEmpty && failure == nil && !finished { condition.wait() }
      if let failure, full.isEmpty {
        condition.unlock()
        throw failure
      }
      guard !full.isEmpty else {
        condition.unlock()
        return
      }
      let index = full.removeFirst()
      condition.unlock()
      try consume(boxes[index].batch)
      condition.lock()
      free.append(index)
      condition.signal()
      condition.unlock()
    }
  }

  private func take(from queue: ReferenceWritableKeyPath<BatchPipeline, [Int]>) -> Int? {
    condition.lock()
    defer { condition.unlock() }
    while self[keyPath: queue].isEmpty && !cancelled { condition.wait() }
    return cancelled ? nil : self[keyPath: queue].removeFirst()
  }

  private func put(_ index: Int, last: Bool) {
    condition.lock()
    full.append(index)
    if last { finished = true }
    condition.broadcast()
    condition.unlock()
  }

  private func fail(_ error: any Error) {
    condition.lock()
    failure = error
    condition.broadcast()
    condition.unlock()
  }
}
