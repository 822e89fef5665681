/// The raw values of one input record, by field position, copied out of the input buffer.
public struct RecordValues {
  public enum Kind: Equatable {
    case missing, null, string, number, boolTrue, boolFalse
  }

  public let fieldNames: [String]
  let nameBytes: [[UInt8]]
  public private(set) var kinds: [Kind]
  private var ranges: [Range<Int>]
  private(set) var storage: [UInt8] = []

  public init(fieldNames: [String]) {
    self.fieldNames = fieldNames
    nameBytes = fieldNames.map { Array($0.utf8) }
    kinds = Array(repeating: .missing, count: fieldNames.count)
    ranges = Array(repeating: 0..<0, count: fieldNames.count)
    storage.reserveCapacity(1024)
  }

  public mutating func reset() {
    for i in kinds.indices { kinds[i] = .missing }
    storage.removeAll(keepingCapacity: true)
  }

  /// The position of the field whose name is these bytes. Records mostly name their fields in
  /// one order, so the one after `previous` is tried first.
  func index(ofName name: UnsafeBufferPointer<UInt8>, after previous: Int = -1) -> Int? {
    func matches(_ field: Int) -> Bool {
      ByteRuns.equal(nameBytes[field], name)
    }
    let guess = previous + 1
    if guess >= 0, guess < nameBytes.count, matches(guess) { return guess }
    return nameBytes.indices.first(where: matches)
  }

  public mutating func set(_ field: Int, kind: Kind, bytes: UnsafeBufferPointer<UInt8>) {
    let lower = storage.count
    storage.append(contentsOf: bytes)
    kinds[field] = kind
    ranges[field] = lower..<storage.count
  }

  public mutating func set(_ field: Int, kind: Kind, bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { set(field, kind: kind, bytes: $0) }
  }

  /// Sets a field from text an importer made (`kind` .number for numbers, else .string).
  public mutating func set(_ field: Int, _ text: String, kind: Kind = .string) {
    // Read where it lies (a copy made mutable for `withUTF8` was checked for sharing each time).
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { set(field, kind: kind, bytes: $0) }
    if done == nil { set(field, kind: kind, bytes: Array(text.utf8)) }
  }

  /// Calls `body` with the bytes of a field's value.
  public func withBytes<T>(_ field: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
    try storage.withUnsafeBufferPointer { all in
      try body(UnsafeBufferPointer(rebasing: all[ranges[field]]))
    }
  }

  /// Calls `body` with a function that gives each field's bytes, all of them valid until `body`
  /// returns: a writer binds every field and runs its statement without copying them first.
  public func withFieldBytes<T>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
    try storage.withUnsafeBufferPointer { all in
      try body { UnsafeBufferPointer(rebasing: all[ranges[$0]]) }
    }
  }

  public func string(_ field: Int) -> String {
    withBytes(field) { String(decoding: $0, as: UTF8.self) }
  }
}

/// A streaming source of records (NDJSON, a JSON array, CSV).
public protocol RecordScanner {
  /// Fills `values` with the next record; false at the end of the input.
  mutating func next(into values: inout RecordValues) throws(InputError) -> Bool
  /// The line the last record started on.
  var recordLine: Int { get }
}
