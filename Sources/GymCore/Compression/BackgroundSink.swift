import Foundation

/// Hands filled byte chunks to a thread of its own, which passes each to `sink` in order: on two
/// cores, encoding the next rows overlaps with compressing and writing the previous ones. Three
/// chunks circulate, so memory stays three chunks whatever the size of the output.
///
/// A chunk belongs to one side at a time (it moves through the lists under the lock), which is
/// why the class can be `@unchecked Sendable`.
public final class BackgroundSink: @unchecked Sendable {
  private let condition = NSCondition()
  private var free: [[UInt8]]
  private var full: [[UInt8]] = []
  private var closed = false
  private var failure: (any Error)?
  private let done = DispatchSemaphore(value: 0)

  public init(chunkSize: Int = 256 * 1024, chunks: Int = 3, sink: @escaping ([UInt8]) throws -> Void) {
    free = (0..<chunks).map { _ in
      var chunk: [UInt8] = []
      chunk.reserveCapacity(chunkSize)
      return chunk
    }
    // The sink is used by that thread only, once `init` returns.
    nonisolated(unsafe) let sink = sink
    let thread = Thread { [self] in
      defer { done.signal() }
      while true {
        condition.lock()
        while full.isEmpty && !closed { condition.wait() }
        if full.isEmpty {
          condition.unlock()
          return
        }
        var chunk = full.removeFirst()
        condition.unlock()
        do {
          try sink(chunk)
        } catch {
          condition.lock()
          failure = error
          free.append([])
          condition.broadcast()
          condition.unlock()
          return
        }
        chunk.removeAll(keepingCapacity: true)
        condition.lock()
        free.append(chunk)
        condition.broadcast()
        condition.unlock()
      }
    }
    thread.start()
  }

  /// Queues `chunk` and gives back an empty one to fill next; waits while all are in flight.
  public func submit(_ chunk: inout [UInt8]) throws {
    condition.lock()
    defer { condition.unlock() }
    if let failure { throw failure }
    full.append(chunk)
    condition.broadcast()
    while free.isEmpty && failure == nil { condition.wait() }
    if let failure { throw failure }
    chunk = free.removeLast()
  }

  /// Waits until every queued chunk went to the sink; rethrows the sink's error.
  public func finish() throws {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
    done.wait()
    if let failure { throw failure }
  }
}
