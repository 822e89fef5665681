/// Reads RFC 4180 CSV records (quoted fields may hold commas, quotes and newlines; CRLF or LF),
/// streaming. The header names the fields; it must name each expected field exactly once.
public struct CSVRecordScanner: RecordScanner {
  private let input: InputBuffer
  private let delimiter: UInt8
  private var line = 1
  public private(set) var recordLine = 1
  /// The header's column names, once `readHeader` has read them.
  public private(set) var header: [String] = []
  private var columnToField: [Int?] = []
  /// Columns at the header's end without a name (a spreadsheet's empty columns, in another app's
  /// export): a record may leave them out.
  private var unnamedAtEnd = 0
  private var fields: [[UInt8]] = []
  private var quoted: [Bool] = []

  /// Bounds that keep a hostile file's cost linear and small: real exports have a few dozen
  /// columns and records of a few kilobytes (reviews included).
  public static let maximumColumns = 1000
  public static let maximumRecordBytes = InputBuffer.maximumRecordBytes

  public init(input: InputBuffer, delimiter: UInt8 = UInt8(ascii: ",")) {
    self.input = input
    self.delimiter = delimiter
  }

  /// The delimiter of the header line: `;` when it has more semicolons than commas, else `,`
  /// (spreadsheet exports in many locales use `;`).
  public static func detectDelimiter(_ input: InputBuffer) throws(InputError) -> UInt8 {
    // Each refill searches only the bytes it brought: a 16 MiB line without a break stays linear.
    var searched = 0
    while !input.storage[(input.start + searched)..<input.end].contains(where: { $0 == 10 || $0 == 13 }),
      input.end - input.start <= maximumRecordBytes
    {
      searched = input.end - input.start
      guard try input.refill() else { break }
    }
    let line = input.storage[input.start..<input.end].prefix { $0 != 10 && $0 != 13 }
    let semicolons = line.count { $0 == UInt8(ascii: ";") }
    let commas = line.count { $0 == UInt8(ascii: ",") }
    return semicolons > commas ? UInt8(ascii: ";") : UInt8(ascii: ",")
  }

