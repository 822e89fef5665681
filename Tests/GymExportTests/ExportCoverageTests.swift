import Foundation
import GRDB
import GymCore
import GymModules
import Testing

@testable import GymExport

/// Every table the migrations make is either exported by its module or declared derived (a
/// full-text index with its shadow tables, rebuilt from the others), or is the migrations' own
/// record (in every manifest as `schema`), or sync's change log (`sync_…`: a device's records travel
/// to others as changesets, and an export of them is the records themselves), or the database's own
/// identity (in every manifest as `store`; an import makes a new database with one of its own). A new table that holds what a user wrote or decided
/// fails here until its module exports it.
@Suite struct ExportCoverageTests {
  @Test func everyTableIsExportedOrDerived() throws {
    let path = NSTemporaryDirectory() + "coverage-\(UUID().uuidString).sqlite"
    defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
    let store = try Store(path: path, modules: registeredModules)
    let tables = try store.read { db in
      try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    }
    let exported = Set(registeredModules.flatMap(\.tables).map(\.name))
    let derived = registeredModules.flatMap(\.derivedIndexes).map(\.table)
    let unaccounted = tables.filter { name in
      !exported.contains(name) && name != "grdb_migrations" && !name.hasPrefix("sqlite_") && !name.hasPrefix("sync_")
        && name != "store_identity"
        && !derived.contains { name == $0 || name.hasPrefix($0 + "_") }
    }
    #expect(unaccounted.isEmpty, "tables in no export: \(unaccounted)")
    // And every exported table exists: a module cannot list one its migrations do not make.
    #expect(exported.subtracting(tables).isEmpty)
    #expect(exported.contains("exercise_alias"))
  }
}
