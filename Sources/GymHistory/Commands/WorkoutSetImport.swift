import GRDB
import GymCLI
import GymCore

/// The sets a workout record carries as `show --format json` prints them: a workout whose record
/// names `sets` ends up with exactly those sets (matched by position); one without the field keeps
/// its own. Staged in temporary tables while the workouts load, merged once they are all in.
final class WorkoutSetImport: NestedRecordImport {
  let fieldName = "sets"
  let fieldNames = HistoryShow.setFields.map(\.name)
  private(set) var counts = ImportCounts()
  private(set) var removed = 0
  private var loader: BulkLoader?
  private var db: Database?
  private var staged: RecordValues

  /// The staging table: the workout's id, then the set as `show` prints it.
  static let staging = TableSchema(
    name: "import_workout_set", fields: [Field("workoutId", .uuid)] + HistoryShow.setFields, indexes: [],
    defaultSort: [])

  init() { staged = RecordValues(fieldNames: Self.staging.fieldNames) }

  func prepare(_ db: Database?) throws {
    self.db = db
    try db?.execute(
      sql: """
        CREATE TEMP TABLE import_workout_set (
          workoutId TEXT NOT NULL, position INTEGER NOT NULL, exercise TEXT NOT NULL, kind TEXT NOT NULL,
          weightKg REAL, reps INTEGER, distanceKm REAL, durationSeconds REAL, rpe REAL, notes TEXT);
        CREATE TEMP TABLE import_workout_given (workoutId TEXT PRIMARY KEY);
        """)
    loader = try BulkLoader(table: Self.staging, conflict: .keepExisting(key: ["workoutId", "position"]), db: db)
  }

  func stage(_ records: [RecordValues], of parent: RecordValues, line: Int) throws {
    guard let idIndex = parent.fieldNames.firstIndex(of: "id"), parent.kinds[idIndex] == .string else {
      throw InputError(line: line, message: "a workout with sets needs its id, to know whose sets they are")
    }
    if let db {
      let given = try db.cachedStatement(sql: "INSERT OR IGNORE INTO import_workout_given VALUES (lower(?))")
      try given.execute(arguments: [parent.string(idIndex)])
    }
    for record in records {
      staged.reset()
      parent.withBytes(idIndex) { staged.set(0, kind: .string, bytes: $0) }
      for index in record.fieldNames.indices where record.kinds[index] != .missing {
        record.withBytes(index) { staged.set(index + 1, kind: record.kinds[index], bytes: $0) }
      }
      try loader?.add(&staged, line: line)
    }
  }

  func finish(_ db: Database?) throws {
    counts.read = loader?.counts.read ?? 0
    guard let db else { return }
    let staged =
      "SELECT * FROM import_workout_set WHERE rowid IN (SELECT MAX(rowid) FROM import_workout_set GROUP BY workoutId, position)"
    try db.execute(
      sql: """
        DELETE FROM workout_set
        WHERE workoutSeq IN (SELECT w.seq FROM workout w JOIN import_workout_given g ON w.id = g.workoutId)
          AND (workoutSeq, position) NOT IN
            (SELECT w.seq, s.position FROM import_workout_set s JOIN workout w ON w.id = s.workoutId)
        """)
    removed = db.changesCount
    counts.read = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(staged))") ?? 0
    counts.inserted =
      try Int.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) FROM (\(staged)) s JOIN workout w ON w.id = s.workoutId
          WHERE NOT EXISTS (SELECT 1 FROM workout_set t WHERE t.workoutSeq = w.seq AND t.position = s.position)
          """) ?? 0
    try db.execute(
      sql: """
        INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps, distanceKm, durationSeconds, rpe,
          notes)
        SELECT w.seq, s.position, s.exercise, s.kind, s.weightKg, s.reps, s.distanceKm, s.durationSeconds, s.rpe, s.notes
        FROM (\(staged)) s JOIN workout w ON w.id = s.workoutId WHERE true
        \(WorkoutSetSchema.updateChanged)
        """)
    counts.updated = db.changesCount - counts.inserted
    counts.unchanged = counts.read - counts.inserted - counts.updated
    try db.execute(sql: "DROP TABLE temp.import_workout_set; DROP TABLE temp.import_workout_given")
  }
}
