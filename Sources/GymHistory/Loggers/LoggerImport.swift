import GRDB
import GymCLI
import GymCore

/// What a workout-logger import did.
struct LoggerCounts {
  var rows = 0
  /// Personal records the import brought (none in a dry run without a database).
  var newRecords: [TrainingRecords.Record] = []
  var workouts = ImportCounts()
  var sets = ImportCounts()
  /// Sets a newer export no longer has (deleted in the app), removed from their workouts.
  var setsRemoved = 0
  /// Rows gym could not read, skipped and told (with `--strict`, the first refuses the file).
  var skips = ImportSkips(strict: true, displayName: "")
}

/// Imports a workout logger's CSV: one workout per session, its sets in `workout_set`, streaming
/// row by row (a session's rows are contiguous in these exports; one that is not, as after sorting
/// the file in a spreadsheet, still makes one workout: `LoggerWriter`), all in one transaction,
/// idempotent.
struct LoggerImport {
  let format: any LoggerFormat
  let path: String
  /// The input when the command opened it already (to recognise it by its header); else `path`.
  var opened: ImportInput?
  /// All or nothing: the first row gym cannot read refuses the file.
  var strict = false

  func run(openStore: (() throws -> Store)?, progress: ProgressLine) throws -> LoggerCounts {
    let file = try opened ?? ImportInput(path)
    progress.measure(file.descriptor)
    defer { file.close() }
    let input = file.buffer
    do {
      try input.refuseBinary()
      var scanner = CSVRecordScanner(input: input, delimiter: try CSVRecordScanner.detectDelimiter(input))
      var values = RecordValues(fieldNames: format.columns)
      try scanner.readHeader(
        expected: values, required: format.required, ignoringUnknown: true, aliases: format.aliases)
      try format.check(header: Set(scanner.header))
      func load(_ writer: LoggerWriter?) throws -> LoggerCounts {
        var counts = LoggerCounts()
        counts.skips = ImportSkips(strict: strict, displayName: file.displayName)
        var current: LoggedWorkout?
        // Each session's next set position, the places of the sets gym could not read held; and the
        // sessions with such a set, whose sets past the file's are not theirs to remove.
        var nextPosition: [String: Int] = [:]
        var incomplete: Set<String> = []
        // A row whose session is not known (no date or name in it): any session may miss a set, so
        // none has sets removed.
        var unattributed = false
        // The sessions rows were read of, and those lines of another shape named: a line cut off or
        // shifted may name one the file does not have (`Push D` for `Push Day`), and then which
        // session lost a set is not known.
        var readSessions: Set<String> = []
        var shapelessSessions: Set<String> = []
        /// A row gym could not read: its place held in its session, or the whole file's removals off.
        func refused(_ row: ImportRow, shapeless: Bool = false) {
          switch format.refused(row) {
          case .set(let key):
            nextPosition[key, default: 1] += 1
            incomplete.insert(key)
            if shapeless { shapelessSessions.insert(key) }
          case .notASet: break
          case .unknown: unattributed = true
          }
        }
        var unknownDurations: Set<String> = []
        while try scanner.next(
          into: &values,
          raggedRecord: { problem, record throws(InputError) in
            counts.rows += 1
            try counts.skips.skip(problem, progress: progress)
            refused(ImportRow(unchecked: record, line: problem.line), shapeless: true)
          })
        {
          counts.rows += 1
          progress.update(counts.rows, unit: "rows")
          var parsed: (LoggedWorkout, LoggedSet?)?
          do {
            parsed = try format.parse(try ImportRow(values: values, line: scanner.recordLine))
            if let minutes = parsed?.0.durationMinutes, !PlausibleRange.minutes.contains(minutes) {
              // A timer left running (Strong's `264h 1m`), an end before the start: the sets are
              // real, the time spent is not known. Told once per session.
              parsed?.0.forgetDuration()
              if let key = parsed?.0.key, unknownDurations.insert(key).inserted {
                let bad = InputError(
                  line: scanner.recordLine,
                  message: "a duration of \(minutes) minutes is out of range "
                    + "(\(PlausibleRange.describe(PlausibleRange.minutes)))")
                try counts.skips.keepUnknown("its duration", bad, progress: progress)
              }
            }
            try parsed?.0.checkPlausible(line: scanner.recordLine)
            try parsed?.1?.checkPlausible(line: scanner.recordLine)
          } catch {
            try counts.skips.skip(error, progress: progress)
            refused(ImportRow(unchecked: values, line: scanner.recordLine))
            continue
          }
          guard let (session, read) = parsed else { continue }
          readSessions.insert(session.key)  // a dry run without a database counts these too
          if current?.key != session.key {
            if let done = current {
              try writer?.write(done, counts: &counts, holes: incomplete.contains(done.key))
            }
            current = session
          } else {
            if current?.notes == nil { current?.notes = session.notes }  // they may be on any of its rows
            // A second note of the same exercise in the session is kept beside the first.
            current?.exerciseNotes.merge(session.exerciseNotes) { first, second in
              first == second ? first : first + "; " + second
            }
          }
          if var set = read {
            set.position = nextPosition[session.key, default: 1]
            nextPosition[session.key] = set.position + 1
            current?.sets.append(set)
          }
        }
        if let done = current { try writer?.write(done, counts: &counts, holes: incomplete.contains(done.key)) }
        if !shapelessSessions.isSubset(of: readSessions) { unattributed = true }
        if let writer, !unattributed {
          counts.setsRemoved = try writer.removeSets(past: nextPosition, except: incomplete)
        }
        if let writer {
          try writer.countWorkouts(&counts.workouts)
        } else {
          counts.workouts.read = readSessions.count
          counts.workouts.inserted = readSessions.count  // a dry run without a database: every one is new
        }
        return counts
      }
      guard let store = try openStore?() else { return try load(nil) }
      return try store.write { db in
        let before = try TrainingRecords.compute(db, exercise: nil, since: nil, formula: .epley)
        var counts = try load(try LoggerWriter(db))
        counts.newRecords = try TrainingRecords.brought(since: before, db)
        return counts
      }
    } catch let error as InputError {
      throw file.failure(error)
    }
  }
}

