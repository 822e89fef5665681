import GymCore

/// Reading one `<Record>` or `<Workout>` into gym's terms.
enum HealthRecord {
  /// Fills `values` with a sample: a type gym knows in its unit; any other as the export writes it
  /// (its type's short name, its unit, a category's value as the stage). Returns whether the type is
  /// one gym knows. `types` remembers what each type and unit came to.
  static func fill(
    _ values: inout RecordValues, from tag: XMLTagScanner.Tag, types: inout RecordTypeCache,
    scratch: inout [UInt8]
  ) throws(InputError) -> Bool {
    guard let recordType = tag.withAttribute("type", { types.type($0) }) else {
      throw InputError(line: tag.line, message: "<Record> has no type")
    }
    let typeName = recordType.identifier
    let (start, end) = try dates(tag)
    let raw = tag.attribute("value") ?? ""
    let minutes = Double(end.millisecondsSince1970 - start.millisecondsSince1970) / 60_000
    let known = recordType.known
    var stage = "none"
    let value: Double
    let name = recordType.name
    let unit: String
    if let type = known {
      unit = type.unit
      if type == .sleep {
        guard let sleepStage = HealthKitMapping.sleepStages[raw] else {
          throw InputError(line: tag.line, message: "unknown sleep value '\(raw)'")
        }
        stage = sleepStage.rawValue
        value = minutes
      } else if type == .mindfulMinutes {
        value = minutes  // a category record of time: its minutes
      } else {
        guard let number = DecimalNumber.parse(raw) else {
          throw InputError(line: tag.line, message: "\(typeName): value '\(raw)' is not a number")
        }
        // What gym knows counts or measures something never below zero (-100 steps would take
        // 100 from a day), as `history samples import` holds it too.
        guard number >= 0 else {
          throw InputError(
            line: tag.line, message: "\(typeName): value '\(raw)' is negative, and a \(type.rawValue) sample never is")
        }
        // No unit is the empty one, which converts to nothing.
        let noUnit: [UInt8] = []
        guard
          let factor = tag.withAttribute("unit", { types.factor(unit: $0, to: type) })
            ?? noUnit.withUnsafeBufferPointer({ types.factor(unit: $0, to: type) })
        else {
          let written = tag.attribute("unit") ?? ""
          throw InputError(
            line: tag.line, message: "\(typeName): unit '\(written)' cannot be converted to \(type.unit)")
        }
        value = number * factor
      }
    } else {
      if let number = DecimalNumber.parse(raw) {
        value = number
        unit = tag.attribute("unit") ?? ""
      } else if Double(raw) != nil || typeName.hasPrefix("HKQuantityTypeIdentifier") {
        // `0x10`, `nan`, `inf`: a number to Swift's reader, not to an export; and a quantity's
        // value is a number, never a category's stage.
        throw InputError(line: tag.line, message: "\(typeName): value '\(raw)' is not a number")
      } else {
        // A category record: how long it lasted, and its value.
        value = minutes
        unit = "min"
        stage = raw.isEmpty ? "none" : HealthKitMapping.shortName(raw)
      }
    }
    values.reset()
    values.set(0, name)
    scratch.removeAll(keepingCapacity: true)
    start.appendCanonical(to: &scratch)
    values.set(1, kind: .string, bytes: scratch)
    scratch.removeAll(keepingCapacity: true)
    end.appendCanonical(to: &scratch)
    values.set(2, kind: .string, bytes: scratch)
    // To a millionth; a value too large for that (1e308, which the scaling makes infinite) as it is,
    // for the load's range check to refuse in its own words.
    let rounded = abs(value) < 1e15 ? (value * 1_000_000).rounded() / 1_000_000 : value
    if rounded == rounded.rounded(), abs(rounded) < 1e15, rounded.sign == .plus || rounded != 0 {
      // Whole (steps, counts): its digits, without formatting a Double.
      scratch.removeAll(keepingCapacity: true)
      Self.appendDigits(of: Int64(rounded), to: &scratch)
      values.set(3, kind: .number, bytes: scratch)
    } else {
      values.set(3, String(rounded), kind: .number)
    }
    values.set(4, unit)
    values.set(5, stage)
    // iOS 8 and 9 (2014–15) wrote `source` where later exports write `sourceName`.
    if tag.withAttribute("sourceName", { values.set(6, kind: .string, bytes: $0) }) == nil,
      tag.withAttribute("source", { values.set(6, kind: .string, bytes: $0) }) == nil
    {
      values.set(6, "Apple Health")
    }
    return known != nil
  }

