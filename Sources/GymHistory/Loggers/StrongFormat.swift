import GymCLI
import GymCore

/// Strong's CSV export: `Date;Workout Name;Duration;Exercise Name;Set Order;Weight;Reps;Distance;
/// Seconds;Notes;Workout Notes;RPE`, `;` or `,` separated. Dates are local `YYYY-MM-DD HH:MM:SS`
/// (the session's start), durations like `1h 5m` or `36m`, `Set Order` a number, `W` (warm-up),
/// `D` (drop set), `F` (failure) or `Rest Timer` (not a set). No unit column: weights are in the
/// unit the user set in the app, given here as `--weight-unit`.
struct StrongFormat: LoggerFormat {
  let kilogramsPerUnit: Double
  let kilometresPerUnit: Double

  let columns = [
    "Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps", "Distance", "Seconds",
    "Notes", "Workout Notes", "RPE",
  ]
  let required = ["Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps"]

  func parse(_ row: ImportRow) throws(InputError) -> (LoggedWorkout, LoggedSet?)? {
    let dateText = try row.required("Date")
    guard let start = Timestamp(parsing: dateText) else {
      throw row.fail("Date", dateText, expected: "a date (YYYY-MM-DD HH:MM:SS)")
    }
    let title = try row.required("Workout Name")
    let durationText = row.text("Duration") ?? "0m"
    guard let minutes = Self.minutes(durationText) else {
      throw row.fail("Duration", durationText, expected: "a duration like 1h 5m or 36m")
    }
    let workout = LoggedWorkout(
      key: "strong|\(dateText)|\(title)", title: title, start: start,
      end: start.adding(milliseconds: Int64(minutes) * 60_000), notes: row.text("Workout Notes"))
    let order = try row.required("Set Order")
    let kind: String
    switch order {
    case "W", "w": kind = "warmup"
    case "D", "d": kind = "dropset"
    case "F", "f": kind = "failure"
    case "Rest Timer": return (workout, nil)
    default:
      guard Int(order) != nil else {
        throw row.fail("Set Order", order, expected: "a set number, W, D, F or Rest Timer")
      }
      kind = "normal"
    }
    let set = LoggedSet(
      exercise: try row.required("Exercise Name"), kind: kind,
      weightKg: try row.number("Weight").map { ($0 * kilogramsPerUnit * 1000).rounded() / 1000 },
      reps: try row.number("Reps").map { Int($0) },
      distanceKm: try row.number("Distance").map { ($0 * kilometresPerUnit * 1000).rounded() / 1000 },
      durationSeconds: try row.number("Seconds"), rpe: try row.number("RPE"), notes: row.text("Notes"))
    return (workout, set)
  }

  /// `1h 5m`, `36m`, `45s`, `1h`: whole minutes (seconds round down).
  static func minutes(_ text: String) -> Int? {
    var total = 0
    var number = ""
    var sawUnit = false
    for character in text where !character.isWhitespace {
      if character.isNumber {
        number.append(character)
        continue
      }
      // Bounded, so no sum of units can overflow (found by fuzzing: a 20-digit hour count trapped).
      guard let value = Int(number), value <= 1_000_000 else { return nil }
      switch character {
      case "h": total += value * 3600
      case "m": total += value * 60
      case "s": total += value
      default: return nil
      }
      number = ""
      sawUnit = true
    }
    return sawUnit && number.isEmpty ? total / 60 : nil
  }
}
