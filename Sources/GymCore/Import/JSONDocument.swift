/// The parts of a JSON input around its records: the `{"items": [ … ], "next": …}` document that
/// gym's lists print, and the arrays of flat objects a record may carry in a named field.
extension JSONRecordScanner {
  /// `{"items": [` at `start`: where the first record may begin; a failure when it is another object.
  func documentOpening(at start: Int, storage: [UInt8], end: Int) -> Outcome {
    var i = start + 1
    while i < end, storage[i] == 32 || storage[i] == 10 || storage[i] == 13 || storage[i] == 9 { i += 1 }
    for byte in Array("\"items\"".utf8) {
      guard i < end else { return .incomplete }
      guard storage[i] == byte else { return .failure("", i) }
      i += 1
    }
    for byte in [UInt8(ascii: ":"), UInt8(ascii: "[")] {
      while i < end, storage[i] == 32 || storage[i] == 10 || storage[i] == 13 || storage[i] == 9 { i += 1 }
      guard i < end else { return .incomplete }
      guard storage[i] == byte else { return .failure("", i) }
      i += 1
    }
    return .complete(i)
  }

  /// After an array's `]`: the end of the input's records; a document still has its other
  /// members (`"next": "…"` or null) and its closing brace.
  mutating func closing(after start: Int, of kind: Mode, storage: [UInt8], end: Int) -> Outcome {
    guard kind == .document else {
      mode = .finished
      return .complete(start)
    }
    var i = start
    func skipSpace() {
      while i < end, storage[i] == 32 || storage[i] == 10 || storage[i] == 13 || storage[i] == 9 { i += 1 }
    }
    while true {
      skipSpace()
      guard i < end else { return .incomplete }
      if storage[i] == UInt8(ascii: "}") {
        mode = .finished
        return .complete(i + 1)
      }
      guard storage[i] == UInt8(ascii: ",") else { return .failure("expected ',' or '}' after the items", i) }
      i += 1
      skipSpace()
      guard i < end else { return .incomplete }
      guard storage[i] == UInt8(ascii: "\"") else { return .failure("expected a quoted member name", i) }
      if case let stop = string(at: &i, storage: storage, end: end), !stop.isComplete { return stop }
      skipSpace()
      guard i < end else { return .incomplete }
      guard storage[i] == UInt8(ascii: ":") else { return .failure("expected ':' after the member name", i) }
      i += 1
      skipSpace()
      guard i < end else { return .incomplete }
      if storage[i] == UInt8(ascii: "\"") {
        if case let stop = string(at: &i, storage: storage, end: end), !stop.isComplete { return stop }
      } else {
        let null = Array("null".utf8)
        let failure = Outcome.failure("the document's members after 'items' hold text or null (a cursor)", i)
        guard storage[i] == null[0] else { return failure }
        guard i + null.count <= end else { return .incomplete }
        guard storage[i..<i + null.count].elementsEqual(null) else { return failure }
        i += null.count
      }
    }
  }

  /// A nested field's `[ {…}, … ]` (or null): each object into `nested[which]`.
  mutating func nestedArray(_ which: Int, at i: inout Int, storage: [UInt8], end: Int) -> Outcome {
    func skipSpace() {
      while i < end, storage[i] == 32 || storage[i] == 10 || storage[i] == 13 || storage[i] == 9 { i += 1 }
    }
    skipSpace()
    guard i < end else { return .incomplete }
    let null = Array("null".utf8)
    if storage[i] == null[0] {
      guard i + null.count <= end else { return .incomplete }
      guard storage[i..<i + null.count].elementsEqual(null) else { return .failure("invalid JSON value", i) }
      i += null.count
      return .complete(i)
    }
    guard storage[i] == UInt8(ascii: "[") else { return .failure("expected an array of objects", i) }
    nestedGiven[which] = true
    i += 1
    skipSpace()
    guard i < end else { return .incomplete }
    if storage[i] == UInt8(ascii: "]") {
      i += 1
      return .complete(i)
    }
    while true {
      skipSpace()
      guard i < end else { return .incomplete }
      var record = nestedTemplates[which]
      switch object(at: i, storage: storage, end: end, into: &record, allowingNested: false) {
      case .complete(let after): i = after
      case let stop: return stop
      }
      nested[which].append(record)
      skipSpace()
      guard i < end else { return .incomplete }
      if storage[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      guard storage[i] == UInt8(ascii: "]") else { return .failure("expected ',' or ']' in the array", i) }
      i += 1
      return .complete(i)
    }
  }

}
