import GRDB
import GymCLI
import GymCore

/// Names that mean one exercise: `history exercises rename` and `merge` map an exercise's key to the
/// name it now goes by. Nothing in the sets is rewritten, and a later import of the old name counts
/// as the new one: every training figure reads a set's exercise through the alias table.
enum ExerciseAliases {
  /// `history/010`: the alias table, and the exercises view reading through it.
  static let migration = Migration(
    "history/010-exercise-aliases", .additive, touches: ["training_exercises"],
    sql: """
      CREATE TABLE exercise_alias (aliasKey TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
      DROP VIEW training_exercises;
      CREATE VIEW training_exercises AS
      WITH raw AS (
        SELECT lower(trim(replace(replace(replace(replace(ws.exercise, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
            AS rawKey,
          ws.seq AS seq, ws.exercise AS spelled, ws.kind AS kind, ws.weightKg AS w, ws.reps AS r,
          ws.workoutSeq AS session, wo.completedAt AS at
        FROM workout_set ws JOIN workout wo ON wo.seq = ws.workoutSeq
      ),
      s AS (
        SELECT CASE WHEN al.name IS NULL THEN raw.rawKey
            ELSE lower(trim(replace(replace(replace(replace(al.name, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
          END AS exerciseKey,
          coalesce(al.name, raw.spelled) AS exercise, seq, kind, w, r, session, at
        FROM raw LEFT JOIN exercise_alias al ON al.aliasKey = raw.rawKey
      ),
      names AS (SELECT exerciseKey, exercise, MAX(at) FROM s GROUP BY exerciseKey),
      totals AS (
        SELECT exerciseKey, MIN(seq) AS id, COUNT(*) AS sets, COUNT(DISTINCT session) AS sessions, MIN(at) AS first,
          MAX(at) AS last,
          ROUND(MAX(CASE WHEN kind <> 'warmup' AND w > 0 AND r BETWEEN 1 AND 12 AND exerciseKey NOT LIKE '%assisted%'
            THEN CASE WHEN r = 1 THEN w ELSE w * (1 + r / 30.0) END END), 1) AS bestE1RM,
          MAX(CASE WHEN kind <> 'warmup' AND w > 0 AND exerciseKey NOT LIKE '%assisted%' THEN w END) AS heaviestKg
        FROM s GROUP BY exerciseKey
      )
      SELECT totals.id AS id, names.exercise AS exercise, sets, sessions, first, last, bestE1RM, heaviestKg
      FROM totals JOIN names ON names.exerciseKey = totals.exerciseKey;
      """)

  /// `history/013`: the alias table as a rowid table with a unique key, as every other exported
  /// table is, so exports, restores and merges carry it the one way they carry the rest. A rebuild:
  /// the legacy rename leaves the exercises view, which names the table, as it is.
  static let asRowidTable = Migration(
    "history/013-exercise-alias-rowid", .rebuild, touches: ["exercise_alias"],
    sql: """
      PRAGMA legacy_alter_table = ON;
      CREATE TABLE exercise_alias_new (aliasKey TEXT NOT NULL, name TEXT NOT NULL);
      INSERT INTO exercise_alias_new (aliasKey, name) SELECT aliasKey, name FROM exercise_alias ORDER BY aliasKey;
      DROP TABLE exercise_alias;
      ALTER TABLE exercise_alias_new RENAME TO exercise_alias;
      CREATE UNIQUE INDEX exercise_alias_key ON exercise_alias(aliasKey);
      PRAGMA legacy_alter_table = OFF;
      """)

  /// The aliases as exports carry them: an exercise's key, and the name it goes by.
  static let table = TableSchema(
    name: "exercise_alias", fields: [Field("aliasKey", .text), Field("name", .text)],
    indexes: [IndexSchema("exercise_alias_key", on: ["aliasKey"], unique: true)], defaultSort: [SortKey("aliasKey")])

