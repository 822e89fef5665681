import GymCore

/// How Apple Health's identifiers and units map onto gym's sample types, stages and units.
/// Documented in Docs/History/README.md; anything not listed is counted and skipped.
enum HealthKitMapping {
  static let recordTypes: [String: SampleType] = [
    "HKQuantityTypeIdentifierStepCount": .steps,
    "HKQuantityTypeIdentifierDistanceWalkingRunning": .distance,
    "HKQuantityTypeIdentifierActiveEnergyBurned": .activeEnergy,
    "HKQuantityTypeIdentifierBasalEnergyBurned": .basalEnergy,
    "HKQuantityTypeIdentifierHeartRate": .heartRate,
    "HKQuantityTypeIdentifierRestingHeartRate": .restingHeartRate,
    "HKQuantityTypeIdentifierBodyMass": .bodyMass,
    "HKCategoryTypeIdentifierSleepAnalysis": .sleep,
    "HKQuantityTypeIdentifierFlightsClimbed": .flightsClimbed,
    "HKQuantityTypeIdentifierAppleExerciseTime": .exerciseMinutes,
    "HKQuantityTypeIdentifierDietaryEnergyConsumed": .dietaryEnergy,
    "HKQuantityTypeIdentifierDietaryWater": .water,
    "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": .heartRateVariability,
    "HKQuantityTypeIdentifierVO2Max": .vo2Max,
    "HKQuantityTypeIdentifierRespiratoryRate": .respiratoryRate,
    "HKQuantityTypeIdentifierOxygenSaturation": .oxygenSaturation,
    "HKQuantityTypeIdentifierWalkingHeartRateAverage": .walkingHeartRate,
    "HKCategoryTypeIdentifierMindfulSession": .mindfulMinutes,
  ]

  /// The name a type gym does not know is kept under: its identifier without the `HK…Identifier`
  /// prefix, starting lower case (`HKQuantityTypeIdentifierUVExposure` → `uvExposure`); the same
  /// for a category value (`HKCategoryValueAppleStandHourStood` → `appleStandHourStood`).
  static func shortName(_ identifier: String) -> String {
    var name = Substring(identifier)
    for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCategoryValue", "HK"]
    where name.hasPrefix(prefix) && name.count > prefix.count {
      name = name.dropFirst(prefix.count)
      break
    }
    let capitals = name.prefix(while: \.isUppercase).count
    // `VO2Max` → `vo2Max`; `UVExposure` → `uvExposure` (the last capital starts the next word).
    let lowered = capitals > 1 && name.dropFirst(capitals).first?.isLowercase == true ? capitals - 1 : capitals
    return name.prefix(lowered).lowercased() + name.dropFirst(lowered)
  }

  static let sleepStages: [String: SleepStage] = [
    "HKCategoryValueSleepAnalysisInBed": .inBed,
    "HKCategoryValueSleepAnalysisAwake": .awake,
    "HKCategoryValueSleepAnalysisAsleep": .asleep,
    "HKCategoryValueSleepAnalysisAsleepUnspecified": .asleep,
    "HKCategoryValueSleepAnalysisAsleepCore": .asleepCore,
    "HKCategoryValueSleepAnalysisAsleepDeep": .asleepDeep,
    "HKCategoryValueSleepAnalysisAsleepREM": .asleepREM,
  ]

  /// The factor from a Health unit to gym's unit for a type, or nil when gym cannot convert it.
  /// The spellings Apple has written are tried as they are first (the common case, no allocation),
  /// then in one normal form (`normalized`).
  static func factor(from unit: String, to type: SampleType) -> Double? {
    if let factor = factor(spelled: unit, to: type) { return factor }
    let normal = normalized(unit)
    return normal == unit ? nil : factor(spelled: normal, to: type)
  }

  /// One spelling for each unit Health has written several ways over the years: white space
  /// dropped, `*` as `·`, a rate's denominators in alphabetical order joined by `·` whatever
  /// their order, brackets or slashes (`mL/min·kg`, `mL/(kg·min)`, `mL/kg·min`, `mL/kg/min` all
  /// become `mL/kg·min`), and a rate without a numerator counted (`/min` → `count/min`).
  static func normalized(_ unit: String) -> String {
    let compact = String(unit.filter { !$0.isWhitespace }.map { $0 == "*" ? "·" : $0 })
    guard let slash = compact.firstIndex(of: "/") else { return compact }
    let numerator = compact[..<slash].isEmpty ? "count" : String(compact[..<slash])
    let denominators = compact[compact.index(after: slash)...].filter { $0 != "(" && $0 != ")" }
      .split(whereSeparator: { $0 == "·" || $0 == "/" }).map(String.init).sorted()
    return numerator + "/" + denominators.joined(separator: "·")
  }

