import GymCore

/// A logger's value in another unit, in gym's: converted values keep a thousandth of their unit
/// (`20 lbs` is 9.072 kg), so the same file always stores the same number.
func converted(_ value: Double, by factor: Double) -> Double {
  factor == 1 ? value : (value * factor * 1000).rounded() / 1000
}

/// One set as a workout logger recorded it, in gym's units.
struct LoggedSet: Equatable {
  var exercise: String
  var kind: String
  var weightKg: Double?
  var reps: Int?
  var distanceKm: Double?
  var durationSeconds: Double?
  var rpe: Double?
  var notes: String?
  /// Its place among its session's sets, from 1, counting the rows of the session that were sets
  /// (those gym could not read included): set by the import, not by the format.
  var position = 0

  /// Every value within what a person could mean (`PlausibleRange`); else the row's line and the bound.
  func checkPlausible(line: Int) throws(InputError) {
    try PlausibleRange.check(weightKg, PlausibleRange.kilograms, "a weight of kg", line: line)
    try PlausibleRange.check(reps.map(Double.init), PlausibleRange.reps, "reps", line: line)
    try PlausibleRange.check(distanceKm, PlausibleRange.kilometres, "a distance of km", line: line)
    try PlausibleRange.check(durationSeconds, PlausibleRange.seconds, "a duration of seconds", line: line)
    try PlausibleRange.check(rpe, PlausibleRange.rpe, "an RPE of", line: line)
  }
}

/// One session from a workout logger's export: the rows that share its date and name.
struct LoggedWorkout: Equatable {
  /// What identifies the session in its export (`strong|2024-01-12 18:30:00|Push`).
  var key: String
  var title: String
  var start: Timestamp
  /// When it ended: the workout's `completedAt`.
  var end: Timestamp
  /// The time spent, which a paused workout makes shorter than `end - start`; nil when the export
  /// does not say (Strong's oldest layouts).
  var durationMinutes: Double?
  var sets: [LoggedSet] = []
  /// Set by importers that know the kind of activity (Apple Health); else read from the title.
  var focusOverride: String?
  /// The session's own notes (Strong's "Workout Notes", Hevy's "description").
  var notes: String?
  /// An exercise's note in this session (Strong S9's `Note` rows), by exercise: the note of each of
  /// its sets that has none of its own, as Hevy's `exercise_notes` is.
  var exerciseNotes: [String: String] = [:]
  /// The start as a Hevy export wrote it, in its language: the same start in the other languages
  /// names the session in a database an earlier import of such an export wrote (`formerKeys`).
  var hevyStart: String?
  /// Totals the source recorded for the whole session (Apple Health), in km and kcal.
  var distanceKm: Double?
  var activeEnergyKcal: Double?

  init(
    key: String, title: String, start: Timestamp, end: Timestamp, durationMinutes: Double?, notes: String? = nil
  ) {
    self.key = key
    self.title = title
    self.start = start
    self.end = end
    self.durationMinutes = durationMinutes
    self.notes = notes
  }

  /// A session whose export gives its start and how long it took (nil: the end is the start).
  init(key: String, title: String, start: Timestamp, minutes: Double?, notes: String?) throws(InputError) {
    // Years 1 to 9999, as everywhere gym reads a date: year 0 is no one's workout, and blamed on the
    // duration it read as "out of range".
    guard start.isWithinCalendarYears else {
      throw InputError(line: 0, message: "its start, \(start.canonical), is outside the years 1 to 9999")
    }
    var end = start
    if let minutes {
      guard let offset = Int64(exactly: (minutes * 60_000).rounded()), let later = start.adding(checked: offset)
      else { throw InputError(line: 0, message: "a duration of \(minutes) minutes is out of range") }
      guard later.isWithinCalendarYears else {
        throw InputError(line: 0, message: "it ends after 9999-12-31 (a duration of \(minutes) minutes)")
      }
      end = later
    }
    self.init(key: key, title: title, start: start, end: end, durationMinutes: minutes, notes: notes)
  }

