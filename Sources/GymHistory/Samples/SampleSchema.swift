import GRDB
import GymCore

/// The health sample types gym knows, each with its one normalised unit. A record of any other
/// type is kept too, under its own name and unit as the export writes them (`SampleKind.of`).
public enum SampleType: String, CaseIterable, Sendable {
  case steps, distance, activeEnergy, basalEnergy, heartRate, restingHeartRate, bodyMass, sleep
  case flightsClimbed, exerciseMinutes, dietaryEnergy, water
  case heartRateVariability, vo2Max, respiratoryRate, oxygenSaturation, walkingHeartRate, mindfulMinutes

  /// Every value of this type is stored in this unit (imports convert: lb → kg, mi → km …).
  public var unit: String {
    switch self {
    case .steps, .flightsClimbed: "count"
    case .distance: "km"
    case .activeEnergy, .basalEnergy, .dietaryEnergy: "kcal"
    case .heartRate, .restingHeartRate, .respiratoryRate, .walkingHeartRate: "count/min"
    case .bodyMass: "kg"
    case .sleep, .exerciseMinutes, .mindfulMinutes: "min"
    case .water: "ml"
    case .heartRateVariability: "ms"
    case .vo2Max: "ml/kg/min"
    case .oxygenSaturation: "%"
    }
  }

  public var kind: SampleKind {
    switch self {
    case .steps, .distance, .activeEnergy, .basalEnergy, .flightsClimbed, .exerciseMinutes, .dietaryEnergy, .water,
      .mindfulMinutes:
      .cumulative
    case .sleep: .sleep
    case .heartRate, .restingHeartRate, .bodyMass, .heartRateVariability, .vo2Max, .respiratoryRate,
      .oxygenSaturation, .walkingHeartRate:
      .rate
    }
  }

  /// Additive types are summed per day or hour; the others (rates, body mass) get min/avg/max.
  public var isAdditive: Bool { kind != .rate }
}

/// How a type's samples add up.
public enum SampleKind: String, Sendable {
  /// Summed over time, each moment once (steps, energy, minutes of exercise …).
  case cumulative
  /// Read as levels: min, average and max (heart rate, body mass, VO2 max …).
  case rate
  /// Nights of sleep by stage, one source a night.
  case sleep

  /// A type's kind: what gym knows of it; else cumulative for minutes of a category record
  /// (`mindfulSession`, stand hours), distances, `dietary…` amounts and the counts HealthKit sums
  /// (strokes, wheelchair pushes, falls …); a rate otherwise.
  public static func of(_ type: String, unit: String?) -> SampleKind {
    if let known = SampleType(rawValue: type) { return known.kind }
    let summed: Set = [
      "swimmingStrokeCount", "pushCount", "numberOfTimesFallen", "nikeFuel", "appleMoveTime", "appleStandTime",
      "inhalerUsage", "insulinDelivery", "numberOfAlcoholicBeverages", "timeInDaylight",
    ]
    return unit == "min" || type.hasPrefix("dietary") || type.hasPrefix("distance") || summed.contains(type)
      ? .cumulative : .rate
  }
}

/// Sleep stages: a sleep sample's `stage`; every other sample has `none`.
public enum SleepStage: String, CaseIterable, Sendable {
  case none, inBed, awake, asleep, asleepCore, asleepDeep, asleepREM
}

/// Health samples (seed 002): measurements over an interval, imported in bulk, read by day and hour.
public enum SampleSchema {

  public static let table = TableSchema(
    name: "sample",
    fields: [
      // Any type the export holds: gym's names for those it knows, the export's otherwise.
      Field("type", .text),
      Field("start", .timestamp),
      Field("end", .timestamp),
      Field("value", .real, bounds: PlausibleRange.sampleValue),
      Field("unit", .text),
      // A sleep stage, another category record's value, or `none`.
      Field("stage", .text, storedNull: "none"),
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

  /// Every record type an export holds is kept (heart-rate variability, VO2 max, mindful minutes …),
  /// so type, unit and stage lose their CHECKs; rebuilt as history/006 rebuilt `workout`.
  static let everyType = Migration(
    "history/008-samples-of-every-type", .rebuild, touches: ["sample"],
    sql: """
      CREATE TABLE sample_new (
        seq INTEGER PRIMARY KEY,
        type TEXT NOT NULL,
        start TEXT NOT NULL,
        "end" TEXT NOT NULL,
        value REAL NOT NULL,
        unit TEXT NOT NULL,
        stage TEXT NOT NULL,
        source TEXT NOT NULL,
        CHECK ("end" >= start)
      );
      INSERT INTO sample_new (seq, type, start, "end", value, unit, stage, source)
        SELECT seq, type, start, "end", value, unit, stage, source FROM sample;
      DROP TABLE sample;
      ALTER TABLE sample_new RENAME TO sample;
      CREATE UNIQUE INDEX sample_key ON sample(type, start, "end", source, stage, value);
      """)
}
