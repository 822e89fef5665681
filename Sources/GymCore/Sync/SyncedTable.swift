/// A table whose rows every device of a synced database shares: its primary key means the same
/// row everywhere (`GlobalKey`), and `counters` are the columns that merge as the sum of every
/// device's changes (what each took from a lot of stock), never below zero, instead of the later
/// value winning.
public struct SyncedTable: Sendable, Equatable {
  public let name: String
  public let counters: Set<String>

  public init(_ name: String, counters: Set<String> = []) {
    self.name = name
    self.counters = counters
  }
}
