import GymCore

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
}

/// One session from a workout logger's export: the rows that share its date and name.
struct LoggedWorkout: Equatable {
  /// What identifies the session in its export (`strong|2024-01-12 18:30:00|Push`).
  var key: String
  var title: String
  var start: Timestamp
  var end: Timestamp
  var sets: [LoggedSet] = []
  /// Set by importers that know the kind of activity (Apple Health); else guessed from the title.
  var focusOverride: String?
  /// The session's own notes (Strong's "Workout Notes", Hevy's "description").
  var notes: String?

  /// A stable UUID from the key, so importing the same export again finds the same workout.
  var id: String { StableID.uuid(for: key) }

  var durationMinutes: Int { max(0, Int((end.millisecondsSince1970 - start.millisecondsSince1970) / 60_000)) }

  /// The focus, from words in the title; `fullBody` when none fits. Documented in Docs/History.
  var focus: String {
    if let focusOverride { return focusOverride }
    let title = title.lowercased()
    let rules: [(String, [String])] = [
      ("push", ["push", "chest"]), ("pull", ["pull", "back"]), ("legs", ["leg", "squat"]),
      ("upper", ["upper"]), ("lower", ["lower"]), ("core", ["core", "abs"]),
      ("cardio", ["run", "cardio", "bike", "cycling", "row", "swim", "hiit"]),
      ("mobility", ["yoga", "mobility", "stretch"]),
    ]
    return rules.first { $0.1.contains(where: title.contains) }?.0 ?? "fullBody"
  }

  /// From the sets' average RPE: 8.5 and up is high, 6.5 and up moderate; moderate without RPE.
  var intensity: String {
    let rpes = sets.compactMap(\.rpe)
    guard !rpes.isEmpty else { return "moderate" }
    let average = rpes.reduce(0, +) / Double(rpes.count)
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
