import ArgumentParser
import Foundation
import GRDB
import GymBench
import GymCLI
import GymCore
import GymExport
import GymModules
import GymReport
import Testing

/// A module that is not gym's, written here as a newcomer would (one table, one migration, a
/// benchmark generator and workload, a report section), added to the registered list: migrate,
/// export and import, the report and bench take it up without a line changed in any of them.
@Suite struct FixtureModuleTests {
  static let table = TableSchema(
    name: "fixture_note", fields: [Field("id", .integer), Field("body", .text)],
    indexes: [IndexSchema("fixture_note_id", on: ["id"], unique: true)], defaultSort: [SortKey("id")])

  static let module = GymModule(
    name: "fixture",
    migrations: [
      Migration(
        "fixture/001-note", .additive,
        sql: """
          CREATE TABLE fixture_note (id INTEGER NOT NULL, body TEXT NOT NULL);
          CREATE UNIQUE INDEX fixture_note_id ON fixture_note(id);
          """)
    ],
    tables: [table],
    benchmarks: ModuleBenchmarks(
      generate: { db, count in
        for id in 1...count {
          try db.execute(sql: "INSERT INTO fixture_note (id, body) VALUES (?, ?)", arguments: [id, "note \(id)"])
        }
      },
      workloads: { _ in
        [BenchWorkload("count notes") { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fixture_note") ?? 0 }]
      }))

  static let report = ReportContribution(module: "fixture") { db, _ in
    let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fixture_note") ?? 0
    return [ReportSection(id: "fixture", title: "Fixture notes: \(count)")]
  }

  struct FixtureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fixture")
  }

  /// Its one line, and the registered list with it last, read as `RegisteredModules.swift` and the
  /// registry read theirs: the store's modules and the report's sections from the same entries.
  static let feature = FeatureModule(module, command: FixtureCommand.self, report: report)
  static let features = registeredFeatures + [feature]
  static let modules = features.map(\.module)
  static let reports = features.compactMap(\.report)

  @Test func migrateExportImportReportAndBenchTakeUpANewModule() throws {
    let directory = try ExportRoundTripTests.temporaryDirectory()
    // The command tree the executable builds from the list holds its command.
    #expect(Self.features.map { $0.command.configuration.commandName }.last == "fixture")
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // Migrate: opening the store applies the module's migration after gym's own.
    let store = try Store(path: directory + "/gym.sqlite", modules: Self.modules)
    let state = try MigrationRunner(store: store).state()
    #expect(try state.pending(upTo: nil).isEmpty)
    #expect(
      try store.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }.last
        == "fixture/001-note")

    // Bench: its generator fills its table, and its workload is measured with the others' machinery.
    try store.write { try Self.module.benchmarks!.generate($0, 3) }
    let workloads = try BenchCommand.workloads(store, modules: Self.modules)
    #expect(workloads.map(\.0.name).last == "fixture")
    let bench = try BenchCommand.measure(
      store, workloads: workloads.filter { $0.0.name == "fixture" }, repeat: 1, targets: [:])
    #expect(bench.rows.count == 1)
    #expect(bench.rows.first?[0] == .text("fixture"))
    #expect(bench.rows.first?[3] == .integer(3))  // the workload counted the 3 generated notes

    // Export and import: the table travels with the rest, row for row.
    let (path, manifest) = try ExportJob(store: store, options: ExportOptions(out: directory + "/e"), gymVersion: "t")
      .run()
    #expect(manifest.tables.map(\.name).contains("fixture_note"))
    let target = directory + "/restored.sqlite"
    _ = try ImportJob(reader: try ExportReader(path: path), target: target, modules: Self.modules, options: .init())
      .run()
    let restored = try Store(path: target, modules: Self.modules)
    let notes = try restored.read { try String.fetchAll($0, sql: "SELECT body FROM fixture_note ORDER BY id") }
    #expect(notes == ["note 1", "note 2", "note 3"])

    // Report: its section is drawn beside the registered ones'.
    let configuration = try ConfigLoader(environment: ["HOME": directory], workingDirectory: directory).load(
      explicit: nil)
    _ = try Report(
      store: store, since: Timestamp.now().adding(milliseconds: -86_400_000),
      contributions: Self.reports, configuration: configuration
    ).write(to: directory + "/report.html")
    let page = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
    #expect(page.contains("Fixture notes: 3"))
  }
}
