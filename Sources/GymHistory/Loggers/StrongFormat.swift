import GymCLI
import GymCore

/// Strong's CSV export in every layout it has shipped (`StrongHeaders`): `,` or `;` separated,
/// one row per set. Dates are the session's local start, `YYYY-MM-DD HH:MM:SS`; the duration is
/// spelled (`1h 5m`, `38min`, `1 h 46 min`, `1小时13分钟`, `1:05:00`), in seconds
/// (`Duration (sec)`), or missing in the oldest layouts (unknown, then). `Set Order` is a number,
/// `W` (warm-up), `D` (drop set), `F` (failure), a rest timer or a note (neither is a set).
/// Weights and distances are in the unit a row's `Weight Unit`/`Distance Unit` names, else the
/// column's name (`kg`, `Weight (lbs)`), else the unit given on the command line.
struct StrongFormat: LoggerFormat {
  /// The unit of a `Weight` column that names none, as set in the app (`--weight-unit`).
  let kilogramsPerUnit: Double?
  /// The unit of a distance whose row and column name none (`--distance-unit`); without it such a
  /// row is skipped and told, never read in a unit the file does not say.
  let kilometresPerUnit: Double?

  let columns = StrongHeaders.columns
  let aliases = StrongHeaders.aliases
  let required = ["Date", "Workout Name", "Exercise Name", "Set Order", "Reps"]

  func check(header: Set<String>) throws(InputError) {
    let weights = ["Weight", "Weight (kg)", "Weight (lb)"]
    guard weights.contains(where: header.contains) else {
      throw InputError(line: 1, message: "not a Strong export: no weight column (Weight, kg or lbs)")
    }
    if header.contains("Weight") && !header.contains("Weight Unit") && kilogramsPerUnit == nil {
      throw InputError(
        line: 1,
        message: "this Strong layout does not say the weight unit: pass --weight-unit kg or lb, as set in the app")
    }
  }

  func parse(_ row: ImportRow) throws(InputError) -> (LoggedWorkout, LoggedSet?)? {
    let dateText = Self.zeroPadded(try row.required("Date"))
    guard let start = Self.date(dateText) else {
      throw row.fail("Date", dateText, expected: "a date (YYYY-MM-DD HH:MM:SS)")
    }
    let title = try row.required("Workout Name")
    var minutes: Double?
    if let text = row.text("Duration") {
      guard let seconds = Self.seconds(text) else {
        throw row.fail("Duration", text, expected: "a duration like 1h 5m, 36m, 38min or 1:05:00")
      }
      minutes = Double(seconds) / 60
    } else if let seconds = try row.integer("Duration (sec)", in: 0...100_000_000) {
      minutes = Double(seconds) / 60
    }
    let workout: LoggedWorkout
    do {
      workout = try LoggedWorkout(
        key: Self.key(dateText, title), title: title, start: start, minutes: minutes,
        notes: row.text("Workout Notes"))
    } catch {
      throw InputError(line: row.line, message: error.message)
    }
    let order = row.text("Set Order") ?? ""
    let kind: String
    switch order {
    case "W", "w": kind = "warmup"
    case "D", "d": kind = "dropset"
    case "F", "f": kind = "failure"
    case "Note":
      var noted = workout
      if let exercise = row.text("Exercise Name"), let note = row.text("Notes") { noted.exerciseNotes[exercise] = note }
      return (noted, nil)
    case _ where StrongHeaders.restRows.contains(order): return (workout, nil)
    default:
      guard order.isEmpty || Int(order) != nil else {
        throw row.fail("Set Order", order, expected: "a set number, W, D, F or Rest Timer")
      }
      kind = "normal"
    }
    let set = LoggedSet(
      exercise: try row.required("Exercise Name"), kind: kind, weightKg: try weightKg(row),
      reps: try row.count("Reps"), distanceKm: try distanceKm(row), durationSeconds: try row.number("Seconds"),
      rpe: try row.number("RPE"), notes: row.text("Notes"))
    return (workout, set)
  }

  /// A session is its date as Strong writes it (`zeroPadded`) and its name.
  static func key(_ dateText: String, _ title: String) -> String { "strong|\(dateText)|\(title)" }

  func refused(_ row: ImportRow) -> RefusedRow {
    let order = row.text("Set Order") ?? ""
    guard order != "Note", !StrongHeaders.restRows.contains(order) else { return .notASet }
    guard let date = row.text("Date"), let title = row.text("Workout Name") else { return .unknown }
    return .set(session: Self.key(Self.zeroPadded(date), title))
  }

  private func weightKg(_ row: ImportRow) throws(InputError) -> Double? {
    if let kg = try row.number("Weight (kg)") { return kg }
    if let lb = try row.number("Weight (lb)") { return converted(lb, by: WeightUnit.lb.kilograms) }
    guard let weight = try row.number("Weight") else { return nil }
    // Zero is zero in any unit (real exports write `0` for a set without weight).
    if weight == 0 { return 0 }
    if let unit = row.text("Weight Unit") {
      guard let named = Self.weightUnits[unit.lowercased()] else {
        throw row.fail("Weight Unit", unit, expected: "kg or lbs")
      }
      return converted(weight, by: named.kilograms)
    }
    // A blank `Weight Unit` cell says no more than a layout without the column.
    guard let kilogramsPerUnit else {
      throw InputError(
        line: row.line, message: "a weight of \(weight) names no unit: pass --weight-unit kg or lb, as set in the app")
    }
    return converted(weight, by: kilogramsPerUnit)
  }

