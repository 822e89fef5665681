import Foundation
import GRDB
import Testing

@testable import GymCore

/// The streaming scanners and the bulk loader, fed through real pipes.
@Suite struct ImportTests {
  let fields = ["id", "name", "kind", "size", "at", "note"]

  func input(_ text: String) throws -> InputBuffer {
    let path = try Fixtures.temporaryDirectory() + "/input"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return InputBuffer(descriptor: open(path, O_RDONLY))
  }

  func records(json text: String) throws -> [[String: String]] {
    var scanner = JSONRecordScanner(input: try input(text))
    var values = RecordValues(fieldNames: fields)
    var result: [[String: String]] = []
    while try scanner.next(into: &values) {
      var record: [String: String] = [:]
      for (i, name) in fields.enumerated() where values.kinds[i] != .missing {
        record[name] = values.kinds[i] == .null ? "<null>" : values.string(i)
      }
      result.append(record)
    }
    return result
  }

  @Test func readsNDJSONAndArraysAlike() throws {
    let lines = "{\"name\":\"a\",\"size\":1}\n\n{\"name\":\"b\",\"size\":-2.5e3,\"note\":null}\n"
    let array = "[\n  {\"name\": \"a\", \"size\": 1},\n  {\"name\": \"b\", \"size\": -2.5e3, \"note\": null}\n]"
    let expected = [["name": "a", "size": "1"], ["name": "b", "size": "-2.5e3", "note": "<null>"]]
    #expect(try records(json: lines) == expected)
    #expect(try records(json: array) == expected)
  }

  @Test func decodesEscapes() throws {
    let text = #"{"name":"quote \" slash \\ nl \n tab \t é \u00e9 \ud83d\ude00"}"#
    #expect(try records(json: text) == [["name": "quote \" slash \\ nl \n tab \t é é 😀"]])
  }

  /// Plain text is taken where it lies and escaped text decoded, wherever the escape falls: names
  /// in any order (the next field's name is tried first), a name spelled with an escape, an escape
  /// first or last in a value, empty names and values; a control byte is refused after plain text
  /// as after an escape.
  @Test func namesInAnyOrderAndEscapesAnywhere() throws {
    let text = [
      #"{"note":"\u0041b","kind":"x\"","id":"","size":2}"#,
      #"{"n\u0061me":"\tlead","at":"mid\/dle","size":-1}"#,
      #"{"name":"é\u00e9","note":"first"}"#,
    ].joined(separator: "\n")
    #expect(
      try records(json: text) == [
        ["note": "Ab", "kind": "x\"", "id": "", "size": "2"],
        ["name": "\tlead", "at": "mid/dle", "size": "-1"],
        ["name": "éé", "note": "first"],
      ])
    // A name given twice (here once escaped) is refused: which value was meant, the file does not say.
    do {
      _ = try records(json: #"{"name":"a"}"# + "\n" + #"{"note":"first","n\u006fte":"again"}"#)
      Issue.record("expected an error")
    } catch let error as InputError {
      #expect(error.line == 2 && error.message == "the field 'note' is given twice in one record", "\(error)")
    }
    #expect(throws: InputError.self) { try records(json: #"{"":1}"#) }
    #expect(throws: InputError.self) { try records(json: "{\"name\":\"ab\u{1}c\"}") }
    #expect(throws: InputError.self) { try records(json: "{\"name\":\"a\\\\n\u{1}\"}") }
    #expect(throws: InputError.self) { try records(json: "{\"na\u{1}me\":1}") }
  }

  @Test func reportsTheLineOfAMalformedRecord() throws {
    let text = "{\"name\":\"a\"}\n{\"name\":\"b\"}\n{\"name\": oops}\n"
    #expect(throws: InputError.self) { try records(json: text) }
    do {
      _ = try records(json: text)
    } catch let error as InputError {
      #expect(error.line == 3)
    }
  }

  @Test func unknownFieldsAndNestingAreErrors() throws {
    #expect(throws: InputError.self) { try records(json: #"{"bogus":1}"#) }
    #expect(throws: InputError.self) { try records(json: #"{"name":{"x":1}}"#) }
    #expect(throws: InputError.self) { try records(json: #"{"name":"cut"#) }
    #expect(throws: InputError.self) { try records(json: #"[{"name":"a"}"#) }
  }

