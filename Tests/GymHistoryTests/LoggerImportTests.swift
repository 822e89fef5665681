import Foundation
import GRDB
import GymCLI
import GymCore
import TestTimeZone
import Testing

@testable import GymHistory

/// Strong and Hevy exports, generated here with every quirk their real files carry.
@Suite(.serialized) struct LoggerImportTests {
  init() throws { try TestTimeZone.requireUTC() }

  static let strongHeader =
    "Date;Workout Name;Duration;Exercise Name;Set Order;Weight;Reps;Distance;Seconds;Notes;Workout Notes;RPE\n"
  /// Semicolons, a warm-up, a rest timer, a decimal comma, quoted notes with the delimiter inside.
  static let strong =
    strongHeader
    + "2024-01-12 18:30:00;Push Day;1h 5m;Bench Press (Barbell);W;95;10;;;;\"Felt good; strong\";\n"
    + "2024-01-12 18:30:00;Push Day;1h 5m;Bench Press (Barbell);1;185;5;;;\"Pause, then press\";;8.5\n"
    + "2024-01-12 18:30:00;Push Day;1h 5m;Bench Press (Barbell);Rest Timer;;;;90;;;\n"
    + "2024-01-12 18:30:00;Push Day;1h 5m;Overhead Press;2;95,5;8;;;;;9\n"
    + "2024-01-14 07:00:00;Morning Run;36m;Running;1;;;3.1;2160;;;\n"

  static let hevy = """
    title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,set_index,set_type,weight_kg,reps,distance_km,duration_seconds,rpe
    "Leg Day","12 Jan 2024, 18:30","12 Jan 2024, 19:45","",Squat (Barbell),,"Deep, slow",0,warmup,60,10,,,
    "Leg Day","12 Jan 2024, 18:30","12 Jan 2024, 19:45","",Squat (Barbell),,,1,normal,100,5,,,8
    "Leg Day","12 Jan 2024, 18:30","12 Jan 2024, 19:45","",Leg Press,1,,2,dropset,150,12,,,
    "Cardio","3 Feb 2024, 07:05","3 Feb 2024, 07:40","Easy, zone 2",Treadmill,,,0,normal,,,5.2,2100,

    """

  func run(_ format: any LoggerFormat, _ text: String, store: Store?, strict: Bool = false) throws -> LoggerCounts {
    let path = try HistoryFixtures.file("export.csv", text)
    var job = LoggerImport(format: format, path: path)
    job.strict = strict
    return try job.run(openStore: store.map { s in { s } }, progress: ProgressLine("t", enabled: false))
  }

  let pounds = StrongFormat(kilogramsPerUnit: WeightUnit.lb.kilograms, kilometresPerUnit: 1)

