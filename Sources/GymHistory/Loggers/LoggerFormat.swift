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
  /// The session of a row `parse` refused, read from its text alone, when the row would have been
  /// one of the session's sets: its place stays held, so the sets after it keep theirs (a set gym
  /// stored from an earlier export is neither overwritten by its neighbour nor left behind). nil
  /// when the row names no session or is not a set.
  func session(ofRefused row: ImportRow) -> String?
}

extension LoggerFormat {
  var aliases: [String: String] { [:] }

  /// Whether a header is this export's: every required column, under any of its spellings.
  func recognises(_ columns: [String]) -> Bool {
    let names = Set(columns.map { aliases[$0] ?? $0 })
    return required.allSatisfy(names.contains)
  }
  func check(header: Set<String>) throws(InputError) {}
  func session(ofRefused row: ImportRow) -> String? { nil }
}