  @Test func recordsLongerThanAChunkAreReadWhole() throws {
    let long = String(repeating: "x", count: 3 << 20)
    #expect(try records(json: "{\"name\":\"\(long)\"}\n{\"name\":\"y\"}") == [["name": long], ["name": "y"]])
  }

  @Test func readsRFC4180CSV() throws {
    let text = "\u{FEFF}name,size,note\r\n\"a, \"\"quoted\"\"\nline\",1,\r\nb,2,\"\"\n"
    var scanner = CSVRecordScanner(input: try input(text))
    var values = RecordValues(fieldNames: fields)
    try scanner.readHeader(expected: values, required: ["name"])
    #expect(try scanner.next(into: &values))
    #expect(values.string(0 + 1) == "a, \"quoted\"\nline")
    #expect(values.kinds[5] == .null)
    #expect(try scanner.next(into: &values))
    #expect(scanner.recordLine == 4)
    #expect(values.kinds[5] == .string)
    #expect(try !scanner.next(into: &values))
  }

  /// Old Mac spreadsheets end lines with a CR alone: each one is a line, so a record is named by the
  /// line it is on (a CR inside quotes too, as a line break in the field).
  @Test func aCarriageReturnAloneEndsALine() throws {
    let text = "name,size\ra,1\r\"b\rc\",2\rd,3\r\ne,4"
    var scanner = CSVRecordScanner(input: try input(text))
    var values = RecordValues(fieldNames: fields)
    try scanner.readHeader(expected: values, required: ["name"])
    var seen: [(String, Int)] = []
    while try scanner.next(into: &values) { seen.append((values.string(1), scanner.recordLine)) }
    #expect(seen.map(\.0) == ["a", "b\rc", "d", "e"])
    #expect(seen.map(\.1) == [2, 3, 5, 6])
  }

  /// Another app's export saved again by a spreadsheet can end its header in empty columns: they
  /// are ignored like unknown ones, and a record may leave them out. gym's own formats still refuse them.
  @Test func emptyColumnsAtTheHeadersEndAreIgnoredWhereUnknownOnesAre() throws {
    let text = "name,size,,\na,1,,\nb,2\nc,3,\n"
    var scanner = CSVRecordScanner(input: try input(text))
    var values = RecordValues(fieldNames: fields)
    try scanner.readHeader(expected: values, required: ["name"], ignoringUnknown: true)
    var names: [String] = []
    while try scanner.next(into: &values) { names.append(values.string(1)) }
    #expect(names == ["a", "b", "c"])
    var strict = CSVRecordScanner(input: try input(text))
    #expect(throws: InputError.self) { try strict.readHeader(expected: values, required: ["name"]) }
  }

  /// Spreadsheets add a byte-order mark, and real Hevy exports quote every header name: the mark
  /// must not make the first name read as unquoted `\u{FEFF}"name"`.
  @Test func byteOrderMarkBeforeAQuotedHeaderName() throws {
    let text = "\u{FEFF}\"name\",\"size\"\r\n\"a\",2\r\n\r\n\n"
    var scanner = CSVRecordScanner(input: try input(text))
    var values = RecordValues(fieldNames: fields)
    try scanner.readHeader(expected: values, required: ["name", "size"])
    #expect(scanner.header == ["name", "size"])
    #expect(try scanner.next(into: &values))
    #expect(values.string(1) == "a")
    #expect(values.string(3) == "2")
    #expect(try !scanner.next(into: &values))
  }

  @Test func aliasesMapAnotherSpellingToTheField() throws {
    var scanner = CSVRecordScanner(input: try input("Nom ,taille\nx,3\n"))
    var values = RecordValues(fieldNames: fields)
    try scanner.readHeader(expected: values, required: ["name", "size"], aliases: ["Nom": "name", "taille": "size"])
    #expect(scanner.header == ["name", "size"])
    #expect(try scanner.next(into: &values))
    #expect(values.string(1) == "x")
  }

  @Test func ignoredUnknownColumnsAreNamedWhenARequiredOneIsMissing() throws {
    var scanner = CSVRecordScanner(input: try input("nome,taglia\n"))
    do {
      try scanner.readHeader(expected: RecordValues(fieldNames: fields), required: ["name"], ignoringUnknown: true)
      Issue.record("expected an error")
    } catch {
      #expect(error.message.contains("unknown column(s) nome, taglia"))
      #expect(error.message.contains("missing column(s) name"))
    }
  }