  private static func factor(spelled unit: String, to type: SampleType) -> Double? {
    switch (type.unit, unit) {
    case ("count", "count"), ("count/min", "count/min"), ("kg", "kg"), ("km", "km"), ("kcal", "kcal"),
      ("kcal", "Cal"), ("min", "min"), ("ms", "ms"), ("ml", "mL"), ("ml/kg/min", "mL/min·kg"),
      ("ml/kg/min", "mL/(kg·min)"), ("ml/kg/min", "mL/kg·min"):
      1
    case ("ml", "L"): 1000
    case ("ml", "fl_oz_us"): 29.573_529_562_5
    case ("ml", "fl_oz_imp"): 28.413_062_5
    case ("ml", "cup_us"): 236.588_236_5
    case ("ml", "cup_imp"): 284.130_625
    case ("ml", "pt_us"): 473.176_473
    case ("ml", "pt_imp"): 568.261_25
    case ("%", "%"): 100  // Health writes saturation as a fraction: 0.97 is 97 %
    case ("kg", "lb"): 0.453_592_37
    case ("kg", "g"): 0.001
    case ("kg", "st"): 6.350_293_18
    case ("km", "m"): 0.001
    case ("km", "mi"): 1.609_344
    case ("km", "ft"): 0.000_304_8
    case ("km", "yd"): 0.000_914_4
    case ("km", "cm"): 0.000_01
    case ("kcal", "kJ"): 1 / 4.184
    case ("kcal", "cal"): 0.001
    case ("count/min", "count/s"): 60
    default: nil
    }
  }

  /// `HKWorkoutActivityTypeRunning` → ("Running", cardio); a type that names no focus gym has
  /// (`TraditionalStrengthTraining`, `Other`) → nil: the workout's focus is unknown.
  static func workout(_ activityType: String) -> (title: String, focus: String?) {
    let name = activityType.hasPrefix("HKWorkoutActivityType") ? String(activityType.dropFirst(21)) : activityType
    var title = ""
    for character in name {
      if character.isUppercase && !title.isEmpty { title.append(" ") }
      title.append(character)
    }
    let cardio: Set = [
      "Running", "Walking", "Cycling", "Swimming", "Rowing", "Elliptical", "StairClimbing", "Stairs", "Hiking",
      "HighIntensityIntervalTraining", "MixedCardio", "JumpRope", "Dance", "CardioDance", "SocialDance",
      "CrossCountrySkiing", "DownhillSkiing", "Snowboarding", "Kickboxing", "Boxing", "StepTraining", "Wheelchair",
      "WheelchairRunPace", "WheelchairWalkPace", "HandCycling", "PaddleSports", "SkatingSports", "SwimBikeRun",
    ]
    let mobility: Set = [
      "Yoga", "Pilates", "Flexibility", "MindAndBody", "Cooldown", "PreparationAndRecovery", "TaiChi", "Barre",
    ]
    let focus =
      cardio.contains(name)
      ? "cardio"
      : mobility.contains(name)
        ? "mobility"
        : name == "CoreTraining"
          ? "core"
          : sports.contains(name) ? "sport" : nil
    return (title.isEmpty ? "Workout" : title, focus)
  }

  /// Team, racket and field sports: a game, not a gym session (`sport` since history/006).
  static let sports: Set = [
    "AmericanFootball", "AustralianFootball", "Badminton", "Baseball", "Basketball", "Cricket", "Curling",
    "Fencing", "Golf", "Handball", "Hockey", "Lacrosse", "Pickleball", "Racquetball", "Rugby", "Soccer", "Softball",
    "Squash", "TableTennis", "Tennis", "Volleyball", "WaterPolo", "Wrestling", "MartialArts", "Climbing",
    "Archery", "Bowling", "Equestrian", "Fishing", "Hunting", "Sailing", "SurfingSports", "WaterSports",
    "DiscSports", "FitnessGaming", "Play",
  ]
}
