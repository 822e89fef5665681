import Foundation

/// Two threads passing a fixed set of reusable items: the producer takes a free item, fills it and
/// queues it; the consumer takes the queued items in order, uses each and gives it back. The
/// fixed set bounds memory whatever the size of the input, and reuse means nothing is allocated
/// after the first items. The one design behind every overlap of work gym does on two cores:
/// parsing with writing (`BatchPipeline`), encoding with compressing (`BackgroundSink`), inflating
/// a zip with parsing what it holds (the Apple Health import).
///
/// An item belongs to one side at a time (it moves between the lists under the lock), which is why
/// the class can be `@unchecked Sendable`.
public final class Handoff<Item>: @unchecked Sendable {
  private let condition = NSCondition()
  private var free: [Item]
  private var queued: [Item] = []
  /// The producer queues no more.
  private var closed = false
  /// The consumer takes no more: the producer stops at its next `takeFree`.
  private var stopped = false
  private var failure: (any Error)?

  public init(_ items: [Item]) {
    precondition(!items.isEmpty, "a handoff needs at least one item")
    free = items
  }

  /// Producer: an item to fill; nil once the consumer stopped or either side failed.
  public func takeFree() -> Item? {
    condition.lock()
    defer { condition.unlock() }
    while free.isEmpty && !stopped && failure == nil { condition.wait() }
    guard !stopped && failure == nil else { return nil }
    return free.removeLast()
  }

  /// Producer: queues a filled item for the consumer.
  public func put(_ item: consuming Item) {
    condition.lock()
    queued.append(item)
    condition.broadcast()
    condition.unlock()
  }

  /// Producer: nothing more will be queued.
  public func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  /// Consumer: the next queued item; nil after the last one. An item queued before a failure is
  /// still handed over; after it, the failure is thrown.
  public func takeQueued() throws -> Item? {
    condition.lock()
    defer { condition.unlock() }
    while queued.isEmpty && !closed && failure == nil { condition.wait() }
    guard queued.isEmpty else { return queued.removeFirst() }
    if let failure { throw failure }
    return nil
  }

  /// Consumer: gives a used item back to be filled again.
  public func giveBack(_ item: consuming Item) {
    condition.lock()
    free.append(item)
    condition.broadcast()
    condition.unlock()
  }

  /// Either side: stops both; the first error is the one kept.
  public func fail(_ error: any Error) {
    condition.lock()
    if failure == nil { failure = error }
    condition.broadcast()
    condition.unlock()
  }

  /// Consumer: takes no more (an error of its own, or it needs no more); the producer stops.
  public func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  /// The error that stopped it, if one did.
  public var error: (any Error)? { condition.withLock { failure } }
}
