import Foundation
import GRDB
import GymCore
import GymModules
import Testing

/// The history module's first evolutions, each from the version before it, on a database filled
/// with workouts and their sets: notes (additive), durationSeconds (rename), sport (rebuild).
@Suite struct HistoryEvolutionTests {
  /// The registered modules with history stopped before `identifier`.
  static func modules(before identifier: String) -> [GymModule] {
    registeredModules.map { module in
      guard let end = module.migrations.firstIndex(where: { $0.identifier == identifier }) else { return module }
      return GymModule(name: module.name, migrations: Array(module.migrations[..<end]), tables: [])
    }
  }

  /// 300 workouts (every tenth an Apple Health soccer game, imported as fullBody) with two sets each.
  static func filled(before identifier: String) throws -> String {
    let path = try MigrationFixtures.temporaryPath()
    let store = try Store(path: path, modules: modules(before: identifier))
    let setColumn = identifier < "history/006" ? "seconds" : "durationSeconds"
    try store.write { db in
      for i in 0..<300 {
        try db.execute(
          sql: """
            INSERT INTO workout (seq, id, completedAt, status, planTitle, focus, durationMinutes, intensity)
            VALUES (?, ?, ?, 'completed', ?, ?, 60, 'moderate')
            """,
          arguments: [
            i + 1, UUID().uuidString.lowercased(), String(format: "2026-01-01T00:%02d:00.000Z", i % 60),
            i % 10 == 0 ? "Soccer" : "Push Day", i % 10 == 0 ? "fullBody" : "push",
          ])
        for position in 1...2 {
          try db.execute(
            sql:
              "INSERT INTO workout_set (workoutSeq, position, exercise, kind, \(setColumn)) VALUES (?, ?, 'Plank', 'normal', ?)",
            arguments: [i + 1, position, Double(30 * position)])
        }
      }
    }
    return path
  }

  func migrated(_ path: String) throws -> Store { try Store(path: path, modules: registeredModules) }

  @Test func notesArriveEmptyOnEveryWorkout() throws {
    let store = try migrated(try Self.filled(before: "history/004-workout-notes"))
    let counts = try store.read { db in
      try [
        Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout WHERE notes IS NULL"),
        Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout_set"),
      ]
    }
    #expect(counts == [300, 600])
  }

  @Test func setSecondsBecomeDurationSeconds() throws {
    let store = try migrated(try Self.filled(before: "history/005-set-duration-seconds"))
    let columns = try store.read { db in try db.columns(in: "workout_set").map(\.name) }
    #expect(columns.contains("durationSeconds") && !columns.contains("seconds"))
    let total = try store.read { db in try Double.fetchOne(db, sql: "SELECT SUM(durationSeconds) FROM workout_set") }
    #expect(total == Double(300 * 90))
  }