  @Test func csvHeaderProblemsNameTheColumns() throws {
    var scanner = CSVRecordScanner(input: try input("name,colour\n"))
    do {
      try scanner.readHeader(expected: RecordValues(fieldNames: fields), required: ["name", "size"])
      Issue.record("expected an error")
    } catch {
      #expect(error.message.contains("unknown column(s) colour"))
      #expect(error.message.contains("missing column(s) size"))
    }
  }

  @Test func loaderInsertsUpdatesAndSkipsUnchanged() throws {
    let store = try Fixtures.store()
    let id = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    func load(_ text: String) throws -> ImportCounts {
      try store.write { db in
        var scanner = JSONRecordScanner(input: try input(text))
        return try BulkLoader(table: Fixtures.table, conflict: .updateChanged(key: "id"), db: db).load(from: &scanner)
      }
    }
    let first = #"{"id":"\#(id)","name":"n","kind":"a","size":3,"at":"2025-01-01T10:00:00+01:00"}"#
    #expect(try load(first).inserted == 1)
    #expect(try load(first).unchanged == 1)
    #expect(try load(first.replacingOccurrences(of: "\"size\":3", with: "\"size\":4")).updated == 1)
    let row = try store.read { try Row.fetchOne($0, sql: "SELECT id, at, size, note FROM item") }
    #expect(row?["id"] == id.lowercased())
    #expect(row?["at"] == "2025-01-01T09:00:00.000Z")
    #expect(row?["size"] == 4)
    #expect(row?["note"] == nil as String?)
  }

