import Foundation
import GRDB
import Testing

@testable import GymCore

/// The CHECK scan on several connections finds the row one scan of each table in turn would: the
/// first table (in the order given) with a row that breaks a CHECK, and in it the lowest rowid,
/// whichever range and worker found it.
@Suite struct ParallelCheckScanTests {
  /// Three tables of 1,000 rows each (rowids 1 to 1,000), written with SQLite's CHECKs off: the
  /// rows named in `brokenInFirst` and `brokenInSecond` hold a negative `amount`, which breaks
  /// `amount >= 0`; `unchecked` has no CHECK and every amount negative.
  func database(brokenInFirst: [Int64], brokenInSecond: [Int64]) throws -> String {
    let directory = NSTemporaryDirectory() + "gym-parallel-check-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/rows.sqlite"
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: """
          CREATE TABLE first (n INTEGER PRIMARY KEY, amount REAL CHECK (amount >= 0), kind TEXT CHECK (kind IN ('a', 'b')));
          CREATE TABLE second (n INTEGER PRIMARY KEY, amount REAL CHECK (amount >= 0));
          CREATE TABLE unchecked (n INTEGER PRIMARY KEY, amount REAL);
          PRAGMA ignore_check_constraints = ON;
          """)
      for n in Int64(1)...1000 {
        try db.execute(
          sql: "INSERT INTO first VALUES (?, ?, 'a')", arguments: [n, brokenInFirst.contains(n) ? -1.0 : 1.0])
        try db.execute(
          sql: "INSERT INTO second VALUES (?, ?)", arguments: [n, brokenInSecond.contains(n) ? -1.0 : 1.0])
        try db.execute(sql: "INSERT INTO unchecked VALUES (?, -1.0)", arguments: [n])
      }
      try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
    }
    return path
  }

  func scan(_ path: String, _ tables: [String]) throws -> ParallelCheckScan.Violation? {
    // 1,000 rowids in ranges of at least 100: three workers, three ranges per table
    // (1...334, 335...668, 669...1000: (1000 - 1) / 3 + 1 = 334 rowids each).
    try ParallelCheckScan.firstViolation(path: path, tables: tables, workers: 3, rowsPerRange: 100)
  }

  @Test func theLowestRowidOfTheFirstTableThatBreaksACheck() throws {
    // Row 900 (third range) of `first`; rows 700 and 300 (second and first ranges) of `second`.
    let path = try database(brokenInFirst: [900], brokenInSecond: [700, 300])
    #expect(try scan(path, ["first", "second"]) == .init(table: "first", rowid: 900, check: "amount >= 0"))
    #expect(try scan(path, ["second", "first"]) == .init(table: "second", rowid: 300, check: "amount >= 0"))
    #expect(try scan(path, ["unchecked", "second"]) == .init(table: "second", rowid: 300, check: "amount >= 0"))
    // The same row the one-table scan finds.
    let sequential = try DatabaseQueue(path: path).read { try CheckConstraints.firstViolation($0, table: "second") }
    #expect(sequential?.rowid == 300)
  }

  @Test func rowsAtTheEdgesOfTheRangesAreScanned() throws {
    // The first and last rowid of each range: 1, 334, 335, 668, 669, 1000.
    for edge: Int64 in [1, 334, 335, 668, 669, 1000] {
      let path = try database(brokenInFirst: [], brokenInSecond: [edge])
      #expect(try scan(path, ["first", "second"])?.rowid == edge, "row \(edge)")
    }
  }

  /// One table, `amount >= 0`, a row at each rowid of `rowids`; those in `broken` negative.
  func database(rowids: [Int64], broken: [Int64]) throws -> String {
    let path = NSTemporaryDirectory() + "gym-parallel-check-" + UUID().uuidString + ".sqlite"
    try DatabaseQueue(path: path).write { db in
      try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, amount REAL CHECK (amount >= 0))")
      try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
      for n in rowids {
        try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [n, broken.contains(n) ? -1.0 : 1.0])
      }
      try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
    }
    return path
  }

  /// Rowids anywhere in 64 bits: a span past Int64.max (Int64.min to Int64.max) is scanned whole,
  /// and the ranges of 1 to Int64.max end at Int64.max without going past it.
  static let farRowids: [([Int64], Int64)] = [
    ([Int64.min, 0, Int64.max], Int64.max),
    ([Int64.min, 0, Int64.max], Int64.min),
    ([1, 2, Int64.max], Int64.max),
    ([1, 2, Int64.max], 2),
    ([Int64.min, Int64.min + 1, -5], -5),
    ([Int64.max - 1_000, Int64.max - 1, Int64.max], Int64.max - 1),
  ]

  @Test(arguments: farRowids)
  func rowidsAtTheEndsOf64Bits(rowids: [Int64], broken: Int64) throws {
    let path = try database(rowids: rowids, broken: [broken])
    let found = try ParallelCheckScan.firstViolation(path: path, tables: ["t"], workers: 3, rowsPerRange: 100)
    #expect(found?.rowid == broken)
    let clean = try database(rowids: rowids, broken: [])
    #expect(try ParallelCheckScan.firstViolation(path: clean, tables: ["t"], workers: 3, rowsPerRange: 100) == nil)
  }

  /// A range scans only its own rows.
  @Test func aRangeSkipsTheRowsOutsideIt() throws {
    let path = try database(rowids: Array(1...1_000), broken: [500])
    let found = try DatabaseQueue(path: path).read { db in
      try [1...499, 501...1_000, 500...500].map {
        try CheckConstraints.firstViolation(db, table: "t", rowids: $0)?.rowid
      }
    }
    #expect(found == [nil, nil, 500])
  }

  @Test func noRowBreaksACheck() throws {
    let path = try database(brokenInFirst: [], brokenInSecond: [])
    #expect(try scan(path, ["first", "second", "unchecked"]) == nil)
    // One worker, the tables whole.
    #expect(try ParallelCheckScan.firstViolation(path: path, tables: ["first", "second"], workers: 1) == nil)
  }

  @Test func aMissingDatabaseFailsAndATableWithoutChecksIsSkipped() throws {
    let path = try database(brokenInFirst: [], brokenInSecond: [])
    // No CHECKs are read for a table that is not there, so it is skipped, as the one-table scan skips it.
    #expect(try scan(path, ["missing"]) == nil)
    // The file's fault, said as the store says it, not the rows'.
    #expect(throws: StoreError.self) {
      try ParallelCheckScan.firstViolation(path: path + ".absent", tables: ["first"], workers: 2)
    }
  }
}
