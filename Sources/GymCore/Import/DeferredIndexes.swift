import Foundation
import GRDB

/// The indexes of tables loaded while empty (or, for a merge, the non-unique ones of tables it brings
/// more rows to than they hold): dropped before the rows and built once after them, from their own
/// SQL, so they come back exactly as the migrations made them (partial, collated).
/// Keeping the unique index on random UUIDs during a load makes every insert touch a random page
/// of it, several times slower. The one way both bulk loads (`BulkLoader`, an export's direct
/// import) do it.
public struct DeferredIndexes {
  private let indexes: [(name: String, sql: String)]

  /// Drops every index of `tables` (in the main database), or only the non-unique ones when
  /// `keepingUnique` (a merge looks rows up by their keys and relies on their conflicts), and
  /// remembers how to build them.
  public static func drop(_ db: Database, tables: Set<String>, keepingUnique: Bool = false) throws -> DeferredIndexes {
    let indexes = try Row.fetchAll(
      db, sql: "SELECT name, tbl_name, sql FROM main.sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    ).filter { tables.contains($0["tbl_name"] as String) }.map {
      (name: $0["name"] as String, sql: $0["sql"] as String)
    }.filter { !keepingUnique || !$0.sql.uppercased().hasPrefix("CREATE UNIQUE") }
    for index in indexes { try db.execute(sql: "DROP INDEX main.\(SQL.quote(index.name))") }
    return DeferredIndexes(indexes: indexes)
  }

  /// Builds the indexes again, unique ones first. When a unique one meets a key twice,
  /// `removingDuplicates` (when given) removes the repeats and the build goes on; without it, the
  /// constraint error is thrown.
  public func rebuild(_ db: Database, removingDuplicates: ((Database) throws -> Void)? = nil) throws {
    // SQLite's sorter may sort an index's keys on worker threads: on two cores the index builds of
    // a 1,000,000-workout load take 1.6 s instead of 2.0 s. Two per core: the thread that reads the
    // table waits less for a free one (1.82 s against 1.92 s, Docs/PerformanceNotes.md). Back to
    // one thread afterwards.
    try db.execute(sql: "PRAGMA threads = \(min(max(ProcessInfo.processInfo.activeProcessorCount, 1) * 2, 4))")
    defer { try? db.execute(sql: "PRAGMA threads = 0") }
    let isUnique = { (index: (name: String, sql: String)) in index.sql.uppercased().hasPrefix("CREATE UNIQUE") }
    let unique = indexes.filter(isUnique)
    do {
      for index in unique { try db.execute(sql: index.sql) }
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT && removingDuplicates != nil {
      try removingDuplicates?(db)
      for index in unique {
        let exists = try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM main.sqlite_master WHERE type = 'index' AND name = ?)",
          arguments: [index.name])!
        if !exists { try db.execute(sql: index.sql) }
      }
    }
    for index in indexes where !isUnique(index) { try db.execute(sql: index.sql) }
  }
}