  /// `history/011`: an index by spelling that covers what the exercises list counts, and the view
  /// aggregating per spelling through it (no sort, each spelling keyed once) before joining the
  /// spellings of one exercise: 420 ms → about 70 ms on 200,000 sets (Docs/History/Training.md).
  static let bySpelling = Migration(
    "history/011-exercises-by-spelling", .additive, touches: ["workout_set", "training_exercises"],
    sql: """
      CREATE INDEX workout_set_exercise ON workout_set(exercise, workoutSeq, kind, weightKg, reps);
      DROP VIEW training_exercises;
      CREATE VIEW training_exercises AS
      WITH per AS (
        SELECT ws.exercise AS spelled, MIN(ws.seq) AS id, COUNT(*) AS sets, MIN(wo.completedAt) AS first,
          MAX(wo.completedAt) AS last,
          MAX(CASE WHEN ws.kind <> 'warmup' AND ws.weightKg > 0 AND ws.reps BETWEEN 1 AND 12
            THEN CASE WHEN ws.reps = 1 THEN ws.weightKg ELSE ws.weightKg * (1 + ws.reps / 30.0) END END) AS e1rm,
          MAX(CASE WHEN ws.kind <> 'warmup' AND ws.weightKg > 0 THEN ws.weightKg END) AS heaviest
        FROM workout_set ws JOIN workout wo ON wo.seq = ws.workoutSeq
        GROUP BY ws.exercise
      ),
      named AS (
        SELECT per.*,
          CASE WHEN al.name IS NULL
            THEN lower(trim(replace(replace(replace(replace(spelled, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
            ELSE lower(trim(replace(replace(replace(replace(al.name, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
          END AS exerciseKey,
          coalesce(al.name, spelled) AS exercise
        FROM per LEFT JOIN exercise_alias al
          ON al.aliasKey = lower(trim(replace(replace(replace(replace(spelled, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
      ),
      latest AS (SELECT exerciseKey, exercise, MAX(last) FROM named GROUP BY exerciseKey)
      SELECT MIN(named.id) AS id, latest.exercise AS exercise, SUM(named.sets) AS sets,
        (SELECT COUNT(DISTINCT ws.workoutSeq) FROM workout_set ws
          WHERE ws.exercise IN (SELECT n.spelled FROM named n WHERE n.exerciseKey = named.exerciseKey)) AS sessions,
        MIN(named.first) AS first, MAX(named.last) AS last,
        ROUND(MAX(CASE WHEN named.exerciseKey NOT LIKE '%assisted%' THEN named.e1rm END), 1) AS bestE1RM,
        MAX(CASE WHEN named.exerciseKey NOT LIKE '%assisted%' THEN named.heaviest END) AS heaviestKg
      FROM named JOIN latest ON latest.exerciseKey = named.exerciseKey
      GROUP BY named.exerciseKey;
      """)

  /// `history/017`: the view as `history/011` made it, counting the sets of completed workouts only (a
  /// skipped workout's sets are its plan), and no heaviest weight from a set of 0 reps, as the records
  /// and `progress` count them. The sets are still read in spelling order along their covering index
  /// (`+wo.status`: SQLite otherwise walked the workouts by status and sorted 200,000 sets, 112 → 390 ms
  /// on `gym bench`'s history), and sessions leave out the skipped workouts' seqs, read once through
  /// `workout_status`.
  static let completedOnly = Migration(
    "history/017-exercises-of-completed-workouts", .view, touches: ["training_exercises"],
    sql: """
      DROP VIEW training_exercises;
      CREATE VIEW training_exercises AS
      WITH per AS (
        SELECT ws.exercise AS spelled, MIN(ws.seq) AS id, COUNT(*) AS sets, MIN(wo.completedAt) AS first,
          MAX(wo.completedAt) AS last,
          MAX(CASE WHEN ws.kind <> 'warmup' AND ws.weightKg > 0 AND ws.reps BETWEEN 1 AND 12
            THEN CASE WHEN ws.reps = 1 THEN ws.weightKg ELSE ws.weightKg * (1 + ws.reps / 30.0) END END) AS e1rm,
          MAX(CASE WHEN ws.kind <> 'warmup' AND ws.weightKg > 0 AND (ws.reps IS NULL OR ws.reps > 0)
            THEN ws.weightKg END) AS heaviest
        FROM workout_set ws JOIN workout wo ON wo.seq = ws.workoutSeq
        WHERE +wo.status = 'completed'
        GROUP BY ws.exercise
      ),
      named AS (
        SELECT per.*,
          CASE WHEN al.name IS NULL
            THEN lower(trim(replace(replace(replace(replace(spelled, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
            ELSE lower(trim(replace(replace(replace(replace(al.name, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
          END AS exerciseKey,
          coalesce(al.name, spelled) AS exercise
        FROM per LEFT JOIN exercise_alias al
          ON al.aliasKey = lower(trim(replace(replace(replace(replace(spelled, char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))
      ),
      latest AS (SELECT exerciseKey, exercise, MAX(last) FROM named GROUP BY exerciseKey)
      SELECT MIN(named.id) AS id, latest.exercise AS exercise, SUM(named.sets) AS sets,
        (SELECT COUNT(DISTINCT ws.workoutSeq) FROM workout_set ws
          WHERE ws.exercise IN (SELECT n.spelled FROM named n WHERE n.exerciseKey = named.exerciseKey)
            AND ws.workoutSeq NOT IN (SELECT seq FROM workout WHERE status = 'skipped')) AS sessions,
        MIN(named.first) AS first, MAX(named.last) AS last,
        ROUND(MAX(CASE WHEN named.exerciseKey NOT LIKE '%assisted%' THEN named.e1rm END), 1) AS bestE1RM,
        MAX(CASE WHEN named.exerciseKey NOT LIKE '%assisted%' THEN named.heaviest END) AS heaviestKg
      FROM named JOIN latest ON latest.exerciseKey = named.exerciseKey
      GROUP BY named.exerciseKey;
      """)

