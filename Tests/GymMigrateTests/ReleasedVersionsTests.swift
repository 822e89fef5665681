import Foundation
import GRDB
import GymCore
import GymModules
import Testing

/// Every released schema version, filled with generated data, migrates to the latest with every
/// row and relationship intact.
@Suite struct ReleasedVersionsTests {
  /// The registered modules as a binary that had released only the first `count` migrations.
  static func modules(upTo count: Int) -> [GymModule] {
    let released = Set(registeredModules.flatMap(\.migrations).prefix(count).map(\.identifier))
    return registeredModules.map { module in
      let migrations = module.migrations.filter { released.contains($0.identifier) }
      let complete = migrations.count == module.migrations.count
      return GymModule(
        name: module.name, migrations: migrations, tables: complete ? module.tables : [],
        benchmarks: complete ? module.benchmarks : nil)
    }
  }

  @Test func everyReleasedVersionMigratesToTheLatest() throws {
    let total = registeredModules.flatMap(\.migrations).count
    for version in 1..<total {
      let path = try MigrationFixtures.temporaryPath()
      let old = try Store(path: path, modules: Self.modules(upTo: version))
      try old.write { db in
        // Each module's own sample-data generator, as far as this version's tables allow: at
        // history/001 it writes workouts, then stops at the samples table that is not there yet.
        for module in registeredModules
        where old.modules.contains(where: { $0.name == module.name && !$0.migrations.isEmpty }) {
          do { try module.benchmarks?.generate(db, 120) } catch let error as DatabaseError
            where error.message?.contains("no such table") == true
          {}
        }
      }
      let before = try old.read { db in
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
          .filter { !$0.hasPrefix("work_search") && $0 != "grdb_migrations" }
          .map { table in (table, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\"")!) }
      }
      #expect(before.contains { $0.1 > 0 }, "version \(version) has data")
      let latest = try Store(path: path, modules: registeredModules)
      try latest.read { db in
        for (table, count) in before {
          #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\"") == count, "v\(version): \(table)")
        }
        #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        let report = try StoreVerification.run(db, modules: registeredModules)
        #expect(report.passed, "v\(version): \(report.checks.filter { !$0.passed }.map(\.problems))")
      }
    }
  }
}