  private func distanceKm(_ row: ImportRow) throws(InputError) -> Double? {
    if let km = try row.number("Distance (km)") { return km }
    if let miles = try row.number("Distance (mi)") { return converted(miles, by: DistanceUnit.mi.kilometres) }
    if let metres = try row.number("Distance (m)") { return metres / 1000 }
    guard let distance = try row.number("Distance") else { return nil }
    // Zero is zero in any unit: a lifting set's `0` in the Distance column needs no --distance-unit.
    if distance == 0 { return 0 }
    if let unit = row.text("Distance Unit") {
      guard let named = Self.distanceUnits[unit.lowercased()] else {
        throw row.fail("Distance Unit", unit, expected: "km, mi or m")
      }
      return converted(distance, by: named)
    }
    guard let kilometresPerUnit else {
      throw InputError(
        line: row.line,
        message: "a distance of \(distance) names no unit: pass --distance-unit km or mi, as set in the app")
    }
    return converted(distance, by: kilometresPerUnit)
  }

  static let weightUnits: [String: WeightUnit] = ["kg": .kg, "kgs": .kg, "lb": .lb, "lbs": .lb]
  static let distanceUnits: [String: Double] = ["km": 1, "mi": 1.609_344, "mi.": 1.609_344, "m": 0.001]

  /// A spreadsheet that saved the file may drop leading zeros (`2020-08-08 9:45:31`): written back
  /// as Strong writes it, so the session's key (from this text) is the one the file as exported gives.
  static func zeroPadded(_ text: String) -> String {
    let utf8 = text.utf8
    if utf8.count == 19,
      utf8.elementsEqual("0000-00-00 00:00:00".utf8, by: { $0 == $1 || ($1 == 48 && $0 >= 48 && $0 <= 57) })
    {
      return text  // as Strong writes it: the common case, without splitting
    }
    let parts = text.split(separator: " ", maxSplits: 1)
    guard parts.count == 2 else { return text }
    let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
    let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
    func isShort(_ part: Substring) -> Bool {
      (1...2).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber }
    }
    guard date.count == 3, date[0].count == 4, isShort(date[1]), isShort(date[2]), (2...3).contains(time.count),
      time.allSatisfy(isShort)
    else { return text }
    func padded(_ part: Substring) -> String { part.count == 1 ? "0" + part : String(part) }
    return date[0] + "-" + padded(date[1]) + "-" + padded(date[2]) + " " + time.map(padded).joined(separator: ":")
  }

  /// `2024-01-12 18:30:00`, local time; also the 12-hour `2025-01-30 12:34:56 pm` (with a narrow
  /// no-break space before the marker).
  static func date(_ text: String) -> Timestamp? {
    let lower = text.lowercased()
    guard lower.hasSuffix("am") || lower.hasSuffix("pm") else { return Timestamp(parsingDateTime: text) }
    let isPM = lower.hasSuffix("pm")
    let body = text.dropLast(2).trimmed
    let parts = body.split(separator: " ")
    guard parts.count == 2, let colon = parts[1].firstIndex(of: ":"), let hour = Int(parts[1][..<colon]),
      (1...12).contains(hour)
    else { return nil }
    let hour24 = hour % 12 + (isPM ? 12 : 0)
    return Timestamp(parsingDateTime: "\(parts[0]) \(hour24 < 10 ? "0" : "")\(hour24)\(parts[1][colon...])")
  }

  /// Seconds in a duration as Strong spells it in each language: `1h 5m`, `36m`, `38min`,
  /// `1 h 46 min`, `45s`, `1小时13分钟`, or `1:05:00`.
  static func seconds(_ text: String) -> Int? {
    let text = text.trimmed
    if text.contains(":") {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
      guard parts.count == 3, let h = parts[0], let m = parts[1], let s = parts[2], (0...1_000_000).contains(h),
        (0..<60).contains(m), (0..<60).contains(s)
      else { return nil }
      return h * 3600 + m * 60 + s
    }
    var total = 0
    var terms = 0
    var rest = Substring(text)
    while let first = rest.first(where: { !$0.isWhitespace }) {
      rest = rest.drop(while: \.isWhitespace)
      guard first.isASCII, first.isNumber else { return nil }
      let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
      rest = rest.dropFirst(digits.count).drop(while: \.isWhitespace)
      let unit = rest.prefix(while: { !$0.isWhitespace && !($0.isASCII && $0.isNumber) })
      rest = rest.dropFirst(unit.count)
      // Bounded, so no sum of units can overflow (fuzzing found a 20-digit hour count).
      guard digits.count <= 7, let value = Int(digits), let factor = durationUnits[unit.lowercased()] else {
        return nil
      }
      total += value * factor
      terms += 1
    }
    return terms > 0 ? total : nil
  }

  static let durationUnits: [String: Int] = [
    "h": 3600, "hr": 3600, "hrs": 3600, "小时": 3600, "m": 60, "min": 60, "mins": 60, "分钟": 60, "s": 1, "sec": 1,
    "秒": 1,
  ]
}