  static func appendDigits(of number: Int64, to out: inout [UInt8]) {
    if number < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = number.magnitude
    let first = out.count
    repeat {
      out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    out[first...].reverse()
  }

  /// A `<Workout>`: it ends at its `endDate`; its `duration` (shorter than end minus start when
  /// it was paused) is kept with its fraction; its totals come from `totalDistance` and
  /// `totalEnergyBurned`, or later from its `<WorkoutStatistics>`.
  static func workout(from tag: XMLTagScanner.Tag) throws(InputError) -> LoggedWorkout {
    let activity = tag.attribute("workoutActivityType") ?? "HKWorkoutActivityTypeOther"
    let (start, end) = try dates(tag)
    var minutes = Double(end.millisecondsSince1970 - start.millisecondsSince1970) / 60_000
    if let text = tag.attribute("duration") {
      let unit = tag.attribute("durationUnit") ?? "min"
      guard let duration = DecimalNumber.parse(text), duration >= 0, duration < 1e9 else {
        throw InputError(line: tag.line, message: "<Workout> duration '\(text)' is not a number of \(unit)")
      }
      let minutesPerUnit: Double? =
        switch unit {
        case "min": 1
        case "s", "sec": 1 / 60
        case "hr", "h": 60
        default: nil
        }
      guard let minutesPerUnit else {
        throw InputError(line: tag.line, message: "<Workout> durationUnit '\(unit)' is not min, s or hr")
      }
      minutes = duration * minutesPerUnit
    }
    let (title, focus) = HealthKitMapping.workout(activity)
    let source = tag.attribute("sourceName") ?? tag.attribute("source") ?? ""
    var workout = LoggedWorkout(
      key: "health|\(start.canonical)|\(activity)|\(source)", title: title, start: start, end: end,
      durationMinutes: (minutes * 10_000).rounded() / 10_000)
    workout.focusOverride = focus
    workout.distanceKm = try total(tag, "totalDistance", "totalDistanceUnit", as: .distance)
    workout.activeEnergyKcal = try total(tag, "totalEnergyBurned", "totalEnergyBurnedUnit", as: .activeEnergy)
    try workout.checkPlausible(line: tag.line)
    return workout
  }

  /// `<WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" sum="5.2" unit="km"/>`:
  /// a distance or active-energy sum the `<Workout>` itself did not give.
  static func addStatistics(from tag: XMLTagScanner.Tag, to workout: inout LoggedWorkout) throws(InputError) {
    guard let type = tag.attribute("type") else { return }
    var updated = workout  // the workout keeps its totals when this one is skipped
    if type.hasPrefix("HKQuantityTypeIdentifierDistance"), workout.distanceKm == nil {
      updated.distanceKm = try total(tag, "sum", "unit", as: .distance)
    } else if type == "HKQuantityTypeIdentifierActiveEnergyBurned", workout.activeEnergyKcal == nil {
      updated.activeEnergyKcal = try total(tag, "sum", "unit", as: .activeEnergy)
    }
    try updated.checkPlausible(line: tag.line)
    workout = updated
  }

  /// A total in gym's unit for `type`; nil when the attribute is absent.
  private static func total(_ tag: XMLTagScanner.Tag, _ name: String, _ unitName: String, as type: SampleType)
    throws(InputError) -> Double?
  {
    guard let text = tag.attribute(name) else { return nil }
    let unit = tag.attribute(unitName) ?? type.unit
    guard let value = DecimalNumber.parse(text), value >= 0 else {
      throw InputError(line: tag.line, message: "<\(tag.name)> \(name) '\(text)' is not a number")
    }
    guard let factor = HealthKitMapping.factor(from: unit, to: type) else {
      throw InputError(line: tag.line, message: "<\(tag.name)> unit '\(unit)' cannot be converted to \(type.unit)")
    }
    return (value * factor * 1_000_000).rounded() / 1_000_000
  }

  /// Its `startDate` and `endDate`; an end before the start is refused (no length is made up for it).
  private static func dates(_ tag: XMLTagScanner.Tag) throws(InputError) -> (Timestamp, Timestamp) {
    let start = try date(tag, "startDate")
    let end = try date(tag, "endDate")
    guard end >= start else {
      throw InputError(
        line: tag.line,
        message: "<\(tag.name)> ends (\(end.canonical)) before it starts (\(start.canonical))")
    }
    return (start, end)
  }

  private static func date(_ tag: XMLTagScanner.Tag, _ name: String) throws(InputError) -> Timestamp {
    guard let parsed = tag.withAttribute(name, { Timestamp(parsingDateTime: $0) }) else {
      throw InputError(line: tag.line, message: "<\(tag.name)> has no \(name)")
    }
    if let date = parsed { return date }
    let text = tag.attribute(name) ?? ""
    guard let date = compactDate(text) else {
      throw InputError(line: tag.line, message: "\(name) '\(text)' is not a date like 2019-07-19 10:36:11 -0700")
    }
    return date
  }

  /// iOS 8 and 9 wrote dates without separators: `20141018163200+0100`.
  static func compactDate(_ text: String) -> Timestamp? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 14, bytes.count <= 24, bytes.prefix(14).allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
      return nil
    }
    func part(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    let offset = part(14..<bytes.count).trimmed
    return Timestamp(
      parsingDateTime: "\(part(0..<4))-\(part(4..<6))-\(part(6..<8)) \(part(8..<10)):\(part(10..<12)):\(part(12..<14))"
        + (offset.isEmpty ? "" : " " + offset))
  }
}
