import Foundation
import GRDB
import GymCLI
import GymCore
import GymModules
import Testing

@testable import GymExport

/// The one-pass import of an export at the current schema: straight into the target, its indexes
/// and full-text index built after the rows, a new database put in place only when complete.
@Suite struct DirectImportTests {
  /// The schema objects (tables, indexes, triggers) with their SQL, by name.
  static func schema(_ store: Store) throws -> [String] {
    try store.read { db in
      try String.fetchAll(
        db,
        sql:
          "SELECT type || ' ' || name || ' ' || tbl_name || ' ' || coalesce(sql, '') FROM sqlite_master ORDER BY name")
    }
  }

  static func searchIndex(_ store: Store) throws -> [[String]] {
    try store.read { db in
      try Row.fetchAll(db, sql: "SELECT rowid, title, series, authors FROM work_search ORDER BY rowid").map { row in
        row.databaseValues.map { "\($0)" }
      }
    }
  }

  /// An uncompressed NDJSON export of the round-trip source: easy to change line by line.
  static func plainExport(in directory: String) throws -> (source: Store, path: String) {
    let source = try ExportRoundTripTests.source(in: directory)
    var options = ExportOptions(out: directory + "/exports")
    options.compression = .none
    let (path, _) = try ExportJob(store: source, options: options, gymVersion: "test").run()
    return (source, path)
  }

  /// Rewrites lines of a table's file and makes the manifest's size and checksum match: only what
  /// the file holds can give it away.
  static func edit(_ table: String, in export: String, _ change: (inout [String]) -> Void) throws {
    let file = export + "/\(table).ndjson"
    var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
    change(&lines)
    try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let (sha, bytes) = try HashedFile.sha256(of: file)
    let url = URL(fileURLWithPath: export + "/manifest.json")
    var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var files = try #require(manifest["files"] as? [[String: Any]])
    let index = try #require(files.firstIndex { $0["name"] as? String == "\(table).ndjson" })
    files[index]["bytes"] = bytes
    files[index]["sha256"] = sha
    manifest["files"] = files
    try JSONSerialization.data(withJSONObject: manifest).write(to: url)
  }