/// Upserts sessions and their sets through cached statements: unchanged rows are left alone.
/// A session met again later in the file (its rows not together) is one workout: its sets continue
/// where they stopped, its intensity is from all its RPEs, its notes the first it was given, and it
/// is counted once, by what the whole import did to it (`countWorkouts`).
final class LoggerWriter {
  let db: Database
  /// The workout of each session written in this import, by the session's key.
  private var workouts: [String: Int64] = [:]
  /// Each session written so far: its workout's row before this import (nil: new), and what its
  /// rows gave up to now.
  private var sessions: [String: (before: [DatabaseValue]?, rpe: LoggedWorkout.RPETotal, notes: String?)] = [:]
  private var order: [String] = []
  /// The id each session's workout has: its key's, or the one an import of the same session in
  /// another language gave it (`LoggedWorkout.formerKeys`).
  private var ids: [String: String] = [:]

  init(_ db: Database) throws { self.db = db }

  /// The values a workout row is compared by, `seq` first.
  private static let rowSQL = """
    SELECT seq, completedAt, planTitle, focus, durationMinutes, intensity, notes, distanceKm, activeEnergyKcal
    FROM workout WHERE id = ?
    """

  /// The id of the workout stored for this session: its key's; when none has it, the first of its
  /// former keys' that one has; else its key's (a new workout).
  private func storedID(of workout: LoggedWorkout, row: Statement) throws -> String {
    let id = workout.id
    guard workout.hevyStart != nil, try Row.fetchOne(row, arguments: [id]) == nil else { return id }
    // A workout stored under a former key has this title and ended within a week of this start (a
    // longer duration is kept unknown, ending at the start), give or take the 26 hours between the
    // time zones an earlier import may have read its local times in: none such, nothing to look up
    // (every session of a first import).
    let week = Int64(PlausibleRange.minutes.upperBound * 60_000)
    let zones: Int64 = 26 * 3_600_000
    guard
      try Bool.fetchOne(
        db.cachedStatement(
          sql: "SELECT EXISTS (SELECT 1 FROM workout WHERE completedAt BETWEEN ? AND ? AND planTitle = ?)"),
        arguments: [
          workout.start.adding(milliseconds: -zones).canonical,
          workout.start.adding(milliseconds: week + zones).canonical, workout.title,
        ]) == true
    else { return id }
    let former = workout.formerKeys.map(StableID.uuid(for:))
    guard !former.isEmpty else { return id }
    // One lookup for them all; the first in the spellings' order wins (two would be two sessions
    // that an earlier gym stored apart, the one kept as it is).
    let found = Set(
      try String.fetchAll(
        db, sql: "SELECT id FROM workout WHERE id IN (\(former.map { _ in "?" }.joined(separator: ",")))",
        arguments: StatementArguments(former)))
    return former.first(where: found.contains) ?? id
  }