  /// A lone high surrogate is told as one wherever it stands, at the very end of the input too (it was
  /// told as a record cut off there); a pair still reads as its character.
  @Test func aLoneSurrogateIsToldAsOneAtTheEnd() throws {
    for text in [#"{"name":"\ud800"}"#, #"{"name":"\ud800"}"# + "\n", #"{"name":"\ud800x"}"#, #"{"name":"\ud800\"#] {
      var scanner = JSONRecordScanner(input: try input(text))
      var values = RecordValues(fieldNames: Fixtures.table.fieldNames)
      do {
        _ = try scanner.next(into: &values)
        Issue.record("no error for \(text)")
      } catch {
        let expected = text.hasSuffix(#"\"#) ? "cut off" : "unpaired UTF-16 surrogate"
        #expect(error.message.contains(expected), "\(text): \(error.message)")
      }
    }
    #expect(try records(json: #"{"name":"\ud83d\ude00"}"#) == [["name": "😀"]])
  }

  @Test func loaderRejectsWrongTypesWithTheField() throws {
    let base = #"{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","name":"n","kind":"a","size":3,"at":"2025-01-01"}"#
    let cases = [
      base.replacingOccurrences(of: "\"kind\":\"a\"", with: "\"kind\":\"z\""),
      base.replacingOccurrences(of: "\"size\":3", with: "\"size\":3.5"),
      base.replacingOccurrences(of: "2025-01-01", with: "yesterday"),
      base.replacingOccurrences(of: "\"name\":\"n\",", with: ""),
      base.replacingOccurrences(of: "6f9619ff", with: "zzzz"),
    ]
    for text in cases {
      var scanner = JSONRecordScanner(input: try input(text))
      let loader = try BulkLoader(table: Fixtures.table, conflict: .updateChanged(key: "id"), db: nil)
      #expect(throws: InputError.self, "\(text)") { try loader.load(from: &scanner) }
    }
  }

  /// A pipe may deliver a byte at a time: every document shape reads the same as in one piece,
  /// including `[` or `{"items": [` arriving alone (a record cut off is parsed again from its start).
  @Test func documentsReadTheSameOneByteAtATime() throws {
    let documents = [
      #"[{"id":"a","size":1},{"id":"b","size":2}]"#,
      #"{"items": [{"id":"a","size":1}, {"id":"b","size":2}], "next": "Y3Vyc29y"}"#,
      #"{ "items" :[ {"id":"a","size":1},{"id":"b","size":2} ] ,"next":null }"#,
      "{\"id\":\"a\",\"size\":1}\n{\"id\":\"b\",\"size\":2}\n",
      #"{"note":"x\ty\u00e9","i\u0064":"a","size":1}"# + "\n" + #"{"size":2,"id":"b"}"#,
    ]
    for document in documents {
      let bytes = Array(document.utf8)
      var offset = 0
      let input = InputBuffer { buffer in
        guard offset < bytes.count else { return 0 }
        buffer[0] = bytes[offset]
        offset += 1
        return 1
      }
      var scanner = JSONRecordScanner(input: input)
      var values = RecordValues(fieldNames: fields)
      var read: [String] = []
      var notes: [String] = []
      while try scanner.next(into: &values) {
        read.append(values.string(0) + "=" + values.string(3))
        if values.kinds[5] != .missing { notes.append(values.string(5)) }
      }
      #expect(read == ["a=1", "b=2"], "\(document)")
      #expect(notes == (document.contains("note") ? ["x\tyé"] : []), "\(document)")
    }
  }

  /// The one nested field reads into `nestedRecords`; any other nesting, or nesting inside it, is refused.
  @Test func oneNestedFieldOfFlatObjects() throws {
    let text =
      #"{"id":"w","sets":[{"reps":5,"exercise":"Squat"},{"reps":3}],"size":2}"# + "\n" + #"{"id":"v","sets":[]}"#
    var scanner = JSONRecordScanner(input: try input(text), nested: [("sets", ["exercise", "reps"])])
    var values = RecordValues(fieldNames: fields)
    #expect(try scanner.next(into: &values))
    #expect(values.string(0) == "w" && values.string(3) == "2")
    #expect(scanner.hasNestedField)
    #expect(scanner.nestedRecords.map { $0.string(1) } == ["5", "3"])
    #expect(scanner.nestedRecords[0].string(0) == "Squat")
    #expect(scanner.nestedRecords[1].kinds[0] == .missing)
    #expect(try scanner.next(into: &values))
    #expect(scanner.hasNestedField && scanner.nestedRecords.isEmpty)
    #expect(try !scanner.next(into: &values))
    for refused in [#"{"id":"w","sets":[{"sets":[]}]}"#, #"{"id":"w","note":[1]}"#, #"{"id":"w","sets":[[1]]}"#] {
      var scanner = JSONRecordScanner(input: try input(refused), nested: [("sets", ["exercise", "reps"])])
      #expect(throws: InputError.self, "\(refused)") { try scanner.next(into: &values) }
    }
  }

  /// Derived names (what `show` works out) are skipped at any level, whatever value they hold, and
  /// read byte by byte the same; a value nested deeper than `derivedDepth` or malformed is refused.
  @Test func derivedValuesAreSkipped() throws {
    let text =
      #"{"id":"w","totals":{"sets":2,"names":["a \"b\"",null,true]},"sets":[{"reps":5,"records":["heaviest"]}],"size":2}"#
    let bytes = Array(text.utf8)
    for chunk in [bytes.count, 1] {
      var offset = 0
      let input = InputBuffer { buffer in
        guard offset < bytes.count else { return 0 }
        let n = min(chunk, bytes.count - offset)
        for k in 0..<n { buffer[k] = bytes[offset + k] }
        offset += n
        return n
      }
      var scanner = JSONRecordScanner(
        input: input, nested: [("sets", ["exercise", "reps"])], derived: ["totals", "records"])
      var values = RecordValues(fieldNames: fields)
      #expect(try scanner.next(into: &values))
      #expect(values.string(0) == "w" && values.string(3) == "2")
      #expect(scanner.nestedRecords.map { $0.string(1) } == ["5"])
      #expect(try !scanner.next(into: &values))
    }
    let deep =
      String(repeating: "[", count: JSONRecordScanner.derivedDepth + 1)
      + String(repeating: "]", count: JSONRecordScanner.derivedDepth + 1)
    for refused in [
      #"{"id":"w","totals":"# + deep + "}", #"{"id":"w","totals":}"#, #"{"id":"w","totals":]}"#,
      #"{"id":"w","totals":"open}"#, #"{"id":"w","other":{}}"#,
    ] {
      var scanner = JSONRecordScanner(input: try input(refused), derived: ["totals"])
      var values = RecordValues(fieldNames: fields)
      #expect(throws: InputError.self, "\(refused)") { try scanner.next(into: &values) }
    }
  }
}