  static func leftovers(in directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).filter {
      $0.contains(".partial") || $0.hasSuffix("-journal")
    }
  }

  /// Imports `export` into `restored.sqlite` of `directory` (made empty first when `targetExists`),
  /// expecting a refusal as the export's fault (65) that leaves the target as it was and nothing
  /// beside it; returns the error.
  static func refusedImport(_ export: String, in directory: String, targetExists: Bool) throws -> GymError? {
    let target = directory + "/restored.sqlite"
    if targetExists { _ = try Store(path: target, modules: registeredModules) }
    let error = #expect(throws: GymError.self) {
      _ = try ImportJob(
        reader: try ExportReader(path: export), target: target, modules: registeredModules, options: .init()
      )
      .run()
    }
    #expect(error?.status == .dataError)
    #expect(FileManager.default.fileExists(atPath: target) == targetExists)
    #expect(try leftovers(in: directory).isEmpty)
    return error
  }

  @Test func aNewDatabaseHasTheSchemaOfAFreshOneAndTheIndexTheTriggersKeep() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let source = try ExportRoundTripTests.source(in: directory)
    let (path, _) = try ExportJob(store: source, options: ExportOptions(out: directory + "/e"), gymVersion: "t").run()
    let target = directory + "/restored.sqlite"
    _ = try ImportJob(
      reader: try ExportReader(path: path), target: target, modules: registeredModules, options: .init()
    )
    .run()
    let restored = try Store(path: target, modules: registeredModules)
    let fresh = try Store(path: directory + "/fresh.sqlite", modules: registeredModules)
    #expect(try Self.schema(restored) == Self.schema(fresh))
    #expect(try restored.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    #expect(try restored.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    // The source's index was kept by the triggers, row by row; the import's was built once.
    let index = try Self.searchIndex(source)
    #expect(index.count == 300)
    #expect(try Self.searchIndex(restored) == index)
    #expect(try ExportRoundTripTests.dump(restored) == ExportRoundTripTests.dump(source))
    #expect(try Self.leftovers(in: directory).isEmpty)
  }

  @Test func anEmptyDatabaseThatExistsIsLoadedInPlace() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let (source, path) = try Self.plainExport(in: directory)
    let target = directory + "/empty.sqlite"
    let fresh = try Self.schema(try Store(path: target, modules: registeredModules))
    _ = try ImportJob(
      reader: try ExportReader(path: path), target: target, modules: registeredModules, options: .init()
    )
    .run()
    let restored = try Store(path: target, modules: registeredModules)
    #expect(try Self.schema(restored) == fresh)
    #expect(try Self.searchIndex(restored) == Self.searchIndex(source))
    #expect(try ExportRoundTripTests.dump(restored) == ExportRoundTripTests.dump(source))
  }

  /// An export made before the database's identity existed (its schema lacks `sync/004-store-identity`,
  /// its manifest names no database) still loads in one pass: that migration shapes no exported row.
  /// One missing a migration of an exported table's module does not. The restored database has an
  /// identity of its own.
  @Test func anExportFromBeforeTheIdentityStillLoadsInOnePass() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let (source, path) = try Self.plainExport(in: directory)
    let url = URL(fileURLWithPath: path + "/manifest.json")
    var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let schema = try #require(manifest["schema"] as? [String])
    #expect(schema.contains("sync/004-store-identity"))
    // Nor do the migrations that remake views alone (`.view`): an export from before them loads in
    // one pass too, and the restored database has the views as this gym makes them.
    let views = ["history/017-exercises-of-completed-workouts", "staples/005-stock-quantity-to-a-millionth"]
    #expect(views.allSatisfy(schema.contains))
    manifest["schema"] = schema.filter { $0 != "sync/004-store-identity" && !views.contains($0) }
    manifest.removeValue(forKey: "store")
    try JSONSerialization.data(withJSONObject: manifest).write(to: url)
    let target = directory + "/restored.sqlite"
    let job = ImportJob(
      reader: try ExportReader(path: path), target: target, modules: registeredModules, options: .init())
    let applied = registeredModules.flatMap { $0.migrations.map(\.identifier) }
    #expect(job.directTables(applied: applied) != nil)
    #expect(job.directTables(applied: applied.filter { $0 != "history/016-sync-keys" }) == nil)
    _ = try job.run()
    let restored = try Store(path: target, modules: registeredModules)
    #expect(try ExportRoundTripTests.dump(restored) == ExportRoundTripTests.dump(source))
    let view = try restored.read {
      try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE name = 'training_exercises'")
    }
    #expect(view?.contains("wo.status = 'completed'") == true)
    let identities = try [source, restored].map { store in try #require(try store.read { try StoreIdentity.id($0) }) }
    #expect(identities[0] != identities[1])
  }

  @Test(arguments: [false, true])
  func aRepeatedKeyIsRefusedAndNothingIsLeft(targetExists: Bool) throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let (_, path) = try Self.plainExport(in: directory)
    // The second workout takes the first one's id: the unique index, built after the load, refuses it.
    try Self.edit("workout", in: path) { lines in
      let id = /"id":"[^"]*"/
      let first = String(lines[0].firstMatch(of: id)!.output)
      lines[1] = lines[1].replacing(id, with: first)
    }
    let error = try Self.refusedImport(path, in: directory, targetExists: targetExists)
    #expect(error?.message.contains("UNIQUE constraint failed: workout.id") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("the export was edited or damaged") == true)
    if targetExists {
      let store = try Store(path: directory + "/restored.sqlite", modules: registeredModules)
      #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout") } == 0)
      #expect(
        try store.read {
          try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'workout_id'")
        } == 1)
    }
  }

  /// A row that breaks a CHECK, and one that names a parent not in the export: a new database checks
  /// the rows after committing them (on a connection per core) and with references unchecked while
  /// they go in, a database that exists in the load's one transaction; either way the export is
  /// refused, naming the row, and nothing is left.
  @Test(arguments: [false, true], ["check", "reference"])
  func aRowThatBreaksARuleIsRefusedAndNothingIsLeft(targetExists: Bool, rule: String) throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let (_, path) = try Self.plainExport(in: directory)
    let expected: String
    if rule == "check" {
      // The third work (rowid 3) gets a review status the CHECK's list does not hold.
      try Self.edit("work", in: path) { lines in
        lines[2] = lines[2].replacing(/"reviewStatus":"[^"]*"/, with: "\"reviewStatus\":\"bogus\"")
      }
      expected = "row 3 of work breaks CHECK (reviewStatus IN ('verified', 'needsReview', 'userEdited'))"
    } else {
      // The first edition names a work no row has.
      try Self.edit("edition", in: path) { lines in
        lines[0] = lines[0].replacing(/"workId":[0-9]+/, with: "\"workId\":987654321")
      }
      expected = "1 row(s) of edition point at missing work rows; nothing was imported"
    }
    let error = try Self.refusedImport(path, in: directory, targetExists: targetExists)
    #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    if targetExists {
      let store = try Store(path: directory + "/restored.sqlite", modules: registeredModules)
      #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM work") } == 0)
    }
  }

  /// JSON numbers without a fraction or exponent are INTEGER while they fit 64 bits, REAL past
  /// that; `work.firstPublished` has INTEGER affinity, which keeps a REAL that is a whole number
  /// as an INTEGER.
  @Test func numbersKeepTheirStorageClass() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let (_, path) = try Self.plainExport(in: directory)
    let values = ["9223372036854775807", "-9223372036854775808", "9223372036854775808", "1.5e3", "-12"]
    try Self.edit("work", in: path) { lines in
      for (index, value) in values.enumerated() {
        lines[index] = lines[index].replacing(/"firstPublished":[^,}]*/, with: "\"firstPublished\":\(value)")
      }
    }
    let target = directory + "/restored.sqlite"
    _ = try ImportJob(
      reader: try ExportReader(path: path), target: target, modules: registeredModules, options: .init()
    )
    .run()
    let stored = try Store(path: target, modules: registeredModules).read { db in
      try Row.fetchAll(db, sql: "SELECT typeof(firstPublished), firstPublished FROM work ORDER BY id LIMIT 5").map {
        "\($0[0] as String) \($0[1] as DatabaseValue)"
      }
    }
    #expect(
      stored == [
        "integer 9223372036854775807", "integer -9223372036854775808", "real 9.223372036854776e+18",
        "integer 1500", "integer -12",
      ])
  }

  @Test func aNumberPastAFloatIsRefused() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    let (_, path) = try Self.plainExport(in: directory)
    try Self.edit("work", in: path) { lines in
      lines[3] = lines[3].replacing(/"firstPublished":[^,}]*/, with: "\"firstPublished\":1e400")
    }
    let target = directory + "/restored.sqlite"
    let error = #expect(throws: GymError.self) {
      _ = try ImportJob(
        reader: try ExportReader(path: path), target: target, modules: registeredModules, options: .init()
      )
      .run()
    }
    #expect(error?.message == "work: the number 1e400 does not fit a 64-bit float; the export was edited or damaged")
    #expect(!FileManager.default.fileExists(atPath: target))
    #expect(try Self.leftovers(in: directory).isEmpty)
  }
}
