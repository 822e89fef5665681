import Foundation
import GRDB
import GymCLI
import GymCore
import GymModules
import Testing

@testable import GymExport

/// Export, verify, import, compare: every module's generated data and the values that break
/// exporters (Unicode, NULL against empty text, quotes, commas, line breaks, long decimals), in
/// each format, restored byte for byte.
@Suite struct ExportRoundTripTests {
  static func temporaryDirectory() throws -> String {
    let directory = NSTemporaryDirectory() + "gym-export-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
  }

  /// A database with every module's sample data and the awkward values.
  static func source(in directory: String) throws -> Store {
    let store = try Store(path: directory + "/source.sqlite", modules: registeredModules)
    try store.write { db in
      for module in registeredModules { try module.benchmarks?.generate(db, 300) }
      let awkward = [
        "Crème brûlée — «quoted» \"twice\", with commas", "line one\nline two\r\nline three", "", "  padded  ",
        "emoji 🏋️‍♀️ and 中文", "back\\slash and tab\t", "=\"0140449132\"",
      ]
      for (i, text) in awkward.enumerated() {
        try db.execute(
          sql:
            "INSERT INTO grocery_item (name, category, isStaple, minStock, unit, dateCreated, notes) VALUES (?, ?, ?, ?, ?, ?, ?)",
          arguments: [
            "Awkward \(i) \(text.prefix(3))", "Odd", i % 2, [0.1, 1e-7, 123_456.789, 2.0 / 3.0, 0, 1e300, 5][i],
            i == 2 ? nil : text, "2026-11-21T10:00:00.000Z", i == 3 ? nil : text,
          ])
        // A lot of each, with the same awkward amounts and text.
        try db.execute(
          sql: "INSERT INTO stock_lot (itemSeq, amount, bestBefore, location, added) VALUES (?, ?, ?, ?, ?)",
          arguments: [
            db.lastInsertedRowID, [2.0 / 3.0, 0, 1e300, 0.1, 1e-7, 5, 123_456.789][i],
            i == 4 ? nil : "2026-12-0\(i + 1)",
            i == 5 ? nil : text, "2026-11-21T10:00:00.000Z",
          ])
      }
      try db.execute(
        sql: "UPDATE work SET subtitle = ?, originalLanguage = '' WHERE id = 1",
        arguments: ["Subtitle with \"quotes\", commas\nand a new line"])
    }
    return store
  }

  /// Every row of every module table, in rowid order, each value as its storage class and exact
  /// content (a REAL by its bits: 1 and 1.0 differ, as they do on disk).
  static func dump(_ store: Store) throws -> [String: [[String]]] {
    try store.read { db in
      var tables: [String: [[String]]] = [:]
      for table in registeredModules.flatMap(\.tables).map(\.name) {
        tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(SQL.quote(table)) ORDER BY rowid").map { row in
          row.databaseValues.map { value in
            switch value.storage {
            case .null: "null"
            case .int64(let integer): "integer \(integer)"
            case .double(let double): "real \(double.bitPattern)"
            case .string(let text): "text " + text
            case .blob(let data): "blob \(data.base64EncodedString())"
            }
          }
        }
      }
      return tables
    }
  }

  static let formats: [(ExportFormat, ExportCompression)] = [
    (.ndjson, .gzip), (.ndjson, .none), (.csv, .gzip), (.csv, .none), (.sqlite, .gzip), (.sqlite, .none),
  ]

  @Test(arguments: formats)
  func everyValueComesBackExactly(format: ExportFormat, compression: ExportCompression) throws {
    let directory = try Self.temporaryDirectory()
    let source = try Self.source(in: directory)
    var options = ExportOptions(out: directory + "/exports")
    options.format = format
    options.compression = compression
    options.level = 1
    let (path, manifest) = try ExportJob(store: source, options: options, gymVersion: "test").run()
    #expect(manifest.schema.count == registeredModules.flatMap(\.migrations).count)
    #expect(manifest.tables.map(\.name) == registeredModules.flatMap(\.tables).map(\.name))
    let reader = try ExportReader(path: path)
    try reader.verify()
    let target = directory + "/restored.sqlite"
    let summary = try ImportJob(reader: reader, target: target, modules: registeredModules, options: .init()).run()
    let before = try Self.dump(source)
    #expect(summary.rows == before.values.reduce(0) { $0 + $1.count })
    let after = try Self.dump(try Store(path: target, modules: registeredModules))
    for (table, rows) in before {
      #expect(after[table]?.count == rows.count, "\(table)")
      for (a, b) in zip(rows, after[table] ?? []) where a != b {
        Issue.record("\(table): \(a) came back as \(b)")
        break
      }
    }
    let notes = before["grocery_item"]!.map { $0[6] }  // seq, name, category, isStaple, unit, dateCreated, notes
    #expect(
      notes.contains("text ") && notes.contains("null") && notes.contains("text line one\nline two\r\nline three"))
  }

  /// An export from an older schema is migrated on import: the rows go through the same migrations.
  @Test func anOlderExportIsMigratedOnImport() throws {
    let directory = try Self.temporaryDirectory()
    let history = registeredModules.first { $0.name == "history" }!
    let old = GymModule(
      name: "history", migrations: Array(history.migrations.prefix { $0.identifier < "history/006" }),
      tables: history.tables.filter { $0.name != "exercise_alias" && $0.name != "sample_source" })  // made by 010, 014
    let store = try Store(path: directory + "/old.sqlite", modules: [old], options: .init(inspectOnly: true))
    _ = try MigrationRunner(store: store).up()
    try store.write { db in
      try db.execute(
        sql: """
          INSERT INTO workout (seq, id, completedAt, status, planTitle, focus, durationMinutes, intensity)
          VALUES (1, 'a', '2026-01-01T00:00:00.000Z', 'completed', 'Soccer', 'fullBody', 90, 'high'),
                 (2, 'b', '2026-01-02T00:00:00.000Z', 'completed', 'Push Day', 'push', 45, 'moderate')
          """)
      try db.execute(
        sql:
          "INSERT INTO workout_set (workoutSeq, position, exercise, kind, durationSeconds) VALUES (2, 1, 'Plank', 'normal', 60)"
      )
    }
    var options = ExportOptions(out: directory + "/exports")
    options.tables = ["workout", "workout_set"]
    let (path, manifest) = try ExportJob(store: store, options: options, gymVersion: "old").run()
    #expect(!manifest.schema.contains("history/006-workout-focus-sport"))
    let target = directory + "/new.sqlite"
    let summary = try ImportJob(
      reader: try ExportReader(path: path), target: target, modules: registeredModules, options: .init()
    ).run()
    #expect(summary.migrated.contains("history/006-workout-focus-sport"))
    let focuses = try Store(path: target, modules: registeredModules).read { db in
      try String.fetchAll(db, sql: "SELECT focus FROM workout ORDER BY seq")
    }
    #expect(focuses == ["sport", "push"])
  }

  @Test func importRefusesADatabaseThatHoldsRows() throws {
    let directory = try Self.temporaryDirectory()
    let source = try Self.source(in: directory)
    let (path, _) = try ExportJob(store: source, options: ExportOptions(out: directory + "/e"), gymVersion: "t").run()
    let error = #expect(throws: GymError.self) {
      _ = try ImportJob(
        reader: try ExportReader(path: path), target: source.path, modules: registeredModules, options: .init()
      ).run()
    }
    #expect(error?.message.contains("already holds") == true)
  }
}
