import Foundation
import Synchronization

/// Hands filled byte chunks to a thread of its own, which passes each to `sink` in order: on two
/// cores, encoding the next rows overlaps with compressing and writing the previous ones. Three
/// chunks circulate (a `Handoff`), so memory stays three chunks whatever the size of the output.
public final class BackgroundSink: Sendable {
  private let handoff: Handoff<[UInt8]>
  private let done = DispatchSemaphore(value: 0)
  /// Whether `finish` has waited for the thread: it signals once, and a second wait (a caller's
  /// cleanup after the first `finish` threw the sink's error) would wait for ever.
  private let finished = Mutex(false)

  public init(chunkSize: Int = 256 * 1024, chunks: Int = 3, sink: @escaping ([UInt8]) throws -> Void) {
    handoff = Handoff(
      (0..<chunks).map { _ in
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkSize)
        return chunk
      })
    // The sink is used by that thread only, once `init` returns.
    nonisolated(unsafe) let sink = sink
    let thread = Thread { [handoff, done] in
      defer { done.signal() }
      do {
        while var chunk = try handoff.takeQueued() {
          try sink(chunk)
          chunk.removeAll(keepingCapacity: true)
          handoff.giveBack(consume chunk)
        }
      } catch {
        handoff.fail(error)
      }
    }
    thread.start()
  }

  /// Queues `chunk` and gives back an empty one to fill next; waits while all are in flight.
  public func submit(_ chunk: inout [UInt8]) throws {
    if let error = handoff.error { throw error }
    // Handed over whole: a reference kept here would make the sink's side copy it to reuse it.
    var filled: [UInt8] = []
    swap(&filled, &chunk)
    handoff.put(consume filled)
    guard let next = handoff.takeFree() else { throw handoff.error ?? CancellationError() }
    chunk = next
  }

  /// Waits until every queued chunk went to the sink; rethrows the sink's error.
  public func finish() throws {
    let first = finished.withLock { isFinished in
      defer { isFinished = true }
      return !isFinished
    }
    if first {
      handoff.close()
      done.wait()
    }
    if let error = handoff.error { throw error }
  }
}