  /// The rebuild keeps every workout and every set's link to it, moves the sport games to
  /// `sport`, enforces the new CHECK, and the list still walks its index.
  @Test func theFocusRebuildKeepsEveryRelationship() throws {
    let path = try Self.filled(before: "history/006-workout-focus-sport")
    let before = try DatabaseQueue(path: path).read { db in
      try Row.fetchAll(
        db,
        sql:
          "SELECT w.id, s.position, s.durationSeconds FROM workout_set s JOIN workout w ON w.seq = s.workoutSeq ORDER BY s.rowid"
      )
    }
    let store = try migrated(path)
    try store.read { db in
      let after = try Row.fetchAll(
        db,
        sql:
          "SELECT w.id, s.position, s.durationSeconds FROM workout_set s JOIN workout w ON w.seq = s.workoutSeq ORDER BY s.rowid"
      )
      #expect(after == before)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout WHERE focus = 'sport'") == 30)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout WHERE focus = 'push'") == 270)
      let plan = try Row.fetchAll(
        db, sql: "EXPLAIN QUERY PLAN SELECT id FROM workout ORDER BY completedAt DESC LIMIT 20"
      )
      .map { $0["detail"] as String }.joined()
      #expect(plan.contains("workout_completedAt"))
      #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
    }
    try store.write { db in
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "UPDATE workout SET focus = 'chess' WHERE seq = 1")
      }
      // The cascade from a workout to its sets survived the rebuild.
      try db.execute(sql: "DELETE FROM workout WHERE seq = 1")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout_set WHERE workoutSeq = 1") == 0)
    }
    #expect(Backup.list(of: path).count == 1)
  }

  /// history/007 keeps every value of every workout and set, adds the totals as unknown, and from
  /// then on takes what a source does not say as unknown and a duration with its fraction, while
  /// the CHECKs still refuse what is wrong.
  @Test func unknownValuesAndTotalsKeepEveryWorkout() throws {
    let path = try Self.filled(before: "history/007-workout-unknown-values-and-totals")
    let columns = "seq, id, completedAt, status, planTitle, focus, durationMinutes, intensity, notes"
    let read = "SELECT \(columns) FROM workout ORDER BY seq"
    let sets = "SELECT * FROM workout_set ORDER BY seq"
    let (workoutsBefore, setsBefore) = try DatabaseQueue(path: path).read { db in
      (try Row.fetchAll(db, sql: read), try Row.fetchAll(db, sql: sets))
    }
    let store = try migrated(path)
    try store.read { db in
      #expect(try Row.fetchAll(db, sql: read) == workoutsBefore)
      #expect(try Row.fetchAll(db, sql: sets) == setsBefore)
      #expect(
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout WHERE distanceKm IS NULL AND activeEnergyKcal IS NULL")
          == 300)
      #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
      let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM workout WHERE id = 'x'")
        .map { $0["detail"] as String }.joined()
      #expect(plan.contains("workout_id"))
    }
    try store.write { db in
      try db.execute(
        sql: """
          INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity, distanceKm,
            activeEnergyKcal)
          VALUES ('new', '2026-01-02T00:00:00.000Z', 'completed', 'Run', NULL, 28.81, NULL, 5.21, 250)
          """)
      #expect(try Double.fetchOne(db, sql: "SELECT durationMinutes FROM workout WHERE id = 'new'") == 28.81)
      for change in ["focus = 'chess'", "intensity = 'extreme'", "durationMinutes = -1", "distanceKm = -0.5"] {
        #expect(throws: DatabaseError.self, "\(change)") {
          try db.execute(sql: "UPDATE workout SET \(change) WHERE seq = 1")
        }
      }
      try db.execute(sql: "DELETE FROM workout WHERE seq = 1")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout_set WHERE workoutSeq = 1") == 0)
    }
  }

  /// history/008 keeps every sample as it was, and from then on takes any type, unit and stage an
  /// export holds; an interval that ends before it starts is still refused, and ranges still search
  /// the natural key.
  @Test func samplesOfEveryTypeKeepEverySample() throws {
    let path = try MigrationFixtures.temporaryPath()
    let old = try Store(path: path, modules: Self.modules(before: "history/008-samples-of-every-type"))
    let types = [
      ("steps", "count", "none"), ("heartRate", "count/min", "none"), ("sleep", "min", "asleepREM"),
      ("bodyMass", "kg", "none"),
    ]
    try old.write { db in
      for i in 0..<400 {
        let (type, unit, stage) = types[i % types.count]
        try db.execute(
          sql: "INSERT INTO sample (type, start, \"end\", value, unit, stage, source) VALUES (?, ?, ?, ?, ?, ?, ?)",
          arguments: [
            type, String(format: "2026-01-%02dT10:%02d:00.000Z", 1 + i / 60, i % 60),
            String(format: "2026-01-%02dT11:%02d:00.000Z", 1 + i / 60, i % 60), Double(i) + 0.25, unit, stage,
            i % 3 == 0 ? "Watch" : "iPhone",
          ])
      }
    }
    let read = "SELECT * FROM sample ORDER BY seq"
    let before = try old.read { try Row.fetchAll($0, sql: read) }
    try old.close()
    let store = try migrated(path)
    try store.read { db in
      #expect(try Row.fetchAll(db, sql: read) == before)
      let plan = try Row.fetchAll(
        db, sql: "EXPLAIN QUERY PLAN SELECT value FROM sample WHERE type = 'steps' AND start >= '2026-01-02'"
      ).map { $0["detail"] as String }.joined()
      #expect(plan.contains("sample_key"))
    }
    try store.write { db in
      try db.execute(
        sql: """
          INSERT INTO sample (type, start, "end", value, unit, stage, source)
          VALUES ('heartRateVariabilitySDNN', '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 48.5, 'ms', 'none', 'Watch'),
                 ('appleStandHour', '2026-02-01T09:00:00.000Z', '2026-02-01T10:00:00.000Z', 60, 'min', 'appleStandHourStood', 'Watch')
          """)
      #expect(throws: DatabaseError.self) {
        try db.execute(
          sql: """
            INSERT INTO sample (type, start, "end", value, unit, stage, source)
            VALUES ('uvExposure', '2026-02-02T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 3, 'count', 'none', 'Watch')
            """)
      }
    }
  }

  /// history/009: the sets already there are listed as exercises, and the key index serves a lookup
  /// (until history/012 drops it).
  @Test func exercisesOfTheSetsAlreadyThere() throws {
    let store = try Store(
      path: try Self.filled(before: "history/009-exercise-key-and-exercises"),
      modules: Self.modules(before: "history/010-exercise-aliases"))
    let row = try store.read { db in
      try Row.fetchOne(db, sql: "SELECT exercise, sets, sessions, bestE1RM, heaviestKg FROM training_exercises")
    }
    // 300 workouts of two unweighted Plank sets: no e1RM, no heaviest weight.
    #expect(row?["exercise"] == "Plank")
    #expect(row?["sets"] == 600)
    #expect(row?["sessions"] == 300)
    #expect(row?["bestE1RM"] == nil as Double?)
    let plan = try store.read { db in
      try Row.fetchAll(
        db,
        sql: "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM workout_set WHERE "
          + "lower(trim(replace(replace(replace(replace(exercise, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' '))) = ?",
        arguments: ["plank"]
      ).map { $0["detail"] as String }.joined(separator: "; ")
    }
    #expect(plan.contains("workout_set_exercise_key"), "\(plan)")
  }

  /// history/010: the exercises view reads through the (empty) alias table: the same rows as before.
  @Test func exercisesReadThroughAliases() throws {
    let store = try migrated(try Self.filled(before: "history/010-exercise-aliases"))
    let (row, aliases) = try store.read { db in
      (
        try Row.fetchOne(db, sql: "SELECT exercise, sets, sessions FROM training_exercises"),
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM exercise_alias")
      )
    }
    #expect(row?["exercise"] == "Plank")
    #expect(row?["sets"] == 600)
    #expect(row?["sessions"] == 300)
    #expect(aliases == 0)
  }

  /// history/011: the view aggregates per spelling; a rename made before it still holds.
  @Test func exercisesBySpellingKeepRenames() throws {
    let path = try Self.filled(before: "history/011-exercises-by-spelling")
    let before = try Store(path: path, modules: Self.modules(before: "history/011-exercises-by-spelling"))
    try before.write { db in try db.execute(sql: "INSERT INTO exercise_alias VALUES ('plank', 'Core Plank')") }
    try before.close()
    let store = try migrated(path)
    let row = try store.read { db in
      try Row.fetchOne(db, sql: "SELECT exercise, sets, sessions, bestE1RM FROM training_exercises")
    }
    #expect(row?["exercise"] == "Core Plank")
    #expect(row?["sets"] == 600)
    #expect(row?["sessions"] == 300)
    #expect(row?["bestE1RM"] == nil as Double?)
  }

  /// history/015: the sets list is a view of the version before's sets, each with its workout's id
  /// and time: all 600, two per workout.
  @Test func theSetsListShowsTheSetsOfTheVersionBefore() throws {
    let store = try migrated(try Self.filled(before: "history/015-training-sets"))
    let (count, mismatched, perWorkout) = try store.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM training_sets"),
        try Int.fetchOne(
          db,
          sql: """
            SELECT COUNT(*) FROM training_sets t JOIN workout_set ws ON ws.seq = t.id
            JOIN workout wo ON wo.seq = ws.workoutSeq
            WHERE t.workoutId <> wo.id OR t.completedAt <> wo.completedAt OR t.exercise <> 'Plank'
            """),
        try Int.fetchOne(db, sql: "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM training_sets GROUP BY workoutId)")
      )
    }
    #expect(count == 600 && mismatched == 0 && perWorkout == 2)  // 300 workouts × 2 sets
  }

  /// history/014: the sources table arrives empty beside the 300 workouts and 600 sets of the version
  /// before, which stay; the next Health import fills it.
  @Test func sampleSourcesArriveEmpty() throws {
    let store = try migrated(try Self.filled(before: "history/014-sample-source"))
    let (workouts, sets, sources) = try store.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout"),
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout_set"),
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sample_source")
      )
    }
    #expect(workouts == 300 && sets == 600 && sources == 0)  // 300 × 2 sets
    try store.write { db in
      try db.execute(sql: "INSERT INTO sample_source (name, model) VALUES ('Zed Phone', 'iPhone')")
    }
    #expect(try store.read { try String.fetchOne($0, sql: "SELECT model FROM sample_source") } == "iPhone")
  }

  /// history/013: the aliases made before it are kept, row for row, in a rowid table with a unique
  /// key; the exercises list still reads through them, and a rename after it updates in place.
  @Test func aliasesBecomeARowidTable() throws {
    let identifier = "history/013-exercise-alias-rowid"
    let path = try Self.filled(before: identifier)
    let before = try Store(path: path, modules: Self.modules(before: identifier))
    try before.write { db in
      try db.execute(sql: "INSERT INTO exercise_alias VALUES ('plank', 'Core Plank'), ('crunch', 'Sit-up')")
    }
    try before.close()
    let store = try migrated(path)
    let (aliases, exercise, withoutRowid, key) = try store.read { db in
      (
        try Row.fetchAll(db, sql: "SELECT rowid, aliasKey, name FROM exercise_alias ORDER BY rowid").map {
          [$0[0] as Int64 as Any, $0[1] as String, $0[2] as String].map { "\($0)" }
        },
        try String.fetchOne(db, sql: "SELECT exercise FROM training_exercises"),
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'exercise_alias'")?.contains(
          "WITHOUT ROWID"),
        try Row.fetchAll(db, sql: "PRAGMA index_list(exercise_alias)").first { $0["unique"] as Int == 1 }?["name"]
          as String?
      )
    }
    // In key order: 'crunch' < 'plank'.
    #expect(aliases == [["1", "crunch", "Sit-up"], ["2", "plank", "Core Plank"]])
    #expect(exercise == "Core Plank")
    #expect(withoutRowid == false)
    #expect(key == "exercise_alias_key")
    try store.write { db in
      try db.execute(
        sql:
          "INSERT INTO exercise_alias (aliasKey, name) VALUES ('plank', 'Plank Hold') ON CONFLICT(aliasKey) DO UPDATE SET name = excluded.name"
      )
    }
    #expect(
      try store.read { db in try String.fetchOne(db, sql: "SELECT exercise FROM training_exercises") } == "Plank Hold")
  }

  /// history/016: the alias and source tables get an integer primary key, their rowids as they
  /// were; the exercises list still reads through the aliases, and sources still merge by name.
  @Test func aliasesAndSourcesGetAPrimaryKey() throws {
    let identifier = "history/016-sync-keys"
    let path = try Self.filled(before: identifier)
    let before = try Store(path: path, modules: Self.modules(before: identifier))
    try before.write { db in
      try db.execute(
        sql: """
          INSERT INTO exercise_alias (rowid, aliasKey, name) VALUES (7, 'plank', 'Core Plank'), (9, 'crunch', 'Sit-up');
          INSERT INTO sample_source (rowid, name, model, manual) VALUES (3, 'Zed Phone', 'iPhone', 0), (5, 'Scale', NULL, 1);
          """)
    }
    try before.close()
    let store = try migrated(path)
    try store.read { db in
      #expect(
        try Row.fetchAll(db, sql: "SELECT seq, aliasKey, name FROM exercise_alias ORDER BY seq").map(\.description) == [
          "[seq:7 aliasKey:\"plank\" name:\"Core Plank\"]", "[seq:9 aliasKey:\"crunch\" name:\"Sit-up\"]",
        ])
      #expect(
        try Row.fetchAll(db, sql: "SELECT seq, name, model, manual FROM sample_source ORDER BY seq").map(\.description)
          == [
            "[seq:3 name:\"Zed Phone\" model:\"iPhone\" manual:0]", "[seq:5 name:\"Scale\" model:NULL manual:1]",
          ])
      for table in ["exercise_alias", "sample_source"] {
        let key = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").filter { $0["pk"] as Int == 1 }
        #expect(key.map { $0["name"] as String } == ["seq"])
      }
      #expect(try String.fetchOne(db, sql: "SELECT exercise FROM training_exercises") == "Core Plank")
    }
    try store.write { db in
      try db.execute(
        sql:
          "INSERT INTO sample_source (name, model) VALUES ('Scale', 'Scale 2') ON CONFLICT(name) DO UPDATE SET model = excluded.model"
      )
    }
    #expect(
      try store.read { try String.fetchOne($0, sql: "SELECT model FROM sample_source WHERE seq = 5") } == "Scale 2")
  }

  /// history/012: the key index is gone; the sets and the exercises list are as before.
  @Test func theKeyIndexGoes() throws {
    let store = try migrated(try Self.filled(before: "history/012-drop-exercise-key-index"))
    let (row, index) = try store.read { db in
      (
        try Row.fetchOne(db, sql: "SELECT exercise, sets, sessions FROM training_exercises"),
        try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE name = 'workout_set_exercise_key'")
      )
    }
    #expect(index == nil)
    #expect(row?["exercise"] == "Plank")
    #expect(row?["sets"] == 600)
    #expect(row?["sessions"] == 300)
  }

  /// history/017: the exercises view counts the completed workouts' sets only. The version before's 300
  /// workouts of two Plank sets each, one of them skipped after all: 299 sessions, 598 sets.
  @Test func theExercisesViewLeavesSkippedWorkoutsOut() throws {
    let identifier = "history/017-exercises-of-completed-workouts"
    let path = try Self.filled(before: identifier)
    let before = try Store(path: path, modules: Self.modules(before: identifier))
    try before.write { db in try db.execute(sql: "UPDATE workout SET status = 'skipped' WHERE seq = 1") }
    #expect(try before.read { try Int.fetchOne($0, sql: "SELECT sessions FROM training_exercises") } == 300)
    try before.close()
    let row = try migrated(path).read { try Row.fetchOne($0, sql: "SELECT sets, sessions FROM training_exercises") }
    #expect(row?["sets"] == 598)  // 299 × 2
    #expect(row?["sessions"] == 299)
  }
}
