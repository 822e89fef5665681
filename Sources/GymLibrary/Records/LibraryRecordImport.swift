import GRDB
import GymCLI
import GymCore

/// `gym library import gym FILE`: works as `library list` (any `--fields`) and `library show`
/// print them, in JSON, NDJSON or CSV. A record names its work by `id`, else `goodreadsId`, else
/// title and authors; a work found is updated in the fields the record gives (one it leaves out
/// keeps its value), one not found is added, with the record's id when that id is free, so a
/// library printed whole imports into an empty database as it was. All or nothing; importing the
/// same file again changes nothing.
struct LibraryRecordImport {
  let path: String
  /// The input when the command opened it already (to recognise it by its header); else `path`.
  var opened: ImportInput?
  let format: InputFormat?

  struct Counts: Equatable {
    var read = 0
    var added = 0
    var updated = 0
    var unchanged = 0
  }

  /// The fields a record may give: the list's, and `show`'s own; `show`'s arrays are read as nested.
  static let fields = LibrarySchema.list.fieldNames + ["goodreadsId", "review"]
  static let nested: [(name: String, fieldNames: [String])] = [
    ("authors", ["id", "name", "sortName"]),
    ("editions", ["id", "isbn10", "isbn13", "publisher", "binding", "pageCount", "year", "source"]),
    // Entries printed before readings (library/003) carried their dates and read count: read as a claim.
    (
      "entries",
      [
        "id", "readingStatus", "rating", "dateAdded", "review", "ownedCopies", "shelves", "dateStarted", "dateFinished",
        "readCount",
      ]
    ),
    ("readings", ["id", "started", "finished", "status", "pages", "percent"]),
  ]

  func run(openStore: (() throws -> Store)?, progress: ProgressLine) throws -> Counts {
    let file = try opened ?? ImportInput(path)
    defer { file.close() }
    progress.measure(file.descriptor)
    let input = file.buffer
    do {
      try input.refuseBinary()
      var values = RecordValues(fieldNames: Self.fields)
      var json: JSONRecordScanner?
      var csv: CSVRecordScanner?
      if try RecordImport.detectFormat(input, path: path, given: format) == .csv {
        var scanner = CSVRecordScanner(input: input)
        try scanner.readHeader(expected: values, required: [])
        csv = scanner
      } else {
        json = JSONRecordScanner(input: input, nested: Self.nested)
      }
      func load(_ db: Database?) throws -> Counts {
        var counts = Counts()
        let writer = db.map { LibraryWriter($0, now: .now()) }
        while try json?.next(into: &values) ?? csv!.next(into: &values) {
          let line = json?.recordLine ?? csv!.recordLine
          let record = try WorkRecord(values, nested: json?.nested ?? [], line: line)
          counts.read += 1
          progress.update(counts.read)
          guard let writer else { continue }
          switch try record.apply(writer) {
          case .added: counts.added += 1
          case .updated: counts.updated += 1
          case .unchanged: counts.unchanged += 1
          }
        }
        return counts
      }
      guard let store = try openStore?() else { return try load(nil) }
      return try store.write { try load($0) }
    } catch let error as InputError {
      throw file.failure(error)
    }
  }
}
