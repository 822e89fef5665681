import GRDB
import GymCLI
import GymCore

/// A book tracker's library export, read by column name: what the file is called, the columns it
/// may hold, the ones without which it is not that export, and one row as a book.
protocol LibraryExportFormat {
  static var name: String { get }
  /// Where the user gets the file, for the error when it is not that export.
  static var whereToExport: String { get }
  static var columns: [String] { get }
  /// A file lacking one of each group (alternative names of one column) is refused.
  static var required: [[String]] { get }
  /// The shelf or status a row is on, as the file writes it (counted in the summary).
  static func shelf(_ row: ImportRow) -> String
  /// Whether a shelf is one of the app's own or a shelf of the user's (kept as a tag).
  static func isOwnShelf(_ shelf: String) -> Bool
  /// One row as a book; a recoverable problem is a warning, anything else wrong an error.
  static func book(_ row: ImportRow, warn: (String) -> Void) throws(InputError) -> LibraryBook
}

/// What an import did.
struct LibraryImportCounts {
  var rows = 0
  var added = 0
  var updated = 0
  var unchanged = 0
  var authorsAdded = 0
  var warnings = 0
  /// Rows gym could not read, skipped and told (with `--strict`, the first refuses the file).
  var skips = ImportSkips(strict: true, displayName: "")
  /// Rows per shelf or status, the user's own shelves included.
  var shelves: [String: Int] = [:]

  func summary(verb: String, isOwnShelf: (String) -> Bool) -> String {
    let shelfList = shelves.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
      .map { "\($0.key.isEmpty ? "(none)" : $0.key) \($0.value)" + (isOwnShelf($0.key) ? "" : " (kept as a tag)") }
    // The books read, not the rows: a skipped row is no book (it is counted after, with its line).
    return "\(verb) \(rows - skips.count) books: works \(added) added, \(updated) updated, \(unchanged) unchanged; "
      + "authors \(authorsAdded) added; shelves seen: \(shelfList.isEmpty ? "none" : shelfList.joined(separator: ", "))"
      + (warnings > 0 ? "; \(warnings) warning\(warnings == 1 ? "" : "s")" : "") + skips.summary
  }
}

/// Imports an export file: streaming row by row, all in one transaction (a row gym cannot read is
/// skipped and told, or with `strict` refuses the file),
/// idempotent (a work found again — by the app's id, else by title and authors — is updated in place
/// when it differs, and readings are only ever added).
struct ExportFileImport<Format: LibraryExportFormat> {
  let path: String
  /// The input when the command opened it already (to recognise it by its header); else `path`.
  var opened: ImportInput?
  var strict = false
  /// How many warnings are printed one per line; the rest are only counted.
  static var shownWarnings: Int { 10 }

  func run(openStore: (() throws -> Store)?, progress: ProgressLine, now: Timestamp = .now()) throws
    -> LibraryImportCounts
  {
    let file = try opened ?? ImportInput(path)
    progress.measure(file.descriptor)
    defer { file.close() }
    let input = file.buffer
    do {
      try input.refuseBinary()
      // A spreadsheet that saved the export again may have used `;` (as Strong's and Hevy's files can).
      var scanner = CSVRecordScanner(input: input, delimiter: try CSVRecordScanner.detectDelimiter(input))
      var values = RecordValues(fieldNames: Format.columns)
      try scanner.readHeader(expected: values, required: [], ignoringUnknown: true)
      let missing = Format.required.filter { group in !group.contains(where: scanner.header.contains) }
      guard missing.isEmpty else {
        throw InputError(
          line: 1,
          message: "not a \(Format.name) export: missing column(s) \(missing.map { $0[0] }.joined(separator: ", ")) "
            + "(\(Format.whereToExport))")
      }
      func load(_ writer: LibraryWriter?) throws -> LibraryImportCounts {
        var counts = LibraryImportCounts()
        counts.skips = ImportSkips(strict: strict, displayName: file.displayName)
        while try scanner.next(
          into: &values,
          ragged: { problem throws(InputError) in
            counts.rows += 1
            try counts.skips.skip(problem, progress: progress)
          })
        {
          counts.rows += 1
          progress.update(counts.rows, unit: "rows")
          let row: ImportRow
          let book: LibraryBook
          do {
            row = try ImportRow(values: values, line: scanner.recordLine)
            book = try Format.book(row) { warning in
              counts.warnings += 1
              if counts.warnings <= Self.shownWarnings {
                progress.finish()
                printError(ErrorReporting.oneLine("\(file.displayName):\(scanner.recordLine): warning: \(warning)"))
              }
            }
          } catch {
            try counts.skips.skip(error, progress: progress)
            continue
          }
          counts.shelves[Format.shelf(row), default: 0] += 1
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
      return try store.write { db in
        let deferrals = try libraryModule.derivedIndexes.compactMap { try DerivedIndexDeferral(db, $0) }
        let counts = try load(LibraryWriter(db, now: now))
        for deferral in deferrals { try deferral.finish(db) }
        return counts
      }
    } catch let error as InputError {
      throw file.failure(error)
    }
  }
}