  /// The time spent unknown: it ended, as far as gym knows, when it started.
  mutating func forgetDuration() {
    durationMinutes = nil
    end = start
  }

  /// Its totals within what a person could mean (`PlausibleRange`); else the row's line and the bound.
  func checkPlausible(line: Int) throws(InputError) {
    try PlausibleRange.check(durationMinutes, PlausibleRange.minutes, "a duration of minutes", line: line)
    try PlausibleRange.check(distanceKm, PlausibleRange.kilometres, "a distance of km", line: line)
    try PlausibleRange.check(activeEnergyKcal, PlausibleRange.kilocalories, "an energy of kcal", line: line)
  }

  /// A stable UUID from the key, so importing the same export again finds the same workout.
  var id: String { StableID.uuid(for: key) }

  /// The keys this session had in exports of the same app in its other languages (Hevy), whose
  /// ids an earlier import may have stored it under.
  var formerKeys: [String] {
    guard let written = hevyStart.flatMap(HevyDates.written) else { return [] }
    return HevyDates.spellings(written).map { HevyFormat.key($0, title) }.filter { $0 != key }
  }

  /// The focus the source states (Apple Health's activity) or a whole word of the title names, such
  /// as "Push Day" or "Leg Day"; nil when neither says, or when the title's words name two foci
  /// ("Chest & Back"). Never a guess from letters inside a word ("BACKrooms"): Docs/History/Imports.md.
  var focus: String? {
    if let focusOverride { return focusOverride }
    let words = title.lowercased().split { !$0.isLetter }.map(String.init)
    var named = Set(words.compactMap { Self.focusWords[$0] })
    if zip(words, words.dropFirst()).contains(where: { $0 == "full" && $1 == "body" }) { named.insert("fullBody") }
    return named.count == 1 ? named.first : nil
  }

  /// The words of a title that name a focus, whole words only.
  static let focusWords: [String: String] = [
    "push": "push", "chest": "push", "pull": "pull", "back": "pull", "leg": "legs", "legs": "legs",
    "squat": "legs", "upper": "upper", "lower": "lower", "core": "core", "abs": "core", "run": "cardio",
    "running": "cardio", "cardio": "cardio", "bike": "cardio", "cycling": "cardio", "row": "cardio",
    "rowing": "cardio", "swim": "cardio", "swimming": "cardio", "hiit": "cardio", "yoga": "mobility",
    "mobility": "mobility", "stretch": "mobility", "stretching": "mobility", "fullbody": "fullBody",
  ]

  /// RPEs added up in the file's order, and how many.
  struct RPETotal: Equatable {
    var sum = 0.0
    var count = 0
  }

  /// The RPEs of this session's rows met earlier in the file, when its rows are not together.
  var earlierRPE = RPETotal()

  /// All the session's RPEs so far, earlier rows first.
  var allRPE: RPETotal {
    sets.compactMap(\.rpe).reduce(into: earlierRPE) { total, rpe in
      total.sum += rpe
      total.count += 1
    }
  }

  /// From the sets' average RPE: 8.5 and up is high, 6.5 and up moderate, else low; nil without RPE.
  var intensity: String? {
    let total = allRPE
    guard total.count > 0 else { return nil }
    let average = total.sum / Double(total.count)
    return average >= 8.5 ? "high" : average >= 6.5 ? "moderate" : "low"
  }
}

/// Deterministic UUID-shaped ids (RFC 9562 version 8) from two FNV-1a hashes of a text.
enum StableID {
  static func uuid(for text: String) -> String {
    func fnv(_ seed: UInt64) -> UInt64 {
      var hash = seed
      for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01B3
      }
      return hash
    }
    var high = fnv(0xCBF2_9CE4_8422_2325)
    var low = fnv(0x8422_2325_CBF2_9CE4)
    high = (high & ~0xF000) | 0x8000  // version 8
    low = (low & ~(0xC << 60)) | (0x8 << 60)  // RFC variant
    let hex = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
    let chars = Array(hex)
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
