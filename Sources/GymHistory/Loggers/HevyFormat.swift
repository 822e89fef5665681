import GymCLI
import GymCore

/// Hevy's CSV export: `title,start_time,end_time,description,exercise_title,superset_id,
/// exercise_notes,set_index,set_type,weight_kg,reps,distance_km,duration_seconds,rpe`, every
/// header name quoted, one row per set. Weights are `weight_kg` or `weight_lbs` and distances
/// `distance_km` or `distance_miles`; times are local, written in the export's language
/// (`HevyDates`).
struct HevyFormat: LoggerFormat {
  let columns = [
    "title", "start_time", "end_time", "description", "exercise_title", "superset_id", "exercise_notes",
    "set_index", "set_type", "weight_kg", "weight_lbs", "reps", "distance_km", "distance_miles", "duration_seconds",
    "rpe",
  ]
  let required = ["title", "start_time", "end_time", "exercise_title", "set_type", "reps"]

  func check(header: Set<String>) throws(InputError) {
    guard header.contains("weight_kg") || header.contains("weight_lbs") else {
      throw InputError(line: 1, message: "not a Hevy export: no weight_kg or weight_lbs column")
    }
  }

  func parse(_ row: ImportRow) throws(InputError) -> (LoggedWorkout, LoggedSet?)? {
    let title = try row.required("title")
    let startText = try row.required("start_time")
    let endText = try row.required("end_time")
    guard let start = HevyDates.parse(startText) else {
      throw row.fail("start_time", startText, expected: "a time like 8 Apr 2026, 16:50")
    }
    guard let end = HevyDates.parse(endText) else {
      throw row.fail("end_time", endText, expected: "a time like 8 Apr 2026, 17:45")
    }
    // An end before the start is a negative duration, which the import keeps as unknown.
    let minutes = (Double(end.millisecondsSince1970) - Double(start.millisecondsSince1970)) / 60_000
    var workout = LoggedWorkout(
      key: Self.key(startText, title), title: title, start: start, end: max(start, end), durationMinutes: minutes,
      notes: row.text("description"))
    workout.hevyStart = startText
    let type = try row.required("set_type")
    guard WorkoutSetSchema.kinds.contains(type) else {
      throw row.fail("set_type", type, expected: "one of " + WorkoutSetSchema.kinds.joined(separator: ", "))
    }
    var weightKg = try row.number("weight_kg")
    if weightKg == nil, let pounds = try row.number("weight_lbs") {
      weightKg = converted(pounds, by: WeightUnit.lb.kilograms)
    }
    var distanceKm = try row.number("distance_km")
    if distanceKm == nil, let miles = try row.number("distance_miles") {
      distanceKm = converted(miles, by: DistanceUnit.mi.kilometres)
    }
    let set = LoggedSet(
      exercise: try row.required("exercise_title"), kind: type, weightKg: weightKg, reps: try row.count("reps"),
      distanceKm: distanceKm, durationSeconds: try row.number("duration_seconds"), rpe: try row.number("rpe"),
      notes: row.text("exercise_notes"))
    return (workout, set)
  }

  /// A session is its start as the file writes it and its title.
  static func key(_ startText: String, _ title: String) -> String { "hevy|\(startText)|\(title)" }

  func refused(_ row: ImportRow) -> RefusedRow {
    guard let start = row.text("start_time"), let title = row.text("title") else { return .unknown }
    return .set(session: Self.key(start, title))
  }
}
