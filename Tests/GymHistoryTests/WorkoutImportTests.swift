import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymHistory

@Suite struct WorkoutImportTests {
  let header = "id,completedAt,status,planTitle,focus,durationMinutes,intensity\n"
  let id1 = "0f8fad5b-d9cb-469f-a165-70867728950e"
  let id2 = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

  func run(_ path: String, store: Store?, format: InputFormat? = nil) throws -> ImportCounts {
    try RecordImport(table: WorkoutSchema.table, conflict: .updateChanged(key: "id"), path: path, format: format)
      .run(openStore: store.map { s in { s } }, progress: ProgressLine("test", enabled: false))
  }

  func count(_ store: Store) throws -> Int {
    try store.read { try Query(table: WorkoutSchema.table).count($0) }
  }

  @Test func csvAndNDJSONImportTheSameRows() throws {
    let csv = try HistoryFixtures.file(
      "w.csv",
      header + "\(id1),2026-11-01T10:00:00Z,completed,\"Push, heavy\",push,45,high\r\n"
        + "\(id2),2026-11-02 07:30:00 +0100,skipped,Rest,mobility,0,low\r\n")
    let ndjson = try HistoryFixtures.file(
      "w.ndjson",
      #"""
      {"id":"\#(id1)","completedAt":"2026-11-01T10:00:00Z","status":"completed","planTitle":"Push, heavy","focus":"push","durationMinutes":45,"intensity":"high"}
      {"intensity":"low","id":"\#(id2)","completedAt":"2026-11-02T06:30:00Z","status":"skipped","planTitle":"Rest","focus":"mobility","durationMinutes":0}
      """#)
    let fromCSV = try HistoryFixtures.store()
    let fromJSON = try HistoryFixtures.store()
    #expect(try run(csv, store: fromCSV).inserted == 2)
    #expect(try run(ndjson, store: fromJSON).inserted == 2)
    let dump = { (store: Store) in
      try store.read {
        try Row.fetchAll(
          $0,
          sql: "SELECT id, completedAt, status, planTitle, focus, durationMinutes, intensity FROM workout ORDER BY id")
      }
    }
    #expect(try dump(fromCSV) == dump(fromJSON))
    #expect(try dump(fromCSV)[0]["completedAt"] == "2026-11-01T10:00:00.000Z")
  }

  @Test func reimportingChangesNothingAndIndexesAreRebuilt() throws {
    let store = try HistoryFixtures.store()
    let path = try HistoryFixtures.file("w.csv", header + "\(id1),2026-11-01T10:00:00Z,completed,Push,push,45,high\n")
    #expect(try run(path, store: store).inserted == 1)
    let again = try run(path, store: store)
    #expect(again.unchanged == 1 && again.inserted == 0 && again.updated == 0)
    let indexes = try store.read {
      try String.fetchAll(
        $0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'workout' ORDER BY name")
    }
    #expect(indexes == WorkoutSchema.table.indexes.map(\.name).sorted())
  }

  @Test func aBadRecordImportsNothingAndNamesFileLineAndField() throws {
    let store = try HistoryFixtures.store()
    let path = try HistoryFixtures.file(
      "w.csv",
      header + "\(id1),2026-11-01T10:00:00Z,completed,Push,push,45,high\n"
        + "\(id2),2026-11-02T10:00:00Z,completed,Pull,pull,lots,high\n")
    do {
      _ = try run(path, store: store)
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.status == .dataError)
      #expect(error.message.hasPrefix("\(path):3: field 'durationMinutes': 'lots' is not a number"))
    }
    #expect(try count(store) == 0)
  }

  /// `0x10` is 16 to Swift's number reader, and `inf` infinity; to an import, neither is a duration.
  @Test(arguments: ["0x10", "inf", "nan"]) func aNumberThatIsNotDecimalIsRefused(duration: String) throws {
    let store = try HistoryFixtures.store()
    let path = try HistoryFixtures.file(
      "w.csv", header + "\(id1),2026-11-01T10:00:00Z,completed,Push,push,\(duration),high\n")
    do {
      _ = try run(path, store: store)
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.message.hasPrefix("\(path):2: field 'durationMinutes': '\(duration)' is not a number"))
    }
    #expect(try count(store) == 0)
  }

  @Test func dryRunValidatesWithoutWriting() throws {
    let path = try HistoryFixtures.file(
      "w.json",
      "[{\"id\":\"\(id1)\",\"completedAt\":\"2026-11-01T10:00:00Z\",\"status\":\"completed\",\"planTitle\":\"P\",\"focus\":\"core\",\"durationMinutes\":10,\"intensity\":\"low\"}]"
    )
    #expect(try run(path, store: nil).read == 1)
  }

  @Test func missingFileIsNoInputBeforeAnyDatabaseIsOpened() throws {
    var opened = false
    do {
      _ = try RecordImport(
        table: WorkoutSchema.table, conflict: .updateChanged(key: "id"), path: "/nonexistent/w.csv", format: nil
      )
      .run(
        openStore: {
          opened = true
          return try HistoryFixtures.store()
        }, progress: ProgressLine("test", enabled: false))
    } catch let error as GymError {
      #expect(error.status == .noInput)
    }
    #expect(!opened)
  }

  @Test func csvWithOtherColumnsNamesTheExpectedHeader() throws {
    let path = try HistoryFixtures.file("w.csv", "Date,Workout Name,Duration\n2024-01-01,Legs,1h\n")
    do {
      _ = try run(path, store: try HistoryFixtures.store())
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.status == .dataError)
      #expect(error.message.contains("expected: id,completedAt,status,planTitle,focus,durationMinutes,intensity"))
    }
  }

  @Test func importedValuesCannotInjectSQL() throws {
    let store = try HistoryFixtures.store()
    let evil = "x'); DROP TABLE workout; --"
    let path = try HistoryFixtures.file(
      "w.csv", header + "\(id1),2026-11-01T10:00:00Z,completed,\"\(evil)\",push,45,high\n")
    _ = try run(path, store: store)
    #expect(try store.read { try String.fetchOne($0, sql: "SELECT planTitle FROM workout") } == evil)
  }

  @Test func sampleWorkoutsAreDeterministic() throws {
    var a = WorkoutSampler(seed: 7, end: Timestamp(millisecondsSince1970: 1_800_000_000_000), days: 30)
    var b = WorkoutSampler(seed: 7, end: Timestamp(millisecondsSince1970: 1_800_000_000_000), days: 30)
    for _ in 0..<50 { #expect(a.nextWorkout() == b.nextWorkout()) }
  }
}

@Suite struct WorkoutImportDuplicateTests {
  let header = "id,completedAt,status,planTitle,focus,durationMinutes,intensity\n"
  let id = "0f8fad5b-d9cb-469f-a165-70867728950e"

  func run(_ text: String, into store: Store) throws -> ImportCounts {
    let path = try HistoryFixtures.file("w.csv", text)
    return try RecordImport(table: WorkoutSchema.table, conflict: .updateChanged(key: "id"), path: path, format: nil)
      .run(openStore: { store }, progress: ProgressLine("test", enabled: false))
  }

  @Test(arguments: [false, true])
  func aKeyRepeatedInTheFileKeepsItsLastRecord(tableHasRows: Bool) throws {
    let store = try HistoryFixtures.store()
    if tableHasRows {
      try store.write { try HistoryFixtures.insert($0, at: "2020-01-01T00:00:00.000Z") }
    }
    let text =
      header + "\(id),2026-11-01T10:00:00Z,completed,First,push,45,high\n"
      + "\(id),2026-11-01T10:00:00Z,completed,Second,push,50,high\n"
    let counts = try run(text, into: store)
    #expect(counts.read == 2 && counts.inserted == 1 && counts.updated == 1)
    let titles = try store.read {
      try String.fetchAll($0, sql: "SELECT planTitle FROM workout WHERE id = ?", arguments: [id])
    }
    #expect(titles == ["Second"])
    let indexes = try store.read {
      try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'workout'")
    }
    #expect(Set(indexes) == Set(WorkoutSchema.table.indexes.map(\.name)))
  }

  @Test func aFailedImportIntoAnEmptyTableLeavesItsIndexes() throws {
    let store = try HistoryFixtures.store()
    #expect(throws: GymError.self) { try run(header + "\(id),bad-date,completed,P,push,1,low\n", into: store) }
    let indexes = try store.read {
      try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'workout'")
    }
    #expect(Set(indexes) == Set(WorkoutSchema.table.indexes.map(\.name)))
  }
}