  @Test func strongSessionsBecomeWorkoutsWithTheirSets() throws {
    let store = try HistoryFixtures.store()
    let counts = try run(pounds, Self.strong, store: store)
    #expect(counts.rows == 5 && counts.workouts.inserted == 2 && counts.sets.inserted == 4)
    let push = try #require(
      try store.read { try Row.fetchOne($0, sql: "SELECT * FROM workout WHERE planTitle = 'Push Day'") })
    #expect(push["completedAt"] == "2024-01-12T19:35:00.000Z")
    #expect(push["durationMinutes"] == 65)
    #expect(push["focus"] == "push")
    #expect(push["intensity"] == "high")
    #expect(push["notes"] == "Felt good; strong")  // the session's notes, since history/004
    let sets = try store.read {
      try Row.fetchAll(
        $0, sql: "SELECT * FROM workout_set WHERE workoutSeq = ? ORDER BY position", arguments: [push["seq"] as Int64])
    }
    #expect(sets.map { $0["kind"] as String } == ["warmup", "normal", "normal"])
    #expect(sets.map { $0["weightKg"] as Double } == [43.091, 83.915, 43.318])
    #expect(sets[1]["notes"] == "Pause, then press")
    let run = try #require(
      try store.read { try Row.fetchOne($0, sql: "SELECT * FROM workout WHERE planTitle = 'Morning Run'") })
    #expect(run["focus"] == "cardio")
    #expect(run["durationMinutes"] == 36)
  }

  @Test func commaSeparatedStrongWithKilogramsReadsTheSame() throws {
    let store = try HistoryFixtures.store()
    let commas =
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
      + "2024-03-01 10:00:00,Pull,45m,Deadlift,1,140,3,,,,,\n"
    let kilograms = StrongFormat(kilogramsPerUnit: 1, kilometresPerUnit: 1)
    #expect(try run(kilograms, commas, store: store).sets.inserted == 1)
    #expect(try store.read { try Double.fetchOne($0, sql: "SELECT weightKg FROM workout_set") } == 140)
  }

  /// A comma in a number is read only where it can mean one thing. A spreadsheet saving an export in
  /// its number format writes `"1,002.5"` or `"1,000,000"` (thousands), another locale `"140,5"` (a
  /// decimal comma); `"1,000"` alone is a thousand in one and one in the other (it was read as 1 rep):
  /// skipped and told with its line, as is a comma that is neither.
  @Test func aCommaInANumberIsReadOnlyWhereItMeansOneThing() throws {
    let kilograms = StrongFormat(kilogramsPerUnit: 1, kilometresPerUnit: 1)
    let header =
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
    let commas =
      header
      + "2024-03-01 10:00:00,Pull,45m,Plank,1,\"1,002.5\",\"1,000.0\",,,,,\n"
      + "2024-03-01 10:00:00,Pull,45m,Plank,2,\"140,5\",3,,,,,\n"
      + "2024-03-01 10:00:00,Pull,45m,Plank,3,140,\"1,000\",,,,,\n"
      + "2024-03-01 10:00:00,Pull,45m,Plank,4,\"1,000,00\",3,,,,,\n"
      + "2024-03-01 10:00:00,Pull,45m,Plank,5,\"2,500\",3,,,,,\n"
    let store = try HistoryFixtures.store()
    let counts = try run(kilograms, commas, store: store)
    #expect(counts.skips.summary == "; 3 records skipped (lines 4, 5, 6)")
    let sets = try store.read {
      try Row.fetchAll($0, sql: "SELECT weightKg, reps FROM workout_set ORDER BY position").map {
        [$0["weightKg"] as Double, Double($0["reps"] as Int)]
      }
    }
    // 1 × 1000 + 2.5 kg for 1 × 1000 reps; 140 + 5/10 kg for 3.
    #expect(sets == [[1002.5, 1000], [140.5, 3]])

    let semicolons =
      Self.strongHeader + "2024-03-02 10:00:00;Legs;45m;Squat;1;1,000;3;;;;;\n"
      + "2024-03-02 10:00:00;Legs;45m;Squat;2;1,000.5;3;;;;;\n"
    let other = try HistoryFixtures.store()
    let read = try run(kilograms, semicolons, store: other)
    #expect(read.skips.summary == "; 1 record skipped (line 2)")
    #expect(try other.read { try Double.fetchOne($0, sql: "SELECT weightKg FROM workout_set") } == 1000.5)
  }

  /// An earlier import read the English file's local times in Tokyo (UTC+9): its Leg Day ended at
  /// 19:45 there, 10:45Z, before this import's start of 18:30Z read in UTC. The same session in
  /// Spanish is still found (within 26 hours either side), not added again.
  @Test func aHevySessionImportedInAnotherTimeZoneIsFoundAcrossLanguages() throws {
    let store = try HistoryFixtures.store()
    let legDay = StableID.uuid(for: HevyFormat.key("12 Jan 2024, 18:30", "Leg Day"))
    try store.write { db in
      try db.execute(
        sql:
          "INSERT INTO workout (id, completedAt, status, planTitle) VALUES (?, '2024-01-12T10:45:00.000Z', 'completed', 'Leg Day')",
        arguments: [legDay])
    }
    let spanish = Self.hevy.replacingOccurrences(of: "12 Jan 2024", with: "12 ene 2024")
    let counts = try run(HevyFormat(), spanish, store: store)
    // Leg Day found under the English key's id; Cardio is new.
    #expect(counts.workouts.inserted == 1, "\(counts.workouts)")
    #expect(
      try store.read { try String.fetchAll($0, sql: "SELECT id FROM workout WHERE planTitle = 'Leg Day'") } == [legDay])
  }

  /// Strong S9 writes an exercise's note as a row of its own (`Note` in Set Order, the text in
  /// Notes), which is no set: its text becomes the note of each of that exercise's sets in the
  /// session that has none of its own (as Hevy's `exercise_notes`); before, it was dropped.
  @Test func anS9ExerciseNoteIsKeptOnItsSets() throws {
    let header =
      "\"Workout #\";\"Date\";\"Workout Name\";\"Duration (sec)\";\"Exercise Name\";\"Set Order\";\"Weight (kg)\";"
      + "\"Reps\";\"RPE\";\"Distance (meters)\";\"Seconds\";\"Notes\";\"Workout Notes\"\n"
    let rows = [
      "1;2025-03-01 10:00:00;Push;3600;Bench Press;Note;;;;;;Elbows tucked;",
      "1;2025-03-01 10:00:00;Push;3600;Bench Press;1;60;10;;;;;",
      "1;2025-03-01 10:00:00;Push;3600;Bench Press;2;70;8;;;;Grip slipped;",
      "1;2025-03-01 10:00:00;Push;3600;Dip;1;0;12;;;;;",
      "1;2025-03-01 10:00:00;Push;3600;Bench Press;Note;;;;;;Back-off: touch and go;",
    ]
    let store = try HistoryFixtures.store()
    let counts = try run(
      StrongFormat(kilogramsPerUnit: 1, kilometresPerUnit: 1), header + rows.joined(separator: "\n") + "\n",
      store: store)
    #expect(counts.sets.inserted == 3 && counts.skips.count == 0)
    let notes = try store.read {
      try Row.fetchAll($0, sql: "SELECT exercise, notes FROM workout_set ORDER BY position").map {
        "\($0["exercise"] as String): \(($0["notes"] as String?) ?? "-")"
      }
    }
    // A second note of Bench Press in the session is kept beside the first.
    #expect(notes == ["Bench Press: Elbows tucked; Back-off: touch and go", "Bench Press: Grip slipped", "Dip: -"])
  }

  /// The same two sessions exported after the phone's language changed: each style's text for
  /// 12 Jan 2024 18:30 (to 19:45) and 3 Feb 2024 07:05 (to 07:40). Imported after the English file,
  /// or before it, they are the same two workouts with the same four sets, not two more.
  @Test(arguments: [
    ("Jan 12, 2024, 6:30 PM", "Jan 12, 2024, 7:45 PM", "Feb 3, 2024, 7:05 AM", "Feb 3, 2024, 7:40 AM"),
    ("12 ene 2024, 18:30", "12 ene 2024, 19:45", "3 feb 2024, 07:05", "3 feb 2024, 07:40"),
    ("12 de jan. de 2024, 18:30", "12 de jan. de 2024, 19:45", "3 de fev. de 2024, 07:05", "3 de fev. de 2024, 07:40"),
    ("12. Januar 2024, 18:30", "12. Januar 2024, 19:45", "3. Februar 2024, 07:05", "3. Februar 2024, 07:40"),
    ("12 Oca 2024, 18:30", "12 Oca 2024, 19:45", "3 Şub 2024, 07:05", "3 Şub 2024, 07:40"),
    ("12 gen 2024, 18:30", "12 gen 2024, 19:45", "3 feb 2024, 7:05", "3 feb 2024, 7:40"),
    ("2024-01-12 18:30:00", "2024-01-12 19:45:00", "2024-02-03T07:05", "2024-02-03T07:40"),
    ("12 Jan 2024, 6:30 PM", "12 Jan 2024, 7:45 PM", "3 Feb 2024, 7:05 a. m.", "3 Feb 2024, 7:40 a. m."),
    ("Jan 12, 2024, 18:30", "Jan 12, 2024, 19:45", "Feb 3, 2024, 07:05:00", "Feb 3, 2024, 07:40:00"),
  ])
  func aHevySessionExportedInAnotherLanguageIsTheSameWorkout(
    legStart: String, legEnd: String, cardioStart: String, cardioEnd: String
  ) throws {
    let translated = Self.hevy.replacingOccurrences(of: "12 Jan 2024, 18:30", with: legStart)
      .replacingOccurrences(of: "12 Jan 2024, 19:45", with: legEnd)
      .replacingOccurrences(of: "3 Feb 2024, 07:05", with: cardioStart)
      .replacingOccurrences(of: "3 Feb 2024, 07:40", with: cardioEnd)
    #expect(translated.contains(legStart) && translated.contains(cardioEnd))
    for (first, second) in [(Self.hevy, translated), (translated, Self.hevy)] {
      let store = try HistoryFixtures.store()
      _ = try run(HevyFormat(), first, store: store)
      let again = try run(HevyFormat(), second, store: store)
      #expect(again.workouts.inserted == 0 && again.sets.inserted == 0)
      #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout") } == 2)
      #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout_set") } == 4)
    }
    // A minute later is another session.
    let store = try HistoryFixtures.store()
    _ = try run(HevyFormat(), Self.hevy, store: store)
    let later = translated.replacingOccurrences(
      of: legStart, with: legStart.replacingOccurrences(of: ":30", with: ":31"))
    #expect(try run(HevyFormat(), later, store: store).workouts.inserted == 1)
  }

  @Test func hevySessionsUseStartAndEndTimes() throws {
    let store = try HistoryFixtures.store()
    let counts = try run(HevyFormat(), Self.hevy, store: store)
    #expect(counts.workouts.inserted == 2 && counts.sets.inserted == 4)
    let legs = try #require(
      try store.read { try Row.fetchOne($0, sql: "SELECT * FROM workout WHERE planTitle = 'Leg Day'") })
    #expect(legs["completedAt"] == "2024-01-12T19:45:00.000Z")
    #expect(legs["durationMinutes"] == 75)
    #expect(legs["focus"] == "legs")
    #expect(legs["notes"] == nil as String?)  // an empty description is no notes
    let cardio = try store.read { try String.fetchOne($0, sql: "SELECT notes FROM workout WHERE planTitle = 'Cardio'") }
    #expect(cardio == "Easy, zone 2")
    let kinds = try store.read { try String.fetchAll($0, sql: "SELECT kind FROM workout_set ORDER BY seq") }
    #expect(kinds == ["warmup", "normal", "dropset", "normal"])
    #expect(
      try store.read { try Double.fetchOne($0, sql: "SELECT distanceKm FROM workout_set WHERE exercise = 'Treadmill'") }
        == 5.2)
  }

  @Test(arguments: [false, true])
  func reimportingAddsNothing(hevy: Bool) throws {
    let store = try HistoryFixtures.store()
    let format: any LoggerFormat = hevy ? HevyFormat() : pounds
    let text = hevy ? Self.hevy : Self.strong
    _ = try run(format, text, store: store)
    let again = try run(format, text, store: store)
    #expect(
      again.workouts.inserted == 0 && again.workouts.updated == 0 && again.sets.inserted == 0 && again.sets.updated == 0
    )
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout_set") } == 4)
  }

  @Test func deletingAWorkoutDeletesItsSets() throws {
    let store = try HistoryFixtures.store()
    _ = try run(HevyFormat(), Self.hevy, store: store)
    try store.write { try $0.execute(sql: "DELETE FROM workout WHERE planTitle = 'Leg Day'") }
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout_set") } == 1)
  }

  @Test func anUnknownLayoutNamesTheExpectedHeaders() throws {
    do {
      _ = try run(HevyFormat(), "Date,Exercise,Reps\n2024-01-01,Squat,5\n", store: try HistoryFixtures.store())
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.status == .dataError)
      #expect(error.message.contains("missing column(s) title, start_time, end_time"))
    }
  }

  @Test func badDatesAndDurationsNameTheLineAndRefuseTheFileWhenStrict() throws {
    let badDate = Self.strongHeader + "2024-01-12 18:30:00;A;1h;X;1;1;1;;;;;\n12/01/2024;B;1h;X;1;1;1;;;;;\n"
    let badDuration = Self.strongHeader + "2024-01-12 18:30:00;A;an hour;X;1;1;1;;;;;\n"
    for (text, expected) in [(badDate, ":3: column 'Date': '12/01/2024'"), (badDuration, ":2: column 'Duration'")] {
      let store = try HistoryFixtures.store()
      do {
        _ = try run(pounds, text, store: store, strict: true)
        Issue.record("expected an error")
      } catch let error as GymError {
        #expect(error.status == .dataError)
        #expect(error.message.contains(expected), "\(error.message)")
      }
      #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout") } == 0)
      // Without strict the row is skipped and counted; the bad-date file's other session is imported.
      let counts = try run(pounds, text, store: store)
      #expect(counts.skips.count == 1)
      #expect(counts.workouts.inserted == (text == badDate ? 1 : 0))
    }
  }

  /// A row with one field too many (line 3), one with too few (line 4) and a last line cut off
  /// (line 6): each is skipped with its line, and the two whole sets import (one session, lines 2
  /// and 5). `--strict` refuses the file at line 3 and writes nothing.
  @Test func rowsWithTheWrongNumberOfFieldsAreSkipped() throws {
    let text =
      Self.strongHeader
      + "2024-01-12 18:30:00;Push Day;1h;Bench Press;1;100;5;;;;;\n"
      + "2024-01-12 18:30:00;Push Day;1h;Bench Press;2;100;5;;;;;;extra\n"
      + "2024-01-12 18:30:00;Push Day;1h;Bench Press;3;100\n"
      + "2024-01-12 18:30:00;Push Day;1h;Overhead Press;1;60;8;;;;;\n"
      + "2024-01-12 18:30:00;Push Day;1h;Overhead Press;2;6"
    let store = try HistoryFixtures.store()
    do {
      _ = try run(pounds, text, store: store, strict: true)
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.message.contains(":3: the record has 13 fields but the header has 12"), "\(error.message)")
    }
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout") } == 0)
    let counts = try run(pounds, text, store: store)
    #expect(counts.skips.count == 3)
    #expect(counts.skips.summary == "; 3 records skipped (lines 3, 4, 6)")
    #expect(counts.rows == 5)
    #expect(counts.workouts.inserted == 1 && counts.sets.inserted == 2)
  }

  /// A session whose rows are not together (the file sorted in a spreadsheet) is one workout: its
  /// sets continue, its intensity is from every RPE ((10 + 6) / 2 = 8: moderate, where the last
  /// block alone, 6, is low), its notes are the ones it was given, and it is counted once. Imported
  /// again, nothing changes.
  @Test func aSessionWhoseRowsAreApartIsOneWorkout() throws {
    let text =
      Self.strongHeader
      + "2024-01-10 18:00:00;Push;1h;Bench Press;1;60;8;;;;Felt good;10\n"
      + "2024-01-11 18:00:00;Pull;1h;Row;1;60;8;;;;;\n"
      + "2024-01-10 18:00:00;Push;1h;Overhead Press;1;40;8;;;;;6\n"
    let store = try HistoryFixtures.store()
    let first = try run(pounds, text, store: store)
    let w = first.workouts
    #expect([w.read, w.inserted, w.updated, w.unchanged] == [Int]([2, 2, 0, 0]))
    #expect(first.sets.inserted == 3)
    let push = try #require(
      try store.read { try Row.fetchOne($0, sql: "SELECT * FROM workout WHERE planTitle = 'Push'") })
    #expect(push["intensity"] == "moderate")
    #expect(push["notes"] == "Felt good")
    let exercises = try store.read {
      try String.fetchAll(
        $0, sql: "SELECT exercise FROM workout_set WHERE workoutSeq = ? ORDER BY position",
        arguments: [push["seq"] as Int64])
    }
    #expect(exercises == ["Bench Press", "Overhead Press"])
    let again = try run(pounds, text, store: store)
    let v = again.workouts
    #expect([v.read, v.inserted, v.updated, v.unchanged] == [Int]([2, 0, 0, 2]))
    #expect(again.sets.unchanged == 3)
  }

  /// A dry run without a database counts the sessions it would make: two here, from three rows.
  @Test func aDryRunWithoutADatabaseCountsSessions() throws {
    let text =
      Self.strongHeader + "2024-01-10 18:00:00;Push;1h;Bench Press;1;60;8;;;;;\n"
      + "2024-01-10 18:00:00;Push;1h;Dip;1;0;8;;;;;\n" + "2024-01-11 18:00:00;Pull;1h;Row;1;60;8;;;;;\n"
    #expect(try run(pounds, text, store: nil).workouts.inserted == 2)
  }

  @Test func durationsAndIdsParse() {
    #expect(StrongFormat.seconds("1h 5m") == 65 * 60)
    #expect(StrongFormat.seconds("36m") == 36 * 60)
    #expect(StrongFormat.seconds("1h") == 3600)
    // Found by make fuzz: a huge hour count overflowed and trapped; now it is not a duration.
    #expect(StrongFormat.seconds("99999999999999999h") == nil)
    #expect(StrongFormat.seconds("90s") == 90)
    #expect(StrongFormat.seconds("5") == nil)
    #expect(StableID.uuid(for: "a") == StableID.uuid(for: "a"))
    #expect(StableID.uuid(for: "a") != StableID.uuid(for: "b"))
    #expect(UUID(uuidString: StableID.uuid(for: "strong|x")) != nil)
  }

  /// A title names a focus only by whole words, and only one focus: letters inside a word count for
  /// nothing, and two foci leave it unknown.
  @Test(
    arguments: [
      ("Push Day", "push"), ("Leg Day", "legs"), ("Morning Run", "cardio"), ("Full Body A", "fullBody"),
      ("Full-Body", "fullBody"), ("CHEST & BACK DAY", nil), ("escape the BACKrooms", nil), ("Feedback session", nil),
      ("Backyard Sprints", nil), ("Arrow practice", nil), ("Upper (chest)", nil), ("back day", "pull"),
    ] as [(String, String?)])
  func focusComesFromWholeWords(title: String, focus: String?) throws {
    let workout = LoggedWorkout(
      key: "k", title: title, start: Timestamp(millisecondsSince1970: 0), end: Timestamp(millisecondsSince1970: 0),
      durationMinutes: nil)
    #expect(workout.focus == focus, "\(title)")
  }
}
