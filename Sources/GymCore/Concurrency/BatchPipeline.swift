import Foundation

/// Runs a producer on a thread of its own and hands the batches it fills to a consumer on the
/// calling thread, several batches in flight: on two cores, parsing batches overlaps with
/// writing earlier ones. Batches are reused (a `Handoff`), so a long import allocates none
/// after the first.
public final class BatchPipeline<Batch>: Sendable {
  private let handoff: Handoff<Batch>

  public init(batches: [Batch]) {
    handoff = Handoff(batches)
  }

  /// `depth` batches, each made by `make`.
  public convenience init(make: () -> Batch) {
    self.init(batches: (0..<Self.depth).map { _ in make() })
  }

  /// Batches in flight. Parsing and writing each go in bursts (the parser inflates its input a
  /// chunk at a time, SQLite writes pages out when its cache fills), and with three the faster side
  /// waited for the slower at every burst: eight took the rows of the bench export's 1,000,000
  /// workouts from 1.53-1.72 s to 1.10-1.22 s (Docs/PerformanceNotes.md).
  public static var depth: Int { 8 }

  /// `produce` fills a batch and returns false once the input is exhausted (the batch it just
  /// filled is still consumed). `consume` sees every batch, in order, on the calling thread.
  /// An error on either side stops both and is rethrown here, after the producer has stopped.
  public func run(
    produce: @escaping @Sendable (inout Batch) throws -> Bool, consume: (inout Batch) throws -> Void
  ) throws {
    let done = DispatchSemaphore(value: 0)
    let producer = Thread { [handoff] in
      defer { done.signal() }
      while var batch = handoff.takeFree() {
        do {
          let more = try produce(&batch)
          // Handed over whole: a reference kept here would make the consumer's side copy it.
          handoff.put(consume batch)
          if !more { break }
        } catch {
          handoff.fail(error)
          return
        }
      }
      handoff.close()
    }
    producer.start()
    defer {
      handoff.stop()
      done.wait()  // the producer has let go of its input before the caller closes it
    }
    // `inout`, though the consumer only reads: a record passed on from a borrowed batch was copied
    // first (each of its arrays retained and released), which an exclusive access lets the compiler skip.
    while var batch = try handoff.takeQueued() {
      try consume(&batch)
      handoff.giveBack(consume batch)
    }
  }
}