  /// `holes`: the session has sets the file holds but gym could not read (their places held).
  func write(_ block: LoggedWorkout, counts: inout LoggerCounts, holes: Bool = false) throws {
    var workout = block
    for i in workout.sets.indices where workout.sets[i].notes == nil {
      workout.sets[i].notes = workout.exerciseNotes[workout.sets[i].exercise]
    }
    let row = try db.cachedStatement(sql: Self.rowSQL)
    let id = try ids[workout.key] ?? storedID(of: workout, row: row)
    ids[workout.key] = id
    let isFirstBlock = sessions[id] == nil
    if let earlier = sessions[id] {
      workout.earlierRPE = earlier.rpe
      workout.notes = earlier.notes ?? workout.notes
    } else {
      let before = try Row.fetchOne(row, arguments: [id]).map { Array($0.databaseValues) }
      sessions[id] = (before, LoggedWorkout.RPETotal(), nil)
      order.append(id)
    }
    sessions[id]?.rpe = workout.allRPE
    sessions[id]?.notes = workout.notes
    let upsert = try db.cachedStatement(
      sql: """
        INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity, notes, distanceKm,
          activeEnergyKcal)
        VALUES (?, ?, 'completed', ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET completedAt = excluded.completedAt, planTitle = excluded.planTitle,
          focus = excluded.focus, durationMinutes = excluded.durationMinutes, intensity = excluded.intensity,
          notes = excluded.notes, distanceKm = excluded.distanceKm, activeEnergyKcal = excluded.activeEnergyKcal
        WHERE (workout.completedAt, workout.planTitle, workout.focus, workout.durationMinutes, workout.intensity,
            workout.notes, workout.distanceKm, workout.activeEnergyKcal)
          IS NOT (excluded.completedAt, excluded.planTitle, excluded.focus, excluded.durationMinutes, excluded.intensity,
            excluded.notes, excluded.distanceKm, excluded.activeEnergyKcal)
        """)
    try upsert.execute(arguments: [
      id, workout.end.canonical, workout.title, workout.focus, workout.durationMinutes, workout.intensity,
      workout.notes, workout.distanceKm, workout.activeEnergyKcal,
    ])
    let seq =
      try sessions[id]?.before.flatMap { Int64.fromDatabaseValue($0[0]) }
      ?? Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM workout WHERE id = ?"), arguments: [id])!
    workouts[workout.key] = seq
    if holes && isFirstBlock { try dropOldNumbering(workout: seq, sets: workout.sets) }
    let insertSet = try db.cachedStatement(sql: Self.insertSetSQL)
    for set in workout.sets {
      let position = set.position
      let existed = try Bool.fetchOne(
        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM workout_set WHERE workoutSeq = ? AND position = ?)"),
        arguments: [seq, position])!
      try insertSet.execute(arguments: [
        seq, position, set.exercise, set.kind, set.weightKg, set.reps, set.distanceKm, set.durationSeconds, set.rpe,
        set.notes,
      ])
      count(&counts.sets, existed: existed)
    }
  }

  /// A session whose file has sets gym cannot read, stored by a gym that numbered only the readable
  /// ones (1, 2, 3 … in a row): found as exactly those sets, in order, at 1…n, while their places
  /// now differ, they are this file's sets at their old places and go before the file's are
  /// written at theirs (else each set after a hole would be stored twice). A session stored whole
  /// from an earlier file has more sets than the readable ones, and is left as it is.
  private func dropOldNumbering(workout seq: Int64, sets: [LoggedSet]) throws {
    guard !sets.isEmpty, sets.enumerated().contains(where: { $0.element.position != $0.offset + 1 }) else { return }
    let stored = try Row.fetchAll(
      db,
      sql: """
        SELECT position, exercise, kind, weightKg, reps, distanceKm, durationSeconds, rpe, notes
        FROM workout_set WHERE workoutSeq = ? ORDER BY position
        """, arguments: [seq])
    guard stored.count == sets.count else { return }
    for (offset, (row, set)) in zip(stored, sets).enumerated() {
      let position: Int64? = row[0]
      let texts: [String?] = [row[1], row[2], row[8]]
      let numbers: [Double?] = [row[3], row[5], row[6], row[7]]
      let reps: Int? = row[4]
      guard position == Int64(offset + 1), texts == [set.exercise, set.kind, set.notes],
        numbers == [set.weightKg, set.distanceKm, set.durationSeconds, set.rpe], reps == set.reps
      else { return }
    }
    try db.execute(sql: "DELETE FROM workout_set WHERE workoutSeq = ?", arguments: [seq])
  }

  /// Removes each written session's sets from `next[key]` on, which the file no longer has, but not
  /// those of a session with a set gym could not read (the file does not say which it has). Returns
  /// how many it removed.
  func removeSets(past next: [String: Int], except incomplete: Set<String>) throws -> Int {
    let delete = try db.cachedStatement(sql: "DELETE FROM workout_set WHERE workoutSeq = ? AND position >= ?")
    var removed = 0
    for (key, seq) in workouts where !incomplete.contains(key) {
      try delete.execute(arguments: [seq, next[key] ?? 1])
      removed += db.changesCount
    }
    return removed
  }

  /// Built once: the statement cache is keyed by this text, looked up for every session.
  private static let insertSetSQL = """
    INSERT INTO workout_set (workoutSeq, position, exercise, kind, weightKg, reps, distanceKm, durationSeconds, rpe,
      notes)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    \(WorkoutSetSchema.updateChanged)
    """

  /// Each workout written, counted once: inserted, or its row now against its row before the import.
  func countWorkouts(_ counts: inout ImportCounts) throws {
    let row = try db.cachedStatement(sql: Self.rowSQL)
    for id in order {
      counts.read += 1
      guard let before = sessions[id]?.before else {
        counts.inserted += 1
        continue
      }
      let now = try Row.fetchOne(row, arguments: [id]).map { Array($0.databaseValues) }
      if now == before { counts.unchanged += 1 } else { counts.updated += 1 }
    }
  }

  private func count(_ counts: inout ImportCounts, existed: Bool) {
    counts.read += 1
    if !existed {
      counts.inserted += 1
    } else if db.changesCount > 0 {
      counts.updated += 1
    } else {
      counts.unchanged += 1
    }
  }
}