  /// Reads the header and checks it against the expected fields (`required`: must all appear).
  /// With `ignoringUnknown`, other columns are skipped (third-party exports grow new columns).
  /// `aliases` maps other spellings of a column (a layout's or a language's) to its field name;
  /// `header` then holds the field names. A UTF-8 byte-order mark before the header is skipped.
  public mutating func readHeader(
    expected: RecordValues, required: [String], ignoringUnknown: Bool = false, aliases: [String: String] = [:],
    derived: Set<String> = [], keyedBy key: String? = nil
  ) throws(InputError) {
    try skipByteOrderMark()
    guard try readRecord() else { throw InputError(line: 1, message: "the CSV file is empty; it needs a header line") }
    guard fields.count <= Self.maximumColumns else {
      throw InputError(
        line: 1, message: "the header has \(fields.count) columns; a CSV gym reads has at most \(Self.maximumColumns)")
    }
    let written = fields.map { String(decoding: $0, as: UTF8.self) }
    let names = written.map { name in
      let trimmed = String(name.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
      return aliases[trimmed] ?? trimmed
    }
    header = names
    var fieldIndex: [String: Int] = [:]
    for (i, name) in expected.fieldNames.enumerated() { fieldIndex[name] = i }
    columnToField = names.map { fieldIndex[$0] }
    let present = Set(names)
    // Where unknown columns may be ignored, so may columns without a name (a spreadsheet adds them).
    let unnamed = { (name: String) in ignoringUnknown && name.isEmpty }
    unnamedAtEnd = names.reversed().prefix(while: unnamed).count
    // A derived column (worked out by `show`, not stored) is skipped like an unknown one, silently.
    let unknown = names.indices.filter {
      columnToField[$0] == nil && !derived.contains(names[$0]) && !unnamed(names[$0])
    }
    .map { written[$0] }
    // A header naming the key may leave required columns out (`list --fields id,notes`): its records
    // change the rows their keys name, and one with a new key is refused for what it lacks, by line.
    let missing = key.map(present.contains) == true ? [] : required.filter { !present.contains($0) }
    var seen: Set<String> = []
    let duplicated = Set(names.filter { !unnamed($0) && !seen.insert($0).inserted })
    // An unknown column is harmless where it may be ignored, but it is the likeliest reason why a
    // required one is missing (a header in another language), so it is named then.
    if ((!ignoringUnknown || !missing.isEmpty) && !unknown.isEmpty) || !missing.isEmpty || !duplicated.isEmpty {
      var problems: [String] = []
      if !unknown.isEmpty { problems.append("unknown column(s) \(unknown.joined(separator: ", "))") }
      if !missing.isEmpty { problems.append("missing column(s) \(missing.joined(separator: ", "))") }
      if !duplicated.isEmpty {
        problems.append("repeated column(s) \(duplicated.sorted().joined(separator: ", "))")
      }
      throw InputError(
        line: 1,
        message:
          "unexpected CSV header: \(problems.joined(separator: "; ")); expected: \(expected.fieldNames.joined(separator: ","))"
      )
    }
  }

  /// Skips a UTF-8 byte-order mark (spreadsheets write one), so a quoted first name reads as quoted.
  private func skipByteOrderMark() throws(InputError) {
    while input.end - input.start < 3, try input.refill() {}
    let s = input.storage
    if input.end - input.start >= 3, s[input.start] == 0xEF, s[input.start + 1] == 0xBB, s[input.start + 2] == 0xBF {
      input.start += 3
    }
  }

  /// The next record; one whose fields do not match the header's in number is an error (gym's own
  /// formats are all or nothing).
  public mutating func next(into values: inout RecordValues) throws(InputError) -> Bool {
    try next(into: &values, ragged: { problem throws(InputError) in throw problem })
  }

  /// The next record; one with more or fewer fields than the header (a row a spreadsheet cut short,
  /// a last line cut off) goes to `ragged` and is passed over when it returns: another app's export
  /// skips it and goes on, or refuses the file by throwing (`--strict`).
  public mutating func next(
    into values: inout RecordValues, ragged: (InputError) throws(InputError) -> Void
  ) throws(InputError) -> Bool {
    try next(into: &values, raggedRecord: { problem, _ throws(InputError) in try ragged(problem) })
  }

  /// `next(into:ragged:)`, `ragged` given what the record holds in the header's columns (as far as
  /// it goes): an importer can still tell whose record it was (a workout logger's session).
  public mutating func next(
    into values: inout RecordValues, raggedRecord ragged: (InputError, RecordValues) throws(InputError) -> Void
  ) throws(InputError) -> Bool {
    values.reset()
    while true {
      guard try readRecord() else { return false }
      if fields.count == 1 && fields[0].isEmpty && !quoted[0] { continue }  // blank line
      guard fields.count <= columnToField.count && fields.count >= columnToField.count - unnamedAtEnd else {
        for (column, bytes) in fields.enumerated() where column < columnToField.count {
          guard let field = columnToField[column] else { continue }
          values.set(field, kind: bytes.isEmpty && !quoted[column] ? .null : .string, bytes: bytes)
        }
        try ragged(
          InputError(
            line: recordLine,
            message: "the record has \(fields.count) fields but the header has \(columnToField.count)"),
          values)
        values.reset()
        continue
      }
      for (column, bytes) in fields.enumerated() {
        guard let field = columnToField[column] else { continue }
        values.set(field, kind: bytes.isEmpty && !quoted[column] ? .null : .string, bytes: bytes)
      }
      return true
    }
  }

  /// Splits the next record into `fields`; false at the end of the input.
  private mutating func readRecord() throws(InputError) -> Bool {
    // Bytes after `input.start` known to hold no line break: a record cannot end in them, so they are
    // searched once, not rescanned on every refill (a 16 MiB line stays linear).
    var searched = 0
    while true {
      let hasBreak = input.storage[(input.start + searched)..<input.end].contains { $0 == 10 || $0 == 13 }
      if !hasBreak { searched = input.end - input.start }
      switch hasBreak ? scan() : nil {
      case .some(let end):
        // Checked on the record itself: the buffer may have grown past the limit before it ended.
        guard end - input.start <= Self.maximumRecordBytes else {
          throw InputError(
            line: line,
            message: "a record is longer than \(Self.maximumRecordBytes >> 20) MiB (is this the export itself?)")
        }
        // A line ends at LF, CRLF, or a CR alone (the old Mac "CSV (Macintosh)" files).
        for i in input.start..<end
        where input.storage[i] == 10 || input.storage[i] == 13 && (i + 1 == end || input.storage[i + 1] != 10) {
          line += 1
        }
        input.start = end
        return true
      case .none:
        guard input.end - input.start <= Self.maximumRecordBytes else {
          throw InputError(
            line: line,
            message: "a record is longer than \(Self.maximumRecordBytes >> 20) MiB (is this the export itself?)")
        }
        if try !input.refill() {
          if input.start == input.end { return false }
          // The last record has no line break: the end of input closes it.
          if let end = scan(atEOF: true) {
            input.start = end
            return true
          }
          throw InputError(line: recordLine, message: "a quoted field is not closed before the end of the input")
        }
      }
    }
  }

  /// The end offset of the record at `input.start`, or nil when it is not complete yet.
  private mutating func scan(atEOF: Bool = false) -> Int? {
    fields.removeAll(keepingCapacity: true)
    quoted.removeAll(keepingCapacity: true)
    recordLine = line
    let s = input.storage
    let end = input.end
    var i = input.start
    var field: [UInt8] = []
    while true {
      field.removeAll(keepingCapacity: true)
      var isQuoted = false
      if i < end, s[i] == 34 {
        isQuoted = true
        i += 1
        while true {
          guard i < end else { return nil }
          if s[i] == 34 {
            if i + 1 < end, s[i + 1] == 34 {
              field.append(34)
              i += 2
              continue
            }
            if i + 1 >= end && !atEOF { return nil }
            i += 1
            break
          }
          field.append(s[i])
          i += 1
        }
      }
      while i < end, s[i] != delimiter, s[i] != 10, s[i] != 13 {
        field.append(s[i])
        i += 1
      }
      fields.append(field)
      quoted.append(isQuoted)
      guard i < end else { return atEOF ? end : nil }
      if s[i] == delimiter {
        i += 1
        continue
      }
      if s[i] == 13 {
        guard i + 1 < end else { return atEOF ? end : nil }
        return s[i + 1] == 10 ? i + 2 : i + 1
      }
      return i + 1
    }
  }
}
