import GymCLI
import GymCore

/// Hevy's CSV export: `title,start_time,end_time,description,exercise_title,superset_id,
/// exercise_notes,set_index,set_type,weight_kg,reps,distance_km,duration_seconds,rpe`, one row per
/// set, times in local time like `12 Jan 2024, 18:30`; units are already kg and km.
struct HevyFormat: LoggerFormat {
  let columns = [
    "title", "start_time", "end_time", "description", "exercise_title", "superset_id", "exercise_notes",
    "set_index", "set_type", "weight_kg", "reps", "distance_km", "duration_seconds", "rpe",
  ]
  let required = ["title", "start_time", "end_time", "exercise_title", "set_type", "weight_kg", "reps"]

  func parse(_ row: ImportRow) throws(InputError) -> (LoggedWorkout, LoggedSet?)? {
    let title = try row.required("title")
    let startText = try row.required("start_time")
    let endText = try row.required("end_time")
    guard let start = Self.date(startText) else {
      throw row.fail("start_time", startText, expected: "a time like 12 Jan 2024, 18:30")
    }
    guard let end = Self.date(endText) else {
      throw row.fail("end_time", endText, expected: "a time like 12 Jan 2024, 19:45")
    }
    let workout = LoggedWorkout(
      key: "hevy|\(startText)|\(title)", title: title, start: start, end: max(start, end),
      notes: row.text("description"))
    let type = try row.required("set_type")
    guard WorkoutSetSchema.kinds.contains(type) else {
      throw row.fail("set_type", type, expected: "one of " + WorkoutSetSchema.kinds.joined(separator: ", "))
    }
    let set = LoggedSet(
      exercise: try row.required("exercise_title"), kind: type, weightKg: try row.number("weight_kg"),
      reps: try row.number("reps").map { Int($0) }, distanceKm: try row.number("distance_km"),
      durationSeconds: try row.number("duration_seconds"), rpe: try row.number("rpe"), notes: row.text("exercise_notes")
    )
    return (workout, set)
  }

  static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

  /// `12 Jan 2024, 18:30` (local time); ISO 8601 is accepted too.
  static func date(_ text: String) -> Timestamp? {
    if let iso = Timestamp(parsing: text) { return iso }
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    guard parts.count == 4, let day = Int(parts[0]), let month = months.firstIndex(of: parts[1].prefix(3).lowercased()),
      let year = Int(parts[2]), parts[3].count == 5
    else { return nil }
    let iso = String(format4(year)) + "-" + pad(month + 1) + "-" + pad(day) + " " + parts[3]
    return Timestamp(parsing: iso)
  }

  private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
  private static func format4(_ n: Int) -> String {
    String(repeating: "0", count: max(0, 4 - String(n).count)) + String(n)
  }
}
