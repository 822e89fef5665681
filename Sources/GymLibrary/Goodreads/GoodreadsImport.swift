import GRDB
import GymCLI
import GymCore

/// What a Goodreads import did.
struct GoodreadsCounts: Equatable {
  var rows = 0
  var added = 0
  var updated = 0
  var unchanged = 0
  var authorsAdded = 0
  var warnings = 0
  /// Rows per `Exclusive Shelf`, the user's own shelves included.
  var shelves: [String: Int] = [:]

  func summary(verb: String) -> String {
    let shelfList = shelves.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
      .map { "\($0.key) \($0.value)" + (GoodreadsFormat.statusOfShelf[$0.key] == nil ? " (kept as a tag)" : "") }
    return "\(verb) \(rows) books: works \(added) added, \(updated) updated, \(unchanged) unchanged; "
      + "authors \(authorsAdded) added; shelves seen: \(shelfList.isEmpty ? "none" : shelfList.joined(separator: ", "))"
      + (warnings > 0 ? "; \(warnings) warning\(warnings == 1 ? "" : "s")" : "")
  }
}

/// Imports a Goodreads export: streaming row by row, all in one transaction (a bad row imports
/// nothing), idempotent (a row whose Book Id exists updates its work in place when it differs).
struct GoodreadsImport {
  let path: String
  /// How many warnings are printed one per line; the rest are only counted.
  static let shownWarnings = 10

  func run(openStore: (() throws -> Store)?, progress: ProgressLine, now: Timestamp = .now()) throws
    -> GoodreadsCounts
  {
    let file = try ImportInput(path)
    progress.measure(file.descriptor)
    defer { file.close() }
    let input = InputBuffer(descriptor: file.descriptor)
    do {
      try input.refuseBinary()
      var scanner = CSVRecordScanner(input: input)
      var values = RecordValues(fieldNames: GoodreadsFormat.columns)
      try scanner.readHeader(expected: values, required: [], ignoringUnknown: true)
      let missing = GoodreadsFormat.required.filter { !scanner.header.contains($0) }
      guard missing.isEmpty else {
        throw InputError(
          line: 1,
          message: "not a Goodreads export: missing column(s) \(missing.joined(separator: ", ")) "
            + "(export it from My Books → Import and export)")
      }
      func load(_ writer: LibraryWriter?) throws -> GoodreadsCounts {
        var counts = GoodreadsCounts()
        while try scanner.next(into: &values) {
          counts.rows += 1
          progress.update(counts.rows, unit: "rows")
          let row = ImportRow(values: values, line: scanner.recordLine)
          let book = try GoodreadsFormat.book(row) { warning in
            counts.warnings += 1
            if counts.warnings <= Self.shownWarnings {
              progress.finish()
              printError("\(file.displayName):\(row.line): warning: \(warning)")
            }
          }
          counts.shelves[row.text("Exclusive Shelf") ?? "", default: 0] += 1
          guard let writer else { continue }
          switch try writer.save(book, importing: true).outcome {
          case .added: counts.added += 1
          case .updated: counts.updated += 1
          case .unchanged: counts.unchanged += 1
          }
        }
        counts.authorsAdded = writer?.authorsAdded ?? 0
        return counts
      }
      guard let store = try openStore?() else { return try load(nil) }
      return try store.write { db in try load(LibraryWriter(db, now: now)) }
    } catch let error as InputError {
      throw file.failure(error)
    }
  }
}
