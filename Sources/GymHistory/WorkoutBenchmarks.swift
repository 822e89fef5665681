import GRDB
import GymCLI
import GymCore

/// What `gym bench` times for history: workouts (seed 000: 20 items fast, deep pages, counts) and
/// health samples (seed 002: the summary screen, daily and hourly views).
enum WorkoutBenchmarks {
  static let definition = ModuleBenchmarks(
    generate: generate, workloads: { try workloads($0) + sampleWorkloads($0) },
    base: { db, count in try generateWorkouts(db, count: count) })

  /// `count` workouts and five times as many samples (the seed's 10,000 : 5,000,000 is 1 : 500;
  /// 1 : 5 keeps the default scale quick while the summary still reads from a large table).
  static func generate(_ db: Database, count: Int) throws {
    try generateWorkouts(db, count: count)
    try generateSets(db)
    var samples = SampleGenerator(seed: 42, end: .now(), days: max(1, count * 5 / 192))
    let statement = try db.makeStatement(
      sql: "INSERT INTO sample (type, start, \"end\", value, unit, stage, source) VALUES (?, ?, ?, ?, ?, ?, ?)")
    try samples.generate { cells in
      try statement.execute(arguments: StatementArguments(cells.map(\.databaseValue)))
    }
  }

  static func sampleWorkloads(_ db: Database) throws -> [BenchWorkload] {
    [
      BenchWorkload("summary", id: "history.summary", targetMilliseconds: 50) { db in
        try HealthSummary.compute(db).heartRateByHour.count
      },
      BenchWorkload("daily steps, 30 days") { db in try SampleBuckets.daily(db, type: .steps, days: 30).count },
      BenchWorkload("recent heart rate, 8 hours") { db in try SampleBuckets.hourly(db, type: .heartRate, hours: 8).count
      },
    ]
  }

  static func generateWorkouts(_ db: Database, count: Int) throws {
    var sampler = WorkoutSampler(seed: 42, end: .now(), days: max(365, count / 20))
    let statement = try db.makeStatement(
      sql: """
        INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """)
    for _ in 0..<count {
      let cells = sampler.nextWorkout()
      try statement.execute(arguments: StatementArguments(cells.map(\.databaseValue)))
    }
  }

  /// The exercises the generated sets name, from the shipped muscle map, so volume counts them.
  static let exercises = [
    "Bench Press (Barbell)", "Squat (Barbell)", "Deadlift (Barbell)", "Overhead Press (Barbell)", "Pull Up",
    "Bent Over Row (Barbell)", "Lat Pulldown (Cable)", "Bicep Curl (Dumbbell)", "Triceps Pushdown (Cable)",
    "Leg Press", "Romanian Deadlift (Barbell)", "Lateral Raise (Dumbbell)", "Plank", "Hip Thrust (Barbell)",
    "Chin Up (Assisted)",
  ]

  /// Ten sets per workout (the first a warm-up) over 15 exercises: 200,000 sets at the default scale,
  /// as many as the training targets' ten years (2,000 sessions of 100 sets), over ten times the
  /// sessions, which costs the per-workout steps more.
  static func generateSets(_ db: Database) throws {
    let names = exercises.enumerated().map { "WHEN \($0.offset) THEN '\($0.element)'" }.joined(separator: " ")
    try db.execute(
      sql: """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
        INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps)
        SELECT w.seq, n.i, CASE (w.seq + n.i / 4) % \(exercises.count) \(names) END,
          CASE WHEN n.i = 1 THEN 'warmup' ELSE 'normal' END,
          CASE WHEN (w.seq + n.i / 4) % \(exercises.count) IN (4, 12) THEN NULL
            ELSE 20 + ((w.seq * 7 + n.i * 13) % 64) * 2.5 END,
          1 + (w.seq + n.i) % 12
        FROM workout w, n
        """)
  }

  static func workloads(_ db: Database) throws -> [BenchWorkload] {
    let table = WorkoutSchema.table
    let muscles = MuscleMap(exercises: try MuscleMap.parse(MuscleMapText.shipped, file: "Config/muscles.yaml"))
    let total = try Query(table: table).count(db)
    let depth = total / 2
    // The cursor a user would hold after paging down to the middle of the history.
    let middle = try Row.fetchOne(
      db, sql: "SELECT completedAt, rowid FROM workout ORDER BY completedAt DESC, rowid DESC LIMIT 1 OFFSET ?",
      arguments: [max(depth - 1, 0)])
    let cursor = middle.map { PageCursor(sort: table.defaultSort, values: [$0[0], $0[1]]) }
    let weekAgo = Timestamp.now().adding(milliseconds: -7 * 86_400_000)
    func page(_ query: Query) -> @Sendable (Database) throws -> Int {
      { db in
        var rows = 0
        try query.forEachRow(db) { _ in rows += 1 }
        return rows
      }
    }
    return [
      BenchWorkload(
        "list newest 20", id: "history.list_newest", targetMilliseconds: 1, run: page(Query(table: table, limit: 20))),
      BenchWorkload(
        "list 20 completed", id: "history.list_completed", targetMilliseconds: 1,
        run: page(Query(table: table, filter: .compare("status", .equal, .text("completed")), limit: 20))),
      BenchWorkload(
        "page 20 after cursor at \(depth)", id: "history.page_after_cursor", targetMilliseconds: 1,
        run: page(Query(table: table, limit: 20, after: cursor))),
      BenchWorkload("page 20 at offset \(depth)", run: page(Query(table: table, limit: 20, offset: depth))),
      BenchWorkload("count all") { try Query(table: table).count($0) },
      BenchWorkload("count completed") {
        try Query(table: table, filter: .compare("status", .equal, .text("completed"))).count($0)
      },
      BenchWorkload("count last 7 days") {
        try Query(table: table, filter: .compare("completedAt", .greaterOrEqual, .timestamp(weekAgo))).count($0)
      },
      BenchWorkload("stats 12 weeks") { db in try WorkoutStats.compute(db, weeks: 12).weeks.count },
      BenchWorkload("training records (prs)", id: "history.prs", targetMilliseconds: 50) { db in
        try TrainingRecords.compute(db, exercise: nil, since: nil, formula: .epley).count
      },
      BenchWorkload("training progress, one exercise", id: "history.progress", targetMilliseconds: 10) { db in
        try TrainingProgress.fetch(db, exercise: "bench press (barbell)", by: .week, since: nil, formula: .epley).count
      },
      BenchWorkload("training volume by week", id: "history.volume", targetMilliseconds: 50) { db in
        try TrainingVolume.fetch(db, by: .week, muscle: nil, since: nil, map: muscles).count
      },
      BenchWorkload("exercises list") { db in
        try Row.fetchAll(db, sql: "SELECT * FROM training_exercises").count
      },
    ]
  }
}
