import Foundation
import GRDB
import GymCLI
import GymCore
import GymModules
import Testing

@testable import GymExport

/// `gym import --merge`: rows already there are left alone and counted, new ones are added with
/// their links rewritten to the rows they point at in the target.
@Suite struct ImportMergeTests {
  func export(_ store: Store, to directory: String) throws -> ExportReader {
    try ExportReader(
      path: try ExportJob(store: store, options: ExportOptions(out: directory), gymVersion: "t").run().path)
  }

  func merge(_ reader: ExportReader, into path: String) throws -> ImportSummary {
    try ImportJob(reader: reader, target: path, modules: registeredModules, options: .init(), merge: true).run()
  }

  /// Sets as (workout id, position, exercise): what they mean, whatever the rowids.
  func sets(_ path: String) throws -> [String] {
    try Store(path: path, modules: registeredModules).read { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT w.id || ' ' || s.position || ' ' || s.exercise FROM workout_set s JOIN workout w ON w.seq = s.workoutSeq
          ORDER BY 1
          """)
    }
  }

  @Test func mergingLeavesExistingRowsAloneAndRelinksNewOnes() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let source = try ExportRoundTripTests.source(in: directory)
    try source.write { db in
      for i in 1...20 {
        try db.execute(
          sql: "INSERT INTO workout_set (workoutSeq, position, exercise, kind) VALUES (?, 11, ?, 'normal')",
          arguments: [i * 3, "Exercise \(i)"])
      }
    }
    // A target with rows of its own, whose rowids collide with the source's.
    let target = directory + "/target.sqlite"
    let own = try Store(path: target, modules: registeredModules)
    try own.write { db in
      for i in 1...40 {
        try db.execute(
          sql: """
            INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity)
            VALUES (?, '2020-01-01T00:00:00.000Z', 'completed', 'Mine', 'push', 30, 'low')
            """, arguments: ["own-\(i)"])
        try db.execute(
          sql: "INSERT INTO workout_set (workoutSeq, position, exercise, kind) VALUES (?, 1, 'Mine', 'normal')",
          arguments: [i])
      }
      try db.execute(
        sql:
          "INSERT INTO grocery_item (name, category, isStaple, dateCreated) VALUES ('Item 0', 'Mine', 1, '2020-01-01T00:00:00.000Z')"
      )
    }
    let ownSets = try sets(target)
    let schema = try DirectImportTests.schema(own)
    let reader = try export(source, to: directory + "/exports")
    let total = reader.manifest.tables.reduce(0) { $0 + $1.rows }
    let first = try merge(reader, into: target)
    #expect(first.existing == 1)  // 'Item 0' was already there, by name
    #expect(first.rows == total - 1)
    #expect(try sets(target).sorted() == (ownSets + (try sets(source.path))).sorted())
    let again = try merge(reader, into: target)
    #expect(again.rows == 0 && again.existing == total)
    let orphans = try Store(path: target, modules: registeredModules).read { db in
      try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
    }
    #expect(orphans == 0)
    // The workouts' indexes, dropped for the merge (it brings more than the target held), are the
    // migrations' own again.
    #expect(try DirectImportTests.schema(try Store(path: target, modules: registeredModules)) == schema)
    // The export was loaded into a database of its own beside the target, and nothing of it is left.
    let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".partial") }
    #expect(left.isEmpty, "\(left)")
  }
}

/// A synced table's rows keep their keys through `import --merge` where the key is free: the merged
/// lot is the same record as on the device the export came from, and its item's reference follows.
@Suite struct ImportMergeKeyTests {
  @Test func syncedRowsKeepTheirKeysWhereFree() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let source = try Store(path: directory + "/source.sqlite", modules: registeredModules)
    let milk = GlobalKey.derived("grocery_item", "milk")
    try source.write { db in
      try db.execute(
        sql: """
          INSERT INTO grocery_item (seq, name, category, dateCreated) VALUES (?, 'Milk', 'Dairy', '2026-01-01T00:00:00.000Z');
          INSERT INTO stock_lot (seq, itemSeq, amount, added) VALUES (123456789, ?, 2, '2026-01-01T00:00:00.000Z'),
            (5, ?, 1, '2026-01-02T00:00:00.000Z');
          """, arguments: [milk, milk, milk])
    }
    let reader = try ExportReader(
      path: try ExportJob(store: source, options: ExportOptions(out: directory + "/out"), gymVersion: "t").run().path)
    // The target holds a lot of its own under key 5.
    let target = directory + "/target.sqlite"
    try Store(path: target, modules: registeredModules).write { db in
      try db.execute(
        sql: """
          INSERT INTO grocery_item (seq, name, category, dateCreated) VALUES (9, 'Rice', 'Pantry', '2026-01-01T00:00:00.000Z');
          INSERT INTO stock_lot (seq, itemSeq, amount, added) VALUES (5, 9, 3, '2026-01-01T00:00:00.000Z');
          """)
    }
    _ = try ImportJob(reader: reader, target: target, modules: registeredModules, options: .init(), merge: true).run()
    let lots = try Store(path: target, modules: registeredModules).read { db in
      try Row.fetchAll(db, sql: "SELECT seq, itemSeq, amount FROM stock_lot ORDER BY amount")
    }
    // Milk kept its key; its 2-unit lot kept 123456789; its 1-unit lot met Rice's 5 and got a new one.
    #expect(lots.map { $0["itemSeq"] as Int64 } == [milk, milk, 9])
    #expect(lots[1]["seq"] as Int64 == 123_456_789)
    #expect(lots[0]["seq"] as Int64 != 5)
    #expect(lots[2]["seq"] as Int64 == 5)
  }

  /// A table keyed by its natural key (a reading goal's year, `reading_goal.year`): a year the target
  /// has is left as it is; a year it lacks arrives under that year.
  @Test func aNaturalPrimaryKeyIsTheRecord() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let source = try Store(path: directory + "/source.sqlite", modules: registeredModules)
    try source.write { db in
      try db.execute(sql: "INSERT INTO reading_goal (year, books) VALUES (2024, 12), (2025, 20)")
    }
    let reader = try ExportReader(
      path: try ExportJob(store: source, options: ExportOptions(out: directory + "/out"), gymVersion: "t").run().path)
    let target = directory + "/target.sqlite"
    try Store(path: target, modules: registeredModules).write { db in
      try db.execute(sql: "INSERT INTO reading_goal (year, books) VALUES (2024, 30)")
    }
    _ = try ImportJob(reader: reader, target: target, modules: registeredModules, options: .init(), merge: true).run()
    let goals = try Store(path: target, modules: registeredModules).read { db in
      try Row.fetchAll(db, sql: "SELECT year, books FROM reading_goal ORDER BY year").map {
        "\($0[0] as Int) \($0[1] as Int)"
      }
    }
    #expect(goals == ["2024 30", "2025 20"])
  }

  /// A table without a key (a work added by hand) is matched on every column, exactly: 40 works of
  /// one import share their lastModified and differ by title, and the lookup goes through the title's
  /// index (the column with the most distinct values, 42 against 1), searched in its collation
  /// (NOCASE) and then compared exactly, so "DUNE" is not "Dune". The target holds "Dune" as the
  /// export does: 1 left alone, 40 + 1 added.
  @Test func aRowWithoutAKeyIsFoundThroughItsMostDistinctIndexExactly() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let source = try Store(path: directory + "/source.sqlite", modules: registeredModules)
    let insert = "INSERT INTO work (title, lastModified) VALUES (?, '2026-01-01T00:00:00.000Z')"
    try source.write { db in
      for title in (1...40).map({ "Title \($0)" }) + ["Dune", "DUNE"] {
        try db.execute(sql: insert, arguments: [title])
      }
    }
    let reader = try ExportReader(
      path: try ExportJob(store: source, options: ExportOptions(out: directory + "/out"), gymVersion: "t").run().path)
    let target = directory + "/target.sqlite"
    let store = try Store(path: target, modules: registeredModules)
    try store.write { db in try db.execute(sql: insert, arguments: ["Dune"]) }
    let schema = try DirectImportTests.schema(store)
    try store.writeWithoutTransaction { db in
      try db.execute(sql: "ATTACH DATABASE ? AS staging", arguments: [source.path])
      defer { try? db.execute(sql: "DETACH DATABASE staging") }
      let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(work)").map { $0["name"] as String }
        .filter { $0 != "id" }
      let find = try ImportMerge.findSQL(db, "work", keyColumns: columns, isKey: false)
      let unbound = StatementArguments(Array(repeating: DatabaseValue.null, count: columns.count))
      let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + find, arguments: unbound).map {
        $0["detail"] as String
      }
      let throughTitle = plan.contains { $0.contains("USING INDEX work_title") }
      #expect(throughTitle, "\(plan)")
    }
    try store.close()
    let summary = try ImportJob(
      reader: reader, target: target, modules: registeredModules, options: .init(), merge: true
    ).run()
    #expect(summary.existing == 1 && summary.rows == 41)
    let merged = try Store(path: target, modules: registeredModules)
    #expect(try merged.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM work WHERE title = 'DUNE'") } == 1)
    #expect(try merged.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM work") } == 42)
    // The indexes the merge built again after the rows are the migrations' own.
    #expect(try DirectImportTests.schema(merged) == schema)
  }

  /// For a merge only the non-unique indexes are deferred: the unique ones serve its lookups and its
  /// conflicts. Of the workout table's four (WorkoutSchema), `workout_id` is the one unique, so it
  /// alone stays while the rows go in; the rebuild brings back all four as they were.
  @Test func aMergeDefersOnlyTheNonUniqueIndexes() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let store = try Store(path: directory + "/target.sqlite", modules: registeredModules)
    let indexes = "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'workout' ORDER BY name"
    try store.write { db in
      let before = try String.fetchAll(db, sql: indexes)
      #expect(before.count == 4)
      let deferred = try DeferredIndexes.drop(db, tables: ["workout"], keepingUnique: true)
      #expect(try String.fetchAll(db, sql: indexes) == ["CREATE UNIQUE INDEX workout_id ON workout(id)"])
      try deferred.rebuild(db)
      #expect(try String.fetchAll(db, sql: indexes) == before)
    }
  }

  /// An index in another collation than its column's is no candidate: `a` compares NOCASE, so a
  /// filter in its index's BINARY would turn away 'DUNE' where the exact match finds 'Dune'. `a` has
  /// the most distinct values (3 against 1) and is passed over; `b`'s index serves.
  @Test func anIndexInAnotherCollationThanItsColumnIsNoCandidate() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let queue = try DatabaseQueue(path: directory + "/main.sqlite")
    let staging = try DatabaseQueue(path: directory + "/staging.sqlite")
    let schema = """
      CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT COLLATE NOCASE, b TEXT);
      CREATE INDEX t_a ON t(a COLLATE BINARY);
      CREATE INDEX t_b ON t(b);
      """
    try staging.write { db in
      try db.execute(sql: schema + "INSERT INTO t (a, b) VALUES ('x', 'same'), ('y', 'same'), ('z', 'same');")
    }
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: schema)
      try db.execute(sql: "ATTACH DATABASE ? AS staging", arguments: [directory + "/staging.sqlite"])
      let find = try ImportMerge.findSQL(db, "t", keyColumns: ["a", "b"], isKey: false)
      #expect(find.contains(#""b" IS ?2 COLLATE BINARY"#), "\(find)")
      #expect(!find.contains(#""a" IS ?1 COLLATE"#), "\(find)")
    }
  }
}
