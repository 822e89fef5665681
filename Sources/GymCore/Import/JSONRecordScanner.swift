#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads flat JSON objects one at a time from NDJSON (one per line), a JSON array, or the
/// `{"items": […], "next": …}` document that gym's own lists print, streaming.
///
/// Values may be strings, numbers, booleans or null. Nested objects or arrays are an error, since
/// every gym record is flat, except for named fields holding an array of flat objects (a workout's
/// `sets`, a work's `authors`, as `show` prints them), read into `nested`. A record that straddles a
/// chunk is parsed again after a refill.
public struct JSONRecordScanner: RecordScanner {
  private let input: InputBuffer
  private var line = 1
  public private(set) var recordLine = 1
  enum Mode { case unknown, lines, array, document, finished }
  var mode = Mode.unknown
  var scratch: [UInt8] = []
  private let nestedNames: [[UInt8]]
  /// Names whose values a record may carry and the import skips: figures `show` works out (a
  /// workout's `totals`, a set's `records`), printed beside the record and not part of it.
  let derivedNames: [[UInt8]]
  let nestedTemplates: [RecordValues]
  /// The objects of each nested field in the last record, in order; empty when it had none.
  public internal(set) var nested: [[RecordValues]]
  /// Whether the last record named each nested field (an empty array is "no sets", not "not said").
  public internal(set) var nestedGiven: [Bool]

  /// The first nested field's objects and whether it was named: for an import with one.
  public var nestedRecords: [RecordValues] { nested.first ?? [] }
  public var hasNestedField: Bool { nestedGiven.first ?? false }

  /// `nested`: the fields that may hold an array of flat objects, and those objects' fields.
  public init(
    input: InputBuffer, nested fields: [(name: String, fieldNames: [String])] = [], derived: [String] = []
  ) {
    self.input = input
    derivedNames = derived.map { Array($0.utf8) }
    nestedNames = fields.map { Array($0.name.utf8) }
    nestedTemplates = fields.map { RecordValues(fieldNames: $0.fieldNames) }
    nested = Array(repeating: [], count: fields.count)
    nestedGiven = Array(repeating: false, count: fields.count)
  }

  enum Outcome {
    case complete(Int)
    case incomplete
    case failure(String, Int)

    var isComplete: Bool {
      if case .complete = self { return true }
      return false
    }
  }

  public mutating func next(into values: inout RecordValues) throws(InputError) -> Bool {
    while true {
      skipBlankLines()
      let outcome = step(&values)
      switch outcome {
      case .complete(let end):
        countLines(to: end)
        input.start = end
        return mode != .finished
      case .incomplete:
        guard input.end - input.start <= InputBuffer.maximumRecordBytes else {
          throw InputError(
            line: recordLine,
            message: "a record is longer than \(InputBuffer.maximumRecordBytes >> 20) MiB (is this the export itself?)")
        }
        if try !input.refill() {
          if input.start == input.end || onlyWhitespaceLeft() {
            if mode == .array { throw InputError(line: line, message: "the JSON array is not closed with ']'") }
            return false
          }
          throw InputError(line: recordLine, message: "the record is cut off at the end of the input")
        }
      case .failure(let message, let offset):
        throw InputError(line: lineNumber(at: offset), message: message)
      }
    }
  }

  /// Consumes the white space before the next record, so that a file of nothing but blank lines is
  /// read in constant memory and linear time instead of growing the window to its whole size.
  private mutating func skipBlankLines() {
    let (skipped, breaks) = input.storage.withUnsafeBufferPointer { bytes in
      var i = input.start
      var breaks = 0
      while i < input.end {
        let byte = bytes[i]
        guard byte == 32 || byte == 10 || byte == 13 || byte == 9 else { break }
        if byte == 10 { breaks += 1 }
        i += 1
      }
      return (i, breaks)
    }
    line += breaks
    input.start = skipped
  }

  private func onlyWhitespaceLeft() -> Bool {
    input.storage[input.start..<input.end].allSatisfy { $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }
  }

