import GymCore

/// What a `<Record>`'s `type` and `unit` come to, remembered by their bytes. An export holds
/// millions of records of a few dozen types in a few units: making a `String` of each type, looking
/// it up, and matching each unit against every spelling Health has written was a fifth of the
/// parse (Docs/PerformanceNotes.md). Bounded: past `limit` entries a new one is worked out each
/// time and not kept, so a file of endless distinct types costs time, not memory beyond the entries
/// kept (each as long as its tag allows).
struct RecordTypeCache {
  struct RecordType {
    /// The identifier as the export writes it (`HKQuantityTypeIdentifierStepCount`).
    let identifier: String
    /// gym's type, or nil for one gym keeps as written.
    let known: SampleType?
    /// The name samples are stored under: gym's, or the identifier's short name.
    let name: String
  }

  static let limit = 256
  private var types: [(bytes: [UInt8], type: RecordType)] = []
  private var factors: [(unit: [UInt8], type: SampleType, factor: Double?)] = []

  mutating func type(_ bytes: UnsafeBufferPointer<UInt8>) -> RecordType {
    if let found = types.first(where: { ByteRuns.equal($0.bytes, bytes) }) { return found.type }
    let identifier = String(decoding: bytes, as: UTF8.self)
    let known = HealthKitMapping.recordTypes[identifier]
    let type = RecordType(
      identifier: identifier, known: known, name: known?.rawValue ?? HealthKitMapping.shortName(identifier))
    if types.count < Self.limit { types.append((Array(bytes), type)) }
    return type
  }

  /// `HealthKitMapping.factor(from:to:)` for a unit's bytes.
  mutating func factor(unit bytes: UnsafeBufferPointer<UInt8>, to type: SampleType) -> Double? {
    if let found = factors.first(where: { $0.type == type && ByteRuns.equal($0.unit, bytes) }) { return found.factor }
    let factor = HealthKitMapping.factor(from: String(decoding: bytes, as: UTF8.self), to: type)
    if factors.count < Self.limit { factors.append((Array(bytes), type, factor)) }
    return factor
  }

}
