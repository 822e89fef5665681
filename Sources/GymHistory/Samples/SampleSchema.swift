import GRDB
import GymCore

/// The kinds of health sample gym keeps, each with its one normalised unit.
public enum SampleType: String, CaseIterable, Sendable {
  case steps, distance, activeEnergy, basalEnergy, heartRate, restingHeartRate, bodyMass, sleep

  /// Every value of this type is stored in this unit (imports convert: lb → kg, mi → km …).
  public var unit: String {
    switch self {
    case .steps: "count"
    case .distance: "km"
    case .activeEnergy, .basalEnergy: "kcal"
    case .heartRate, .restingHeartRate: "count/min"
    case .bodyMass: "kg"
    case .sleep: "min"
    }
  }

  /// Additive types are summed per day or hour; the others (rates, body mass) get min/avg/max.
  public var isAdditive: Bool {
    switch self {
    case .steps, .distance, .activeEnergy, .basalEnergy, .sleep: true
    case .heartRate, .restingHeartRate, .bodyMass: false
    }
  }
}

/// Sleep stages: a sleep sample's `stage`; every other sample has `none`.
public enum SleepStage: String, CaseIterable, Sendable {
  case none, inBed, awake, asleep, asleepCore, asleepDeep, asleepREM
}

/// Health samples (seed 002): measurements over an interval, imported in bulk, read by day and hour.
public enum SampleSchema {
  public static let units = Array(Set(SampleType.allCases.map(\.unit))).sorted()

  public static let table = TableSchema(
    name: "sample",
    fields: [
      Field("type", .enumeration(SampleType.allCases.map(\.rawValue))),
      Field("start", .timestamp),
      Field("end", .timestamp),
      Field("value", .real),
      Field("unit", .enumeration(units)),
      Field("stage", .enumeration(SleepStage.allCases.map(\.rawValue))),
      Field("source", .text),
    ],
    indexes: [
      // The natural key, whose leading (type, start) also serves every "type within a time range"
      // query: one index instead of two on tables of millions of rows.
      IndexSchema("sample_key", on: ["type", "start", "end", "source", "stage", "value"], unique: true)
    ],
    defaultSort: [SortKey("start", descending: true)])

  /// A sample is identified by all it says: importing the same data again adds nothing.
  public static let conflict = ConflictPolicy.keepExisting(key: ["type", "start", "end", "source", "stage", "value"])

  static let migrations = [
    Migration(
      "history/002-samples", .additive,
      sql: """
        CREATE TABLE sample (
          seq INTEGER PRIMARY KEY,
          type TEXT NOT NULL CHECK (type IN ('steps', 'distance', 'activeEnergy', 'basalEnergy', 'heartRate', 'restingHeartRate', 'bodyMass', 'sleep')),
          start TEXT NOT NULL,
          "end" TEXT NOT NULL,
          value REAL NOT NULL,
          unit TEXT NOT NULL CHECK (unit IN ('count', 'count/min', 'kcal', 'kg', 'km', 'min')),
          stage TEXT NOT NULL CHECK (stage IN ('none', 'inBed', 'awake', 'asleep', 'asleepCore', 'asleepDeep', 'asleepREM')),
          source TEXT NOT NULL,
          CHECK ("end" >= start)
        );
        CREATE UNIQUE INDEX sample_key ON sample(type, start, "end", source, stage, value);
        """)
  ]
}