  /// Each spelling the sets use, once: its own key, the key it counts under through the aliases, and
  /// the name it goes by. With `exercise`, only the spellings of that exercise.
  static func spellings(_ db: Database, of exercise: String? = nil) throws
    -> [(spelled: String, rawKey: String, key: String, name: String)]
  {
    let all = try Row.fetchAll(db, sql: spellingsSQL).map {
      (spelled: $0[0] as String, rawKey: $0[1] as String, key: $0[2] as String, name: $0[3] as String)
    }
    guard let exercise else { return all }
    let wanted = try String.fetchOne(db, sql: "SELECT \(resolvedKey("?1"))", arguments: [exercise])
    return all.filter { $0.key == wanted }
  }

  /// Each spelling once, as the CTE `spelled(exercise)`: a skip scan of the spelling index, one
  /// seek per spelling (`SELECT DISTINCT` walks every set: 4–12 ms on 200,000 sets, this 0.1 ms).
  static let distinctSpellings = """
    WITH RECURSIVE spelled(exercise) AS (
      SELECT (SELECT MIN(exercise) FROM workout_set)
      UNION ALL
      SELECT (SELECT MIN(exercise) FROM workout_set WHERE exercise > spelled.exercise) FROM spelled
      WHERE spelled.exercise IS NOT NULL
    )
    """

  /// Each spelling, its own key, the key it counts under and the name it goes by.
  static let spellingsSQL = """
    \(distinctSpellings)
    SELECT raw.exercise, \(ExerciseKey.sql("raw.exercise")),
      CASE WHEN al.name IS NULL THEN \(ExerciseKey.sql("raw.exercise")) ELSE \(ExerciseKey.sql("al.name")) END,
      coalesce(al.name, raw.exercise)
    FROM spelled raw
    LEFT JOIN exercise_alias al ON al.aliasKey = \(ExerciseKey.sql("raw.exercise"))
    WHERE raw.exercise IS NOT NULL
    """

  /// The key a name the user gives stands for, through the aliases (SQL, the name bound to `param`).
  static func resolvedKey(_ param: String) -> String {
    """
    coalesce((SELECT \(ExerciseKey.sql("name")) FROM exercise_alias WHERE aliasKey = \(ExerciseKey.sql(param))), \
    \(ExerciseKey.sql(param)))
    """
  }

  /// The name the exercise `name` is shown by now (that of its latest set), and its sets; nil when
  /// no set is of it. Read from its spellings through the covering spelling index.
  static func find(_ db: Database, _ name: String) throws -> (name: String, sets: Int)? {
    let spellings = try spellings(db, of: name)
    guard !spellings.isEmpty else { return nil }
    let marks = spellings.map { _ in "?" }.joined(separator: ", ")
    let arguments = StatementArguments(spellings.map(\.spelled))
    let sets =
      try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM workout_set WHERE exercise IN (\(marks))", arguments: arguments) ?? 0
    let latest = try String.fetchOne(
      db,
      sql: """
        SELECT ws.exercise FROM workout_set ws JOIN workout wo ON wo.seq = ws.workoutSeq
        WHERE ws.exercise IN (\(marks)) ORDER BY wo.completedAt DESC, ws.seq DESC LIMIT 1
        """, arguments: arguments)
    return (spellings.first { $0.spelled == latest }?.name ?? spellings[0].name, sets)
  }

  /// From now on `old` (and every name that already went by it) is `new`.
  static func alias(_ db: Database, _ old: String, to new: String) throws {
    let oldKey = try String.fetchOne(db, sql: "SELECT \(resolvedKey("?1"))", arguments: [old])!
    // Names that were `old` go by `new` too; then `old`'s own spelling.
    try db.execute(
      sql: "UPDATE exercise_alias SET name = ?1 WHERE \(ExerciseKey.sql("name")) = ?2", arguments: [new, oldKey])
    try db.execute(
      sql: """
        INSERT INTO exercise_alias (aliasKey, name) VALUES (\(ExerciseKey.sql("?1")), ?2)
        ON CONFLICT(aliasKey) DO UPDATE SET name = excluded.name
        """, arguments: [old, new])
    try db.execute(
      sql: "INSERT OR REPLACE INTO exercise_alias (aliasKey, name) VALUES (?1, ?2)", arguments: [oldKey, new])
  }
}
