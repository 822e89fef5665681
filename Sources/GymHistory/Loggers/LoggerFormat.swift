import GymCLI
import GymCore

/// A workout logger's CSV export: its columns, and how one row becomes a session and a set.
protocol LoggerFormat {
  /// The export's columns, by name; rows are read by these names whatever their order.
  var columns: [String] { get }
  /// Other spellings of those names (older layouts, other languages) → the name in `columns`.
  var aliases: [String: String] { get }
  /// The columns without which the file is not this export.
  var required: [String] { get }
  /// Checks what `required` cannot say (one of two columns, a unit the file leaves to the user).
  func check(header: Set<String>) throws(InputError)
  /// The session a row belongs to and its set; nil for rows that are not sets.
  func parse(_ row: ImportRow) throws(InputError) -> (LoggedWorkout, LoggedSet?)?
  /// What a row `parse` refused was, read from its text alone: a set of a session (its place stays
  /// held, so the sets after it keep theirs: a set gym stored from an earlier export is neither
  /// overwritten by its neighbour nor left behind), a row that is no set (a rest timer), or unknown.
  func refused(_ row: ImportRow) -> RefusedRow
}

/// What a refused row of a logger's export was.
enum RefusedRow: Equatable {
  /// A set of the session with this key.
  case set(session: String)
  /// A row that holds no set (a rest timer, a note): no place to hold.
  case notASet
  /// Its session cannot be told: any session may miss a set.
  case unknown
}

extension LoggerFormat {
  var aliases: [String: String] { [:] }

  /// Whether a header is this export's: every required column, under any of its spellings.
  func recognises(_ columns: [String]) -> Bool {
    let names = Set(columns.map { aliases[$0] ?? $0 })
    return required.allSatisfy(names.contains)
  }
  func check(header: Set<String>) throws(InputError) {}
  func refused(_ row: ImportRow) -> RefusedRow { .unknown }
}
