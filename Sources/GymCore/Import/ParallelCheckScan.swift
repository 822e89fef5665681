import Foundation
import GRDB

/// A bulk load's CHECK scan (`CheckConstraints.firstViolation`) on one connection per core: each
/// table of many rows is cut into as many rowid ranges, and each range is scanned by a read-only
/// connection of its own. Only for a database nothing else writes while it runs (a
/// `FreshDatabase` between the commit of its rows and the build of its indexes): the scan of the
/// bench export's 1,000,000 workouts took 0.35–0.40 s on one core, 0.18–0.27 s on two
/// (Docs/PerformanceNotes.md).
public enum ParallelCheckScan {
  public struct Violation: Equatable, Sendable {
    public let table: String
    public let rowid: Int64
    public let check: String
  }

  /// The first row, in the order of `tables` and then of rowids, that breaks one of its table's
  /// CHECKs: the row a scan of one table after another would find. A table whose rowids span
  /// fewer than `rowsPerRange` is scanned whole, by one connection. At most four connections, as
  /// SQLite's sorter takes at most four threads for the index builds (`DeferredIndexes`).
  public static func firstViolation(
    path: String, tables: [String], workers: Int = ProcessInfo.processInfo.activeProcessorCount,
    rowsPerRange: Int64 = 100_000
  ) throws -> Violation? {
    let workers = min(max(1, workers), 4)
    do {
      let tasks = try DatabaseQueue(path: path, configuration: readOnly).read { db in
        try tables.flatMap { try ranges(db, table: $0, parts: workers, rowsPerRange: rowsPerRange) }
      }
      let scan = Scan(tasks: tasks)
      DispatchQueue.concurrentPerform(iterations: min(workers, tasks.count)) { _ in scan.work(path: path) }
      return try scan.firstViolation()
    } catch let error as DatabaseError {
      // The file's fault (it cannot be opened or read), not the rows'.
      throw Store.translate(error, path: path, timeout: 0)
    }
  }

  private struct Task {
    let table: String
    let rowids: ClosedRange<Int64>?
  }

  private static var readOnly: Configuration {
    var configuration = Configuration()
    configuration.readonly = true
    return configuration
  }

  /// The table whole, or cut into `parts` rowid ranges when its rowids span many.
  private static func ranges(_ db: Database, table: String, parts: Int, rowsPerRange: Int64) throws -> [Task] {
    guard !(try CheckConstraints.expressions(db, table: table)).isEmpty else { return [] }
    // Each in a query of its own, which reads one end of the table; together they read all of it.
    let name = SQL.quote(table)
    let bounds = try Row.fetchOne(db, sql: "SELECT (SELECT min(rowid) FROM \(name)), (SELECT max(rowid) FROM \(name))")
    guard parts > 1, let low = bounds?[0] as Int64?, let high = bounds?[1] as Int64? else {
      return [Task(table: table, rowids: nil)]
    }
    // Rowids may be any 64-bit value: a span past Int64.max is scanned whole.
    let (span, overflow) = high.subtractingReportingOverflow(low)
    guard !overflow, span >= rowsPerRange else { return [Task(table: table, rowids: nil)] }
    let width = span / Int64(parts) + 1
    var tasks: [Task] = []
    var start = low
    while true {
      let (end, past) = start.addingReportingOverflow(width - 1)
      let last = past || end >= high ? high : end
      tasks.append(Task(table: table, rowids: start...last))
      if last == high { return tasks }
      start = last + 1
    }
  }

  /// The tasks, taken one at a time by each worker, and what each found.
  private final class Scan: @unchecked Sendable {
    private let tasks: [Task]
    private let lock = NSLock()
    private var next = 0
    private var found: [Violation?]
    private var failure: (any Error)?

    init(tasks: [Task]) {
      self.tasks = tasks
      found = Array(repeating: nil, count: tasks.count)
    }

    func work(path: String) {
      do {
        let queue = try DatabaseQueue(path: path, configuration: ParallelCheckScan.readOnly)
        try queue.read { db in
          while let index = take() {
            let task = tasks[index]
            if let (rowid, check) = try CheckConstraints.firstViolation(db, table: task.table, rowids: task.rowids) {
              record(Violation(table: task.table, rowid: rowid, check: check), at: index)
            }
          }
        }
      } catch {
        lock.withLock { failure = failure ?? error }
      }
    }

    /// The next task; nil when none is left or a worker failed.
    private func take() -> Int? {
      lock.withLock {
        guard failure == nil, next < tasks.count else { return nil }
        next += 1
        return next - 1
      }
    }

    private func record(_ violation: Violation, at index: Int) {
      lock.withLock { found[index] = violation }
    }

    func firstViolation() throws -> Violation? {
      try lock.withLock {
        if let failure { throw failure }
        return found.lazy.compactMap { $0 }.first
      }
    }
  }
}
