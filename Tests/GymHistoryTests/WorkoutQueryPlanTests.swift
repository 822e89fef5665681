import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymHistory

/// The queries `history list` and `count` run use the indexes the seed asked for: proven with
/// `EXPLAIN QUERY PLAN` on the SQL the query layer actually builds.
@Suite struct WorkoutQueryPlanTests {
  let table = WorkoutSchema.table

  func plan(_ sql: String, _ arguments: StatementArguments) throws -> String {
    let store = try HistoryFixtures.store()
    return try store.read { db in
      try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        .joined(separator: "\n")
    }
  }

  func listPlan(_ filter: RecordFilter?, after: PageCursor? = nil) throws -> String {
    let (sql, arguments) = try Query(table: table, filter: filter, limit: 20, after: after).selectSQL()
    return try plan(sql, arguments)
  }

  @Test func newestFirstWalksTheCompletedAtIndex() throws {
    let detail = try listPlan(nil)
    #expect(detail.contains("USING INDEX workout_completedAt"))
    #expect(!detail.contains("TEMP B-TREE"))
  }

  @Test func statusFilterUsesTheCompoundIndexInOrder() throws {
    let detail = try listPlan(.compare("status", .equal, .text("completed")))
    #expect(detail.contains("USING INDEX workout_status_completedAt (status=?)"))
    #expect(!detail.contains("TEMP B-TREE"))
  }

  @Test func dateRangeSearchesTheCompletedAtIndex() throws {
    let since = RecordFilter.compare("completedAt", .greaterOrEqual, .timestamp(Timestamp(millisecondsSince1970: 0)))
    #expect(try listPlan(since).contains("SEARCH workout USING INDEX workout_completedAt (completedAt>?)"))
    let both = RecordFilter.and(.compare("status", .equal, .text("skipped")), since)
    #expect(try listPlan(both).contains("USING INDEX workout_status_completedAt (status=? AND completedAt>?)"))
  }

  @Test func keysetCursorSeeksInsteadOfScanning() throws {
    let cursor = try PageCursor(decoding: cursorText())
    let detail = try listPlan(nil, after: cursor)
    #expect(detail.contains("SEARCH workout USING INDEX workout_completedAt (completedAt<?)"))
  }

  @Test func countsUseCoveringIndexes() throws {
    let all = try Query(table: table).countSQL()
    #expect(try plan(all.0, all.1).contains("USING COVERING INDEX"))
    let byStatus = try Query(table: table, filter: .compare("status", .equal, .text("completed"))).countSQL()
    #expect(try plan(byStatus.0, byStatus.1).contains("USING COVERING INDEX workout_status (status=?)"))
  }

  @Test func showFindsByTheUniqueIdIndex() throws {
    let (sql, arguments) = try Query(table: table, filter: .compare("id", .equal, .text("x")), limit: 1).selectSQL()
    #expect(try plan(sql, arguments).contains("USING INDEX workout_id (id=?)"))
  }

  /// A real cursor, from a page of a real listing.
  func cursorText() throws -> String {
    let store = try HistoryFixtures.store()
    try store.write { db in
      for day in 1...3 { try HistoryFixtures.insert(db, at: "2026-11-0\(day)T10:00:00.000Z") }
    }
    let cursor = try store.read { try Query(table: table, limit: 1).forEachRow($0) { _ in } }
    return try #require(cursor).encoded
  }

  /// Records and volume read the sets from the covering spelling index alone, one range per spelling,
  /// sorting nothing (time order comes from each workout's rank, read along `workout_status_completedAt`:
  /// the completed workouts only).
  /// Where sets are fewer than workouts, only the workouts with sets are ranked: their seqs from the
  /// covering position index, each workout by its rowid, then sorted by time; the others are never read.
  @Test func theSetPassScansOnceWithoutSorting() throws {
    let detail = try plan(SetPass.sql, ["a"])
    #expect(detail.contains("USING COVERING INDEX workout_set_exercise (exercise=?)"))
    #expect(!detail.contains("TEMP B-TREE"))
    let order = try plan(WorkoutClock.sql, [nil, nil])
    #expect(order.contains("USING COVERING INDEX workout_status_completedAt (status=?)"), "\(order)")
    #expect(!order.contains("TEMP B-TREE"))
    let withSets = try plan(WorkoutClock.sqlForWorkoutsWithSets, [nil, nil])
    #expect(withSets.contains("SCAN workout_set USING COVERING INDEX workout_set_position"), "\(withSets)")
    #expect(withSets.contains("SEARCH workout USING INTEGER PRIMARY KEY (rowid=?)"), "\(withSets)")
    #expect(!withSets.contains("SCAN workout "), "\(withSets)")
  }

  /// Each command finds the spellings by seeking the spelling index once per spelling: never a scan of
  /// the sets (`SELECT DISTINCT` would walk them all).
  @Test func spellingsAreASkipScan() throws {
    let detail = try plan(ExerciseAliases.spellingsSQL, [])
    #expect(detail.contains("SEARCH workout_set USING COVERING INDEX workout_set_exercise (exercise>?)"), "\(detail)")
    #expect(!detail.contains("SCAN workout_set"), "\(detail)")
  }

  /// The exercises list walks the spelling index and sorts nothing but its distinct sessions.
  @Test func exercisesUseTheSpellingIndex() throws {
    let exercises = try plan("SELECT * FROM training_exercises", [])
    #expect(exercises.contains("USING COVERING INDEX workout_set_exercise"))
  }
}