  private mutating func countLines(to end: Int) {
    // memchr: a record of NDJSON holds no line break but its last, so this mostly skips ahead.
    line += input.storage.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return 0 }
      var breaks = 0
      var at = input.start
      while at < end, let found = memchr(base + at, 10, end - at) {
        breaks += 1
        at = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base + 1
      }
      return breaks
    }
  }

  private func lineNumber(at offset: Int) -> Int {
    var n = line
    for i in input.start..<min(offset, input.end) where input.storage[i] == 10 { n += 1 }
    return n
  }

  /// Skips to and parses the next object (or the array's punctuation around it). The mode the
  /// punctuation implies is kept only once the record is complete: a record cut off by the end of
  /// the buffer is parsed again from its start.
  private mutating func step(_ values: inout RecordValues) -> Outcome {
    values.reset()
    for k in nested.indices {
      nested[k].removeAll(keepingCapacity: true)
      nestedGiven[k] = false
    }
    let storage = input.storage
    let end = input.end
    var i = input.start
    var nextMode = mode
    func skipSpace() {
      while i < end, storage[i] == 32 || storage[i] == 10 || storage[i] == 13 || storage[i] == 9 { i += 1 }
    }
    skipSpace()
    guard i < end else { return .incomplete }
    switch mode {
    case .unknown:
      if storage[i] == UInt8(ascii: "[") {
        nextMode = .array
        i += 1
      } else if storage[i] == UInt8(ascii: "{") {
        switch documentOpening(at: i, storage: storage, end: end) {
        case .incomplete: return .incomplete
        case .complete(let after):
          nextMode = .document
          i = after
        case .failure: nextMode = .lines
        }
      } else {
        nextMode = .lines
      }
      if nextMode != .lines {
        skipSpace()
        guard i < end else { return .incomplete }
        if storage[i] == UInt8(ascii: "]") { return closing(after: i + 1, of: nextMode, storage: storage, end: end) }
      }
    case .array, .document:
      if storage[i] == UInt8(ascii: "]") { return closing(after: i + 1, of: mode, storage: storage, end: end) }
      guard storage[i] == UInt8(ascii: ",") else {
        return .failure("expected ',' or ']' between the array's records", i)
      }
      i += 1
      skipSpace()
      guard i < end else { return .incomplete }
    case .lines, .finished: break
    }
    recordLine = lineNumber(at: i)
    let outcome = object(at: i, storage: storage, end: end, into: &values, allowingNested: true)
    if case .complete = outcome { mode = nextMode }
    return outcome
  }

  mutating func object(
    at start: Int, storage: [UInt8], end: Int, into values: inout RecordValues, allowingNested: Bool
  ) -> Outcome {
    var i = start
    guard storage[i] == UInt8(ascii: "{") else {
      return .failure("expected a JSON object '{' but found '\(Character(Unicode.Scalar(storage[i])))'", i)
    }
    i += 1
    func skipSpace() {
      while i < end, storage[i] == 32 || storage[i] == 10 || storage[i] == 13 || storage[i] == 9 { i += 1 }
    }
    skipSpace()
    guard i < end else { return .incomplete }
    if storage[i] == UInt8(ascii: "}") { return .complete(i + 1) }
    var previous = -1
    while true {
      skipSpace()
      guard i < end else { return .incomplete }
      guard storage[i] == UInt8(ascii: "\"") else { return .failure("expected a quoted field name", i) }
      let keyStart = i
      let field: Int?
      switch literal(at: &i, storage: storage, end: end) {
      case (.incomplete, _): return .incomplete
      case (.failure(let m, let at), _): return .failure(m, at)
      case (.complete, let plain?):
        // The name is looked up where it lies; copied only when more than a field's name is asked of it.
        let name = (keyStart + 1)..<plain
        field = storage.withUnsafeBufferPointer {
          values.index(ofName: UnsafeBufferPointer(rebasing: $0[name]), after: previous)
        }
        if field == nil || (allowingNested && !nestedNames.isEmpty) {
          scratch.removeAll(keepingCapacity: true)
          scratch.append(contentsOf: storage[name])
        }
      case (.complete, nil): field = scratch.withUnsafeBufferPointer { values.index(ofName: $0, after: previous) }
      }
      if let field { previous = field }
      // A nested field's array. A name that is also a flat field (a work's `authors`: text in a
      // list, objects in `show`) is told apart by its value: only an array is nested.
      if allowingNested, let which = nestedNames.firstIndex(of: scratch) {
        var j = Self.skippingSpace(from: i, storage, end)
        guard j < end else { return .incomplete }
        guard storage[j] == UInt8(ascii: ":") else { return .failure("expected ':' after the field name", j) }
        j = Self.skippingSpace(from: j + 1, storage, end)
        guard j < end else { return .incomplete }
        if field == nil || storage[j] == UInt8(ascii: "[") {
          i = j
          switch nestedArray(which, at: &i, storage: storage, end: end) {
          case .complete: break
          case let stop: return stop
          }
          if let stop = separator(at: &i, storage: storage, end: end, after: nil, values) { return stop }
          continue
        }
      }
      if field == nil, derivedNames.contains(scratch) {
        switch skipDerived(at: &i, storage: storage, end: end) {
        case .complete: break
        case let stop: return stop
        }
        if let stop = separator(at: &i, storage: storage, end: end, after: nil, values) { return stop }
        continue
      }
      guard let field else {
        let name = String(decoding: scratch, as: UTF8.self)
        return .failure(
          "unknown field '\(name)'; expected: \(values.fieldNames.joined(separator: ", "))", keyStart)
      }
      // JSON leaves a repeated name to the reader; gym reads no record whose meaning depends on which wins.
      guard values.kinds[field] == .missing else {
        return .failure("the field '\(values.fieldNames[field])' is given twice in one record", keyStart)
      }
      skipSpace()
      guard i < end else { return .incomplete }
      guard storage[i] == UInt8(ascii: ":") else { return .failure("expected ':' after the field name", i) }
      i += 1
      skipSpace()
      guard i < end else { return .incomplete }
      let c = storage[i]
      if c == UInt8(ascii: "\"") {
        let start = i + 1
        switch literal(at: &i, storage: storage, end: end) {
        case (.incomplete, _): return .incomplete
        case (.failure(let m, let at), _): return .failure(m, at)
        case (.complete, let plain?):
          storage.withUnsafeBufferPointer {
            values.set(field, kind: .string, bytes: UnsafeBufferPointer(rebasing: $0[start..<plain]))
          }
        case (.complete, nil): values.set(field, kind: .string, bytes: scratch)
        }
      } else if c == UInt8(ascii: "-") || (c >= 48 && c <= 57) {
        let valueStart = i
        i += 1
        while i < end,
          storage[i] == 46 || storage[i] == 43 || storage[i] == 45 || storage[i] == 101
            || storage[i] == 69 || (storage[i] >= 48 && storage[i] <= 57)
        {
          i += 1
        }
        guard i < end else { return .incomplete }
        storage.withUnsafeBufferPointer { all in
          values.set(field, kind: .number, bytes: UnsafeBufferPointer(rebasing: all[valueStart..<i]))
        }
      } else if let (word, kind) = Self.literalWord(startingWith: c) {
        guard i + word.count <= end else { return .incomplete }
        let matches = storage.withUnsafeBufferPointer { bytes in
          word.indices.allSatisfy { bytes[i + $0] == word[$0] }
        }
        guard matches else { return .failure("invalid JSON value", i) }
        i += word.count
        values.set(field, kind: kind, bytes: UnsafeBufferPointer(start: nil, count: 0))
      } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
        return .failure("field '\(values.fieldNames[field])' holds a nested object or array; records are flat", i)
      } else {
        return .failure("invalid JSON value for field '\(values.fieldNames[field])'", i)
      }
      if let stop = separator(at: &i, storage: storage, end: end, after: field, values) { return stop }
    }
  }

  static let trueWord = Array("true".utf8)
  static let falseWord = Array("false".utf8)
  static let nullWord = Array("null".utf8)

  /// The literal a value starting with `byte` must be, and what it stands for.
  static func literalWord(startingWith byte: UInt8) -> ([UInt8], RecordValues.Kind)? {
    switch byte {
    case UInt8(ascii: "t"): return (trueWord, .boolTrue)
    case UInt8(ascii: "f"): return (falseWord, .boolFalse)
    case UInt8(ascii: "n"): return (nullWord, .null)
    default: return nil
    }
  }

  /// After a value: nil at `,` (another field follows), else the object's end after `}`, or a
  /// failure naming what came before (`field`, or an array when nil; the name is made only then).
  func separator(
    at i: inout Int, storage: [UInt8], end: Int, after field: Int?, _ values: RecordValues
  ) -> Outcome? {
    i = Self.skippingSpace(from: i, storage, end)
    guard i < end else { return .incomplete }
    if storage[i] == UInt8(ascii: ",") {
      i += 1
      return nil
    }
    if storage[i] == UInt8(ascii: "}") { return .complete(i + 1) }
    let what = field.map { "field '\(values.fieldNames[$0])'" } ?? "the array"
    return .failure("expected ',' or '}' after \(what)", i)
  }

  /// The first position from `i` on that is not JSON white space.
  static func skippingSpace(from i: Int, _ storage: [UInt8], _ end: Int) -> Int {
    var i = i
    while i < end, storage[i] == 32 || storage[i] == 10 || storage[i] == 13 || storage[i] == 9 { i += 1 }
    return i
  }
}
