import Foundation
import GRDB
import GymCLI
import GymCore
import TestTimeZone
import Testing

@testable import GymHistory

@Suite(.serialized) struct SampleQueryTests {
  init() throws { try TestTimeZone.requireUTC() }

  let now = Timestamp(parsing: "2026-11-21T12:30:00Z")!  // a Saturday

  func insert(
    _ db: Database, _ type: SampleType, _ start: String, minutes: Int64 = 0, value: Double,
    stage: SleepStage = .none, source: String = "Watch"
  ) throws {
    let from = Timestamp(parsing: start)!
    try db.execute(
      sql: "INSERT INTO sample (type, start, \"end\", value, unit, stage, source) VALUES (?, ?, ?, ?, ?, ?, ?)",
      arguments: [
        type.rawValue, from.canonical, from.adding(milliseconds: minutes * 60_000).canonical, value, type.unit,
        stage.rawValue, source,
      ])
  }

  @Test func dailySumsAdditiveTypesAndListsEmptyDays() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .steps, "2026-11-21T08:00:00Z", minutes: 60, value: 1000)
      try insert(db, .steps, "2026-11-21T09:00:00Z", minutes: 60, value: 500)
      try insert(db, .steps, "2026-11-19T09:00:00Z", minutes: 60, value: 42)
      try insert(db, .steps, "2026-11-10T09:00:00Z", minutes: 60, value: 7)  // outside
      try insert(db, .heartRate, "2026-11-21T09:00:00Z", value: 80)  // another type
    }
    let days = try store.read { try SampleBuckets.daily($0, type: .steps, days: 3, now: now) }
    #expect(days.map(\.label) == ["2026-11-21", "2026-11-20", "2026-11-19"])
    #expect(days.map(\.count) == [2, 0, 1])
    #expect(days.map(\.sum) == [1500, nil, 42])
  }

  /// Steps are read four weeks at a time: a sample across the edge of two runs (2026-09-28, 28 days
  /// after the first of twelve weeks, 2026-08-31) still counts half in each week.
  @Test func weeklyTotalsAddUpAcrossRuns() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .steps, "2026-09-27T23:00:00Z", minutes: 120, value: 700)
      try insert(db, .steps, "2026-11-17T10:00:00Z", minutes: 60, value: 300)
    }
    let weeks = try store.read {
      try SampleBuckets.weekly($0, series: SampleSeries(.steps), weeks: 12, now: now)
    }
    #expect(weeks.count == 12)
    #expect(weeks.first?.label == "2026-11-16" && weeks.last?.label == "2026-08-31")
    let sums = Dictionary(uniqueKeysWithValues: weeks.map { ($0.label, $0.sum) })
    #expect(sums["2026-09-21"] == 350 && sums["2026-09-28"] == 350 && sums["2026-11-16"] == 300)
    #expect(weeks.compactMap(\.sum).reduce(0, +) == 1000)
  }

  /// A night holds the sleep starting from 18:00 to 18:00 and is named by the date it ends: sleep
  /// either side of midnight is one night.
  @Test func nightsRunSixToSixNamedByTheirEnd() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .sleep, "2026-11-20T23:00:00Z", minutes: 180, value: 180, stage: .asleepCore)
      try insert(db, .sleep, "2026-11-21T02:00:00Z", minutes: 240, value: 240, stage: .asleepDeep)
      // A nap at 11:00, before 18:00: the night that ends on the 20th.
      try insert(db, .sleep, "2026-11-20T11:00:00Z", minutes: 30, value: 30, stage: .asleepCore)
    }
    let nights = try store.read { try SampleBuckets.nightly($0, nights: 2, now: now) }
    #expect(nights.map(\.label) == ["2026-11-21", "2026-11-20"])
    #expect(nights.map(\.sum) == [420, 30])  // 180 + 240; the nap's 30
  }

  @Test func dailyRatesGetMinAverageMax() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      for (time, bpm) in [("08:00", 60.0), ("09:00", 90.0), ("10:00", 75.0)] {
        try insert(db, .heartRate, "2026-11-21T\(time):00Z", value: bpm)
      }
    }
    let today = try #require(try store.read { try SampleBuckets.daily($0, type: .heartRate, days: 1, now: now) }.first)
    #expect(today.min == 60 && today.avg == 75 && today.max == 90 && today.count == 3)
  }

  @Test func hourlyBucketsCoverTheLastHours() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .heartRate, "2026-11-21T12:10:00Z", value: 100)
      try insert(db, .heartRate, "2026-11-21T10:59:00Z", value: 70)
      try insert(db, .heartRate, "2026-11-21T09:59:00Z", value: 50)  // before the 3 hours
    }
    let hours = try store.read { try SampleBuckets.hourly($0, type: .heartRate, hours: 3, now: now) }
    #expect(hours.map(\.label) == ["2026-11-21 12:00", "2026-11-21 11:00", "2026-11-21 10:00"])
    #expect(hours.map(\.count) == [1, 0, 1])
    #expect(hours.map(\.max) == [100, nil, 70])
  }

  @Test func summaryReadsEveryPart() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .steps, "2026-11-21T08:00:00Z", minutes: 60, value: 1200)
      try insert(db, .steps, "2026-11-20T23:00:00Z", minutes: 60, value: 999)  // yesterday
      try insert(db, .heartRate, "2026-11-21T11:00:00Z", value: 70)
      try insert(db, .heartRate, "2026-11-21T12:00:00Z", value: 65)
      for day in 14...20 { try insert(db, .bodyMass, "2026-11-\(day)T07:00:00Z", value: Double(day)) }
      try insert(db, .sleep, "2026-11-20T23:00:00Z", minutes: 90, value: 90, stage: .asleepCore)
      try insert(db, .sleep, "2026-11-21T00:30:00Z", minutes: 30, value: 30, stage: .asleepDeep)
      try insert(db, .sleep, "2026-11-21T01:00:00Z", minutes: 60, value: 60, stage: .asleepCore)
      try insert(db, .sleep, "2026-11-19T23:00:00Z", minutes: 60, value: 60, stage: .asleepREM)  // night before
      // Another app recorded the same night: the watch's night is the one that counts.
      try insert(db, .sleep, "2026-11-20T23:10:00Z", minutes: 400, value: 400, stage: .asleep, source: "AutoSleep")
      try HistoryFixtures.insert(db, at: "2026-11-17T10:00:00.000Z", minutes: 40)  // this week (Mon 16th)
      try HistoryFixtures.insert(db, at: "2026-11-15T10:00:00.000Z", minutes: 50)  // last week
    }
    let summary = try store.read { try HealthSummary.compute($0, now: now) }
    #expect(summary.stepsToday == 1200)
    #expect(summary.latestHeartRate == .init(at: "2026-11-21T12:00:00.000Z", value: 65))
    #expect(summary.bodyMass.map(\.value) == [20, 19, 18, 17, 16])
    #expect(
      summary.lastNightSleep == [.init(stage: "asleepCore", minutes: 150), .init(stage: "asleepDeep", minutes: 30)])
    // The watch's night, its records once each: 90 + 30 + 60 = 180 asleep; no in-bed record: unknown.
    #expect(summary.lastNightAsleep == 180 && summary.lastNightInBed == nil)
    #expect(summary.workoutsThisWeek == 1 && summary.workoutMinutesThisWeek == 40)
    #expect(summary.heartRateByHour.count == HealthSummary.hours)
    #expect(summary.heartRateByHour.first?.label == "2026-11-21 12:00")
  }

  /// One source's overlapping records count once in an hour's sleep, as in the night's: 22:30–02:00
  /// and 22:30–01:00 are 210 minutes, placed at the hour they start (22:00), not 210 + 150.
  @Test func anHoursSleepCountsOverlappingRecordsOnce() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .sleep, "2026-11-20T22:30:00Z", minutes: 210, value: 210, stage: .asleepCore)
      try insert(db, .sleep, "2026-11-20T22:30:00Z", minutes: 150, value: 150, stage: .asleepCore)
    }
    let hours = try store.read { try SampleBuckets.hourly($0, type: .sleep, hours: 16, selection: .standard, now: now) }
    let slept = hours.filter { $0.sum != nil }.map { "\($0.label) \($0.sum!)" }
    #expect(slept == ["2026-11-20 22:00 210.0"])
  }

  /// Records that only touch stay apart, each in the hour it starts: deep sleep 02:15–04:00 is 105
  /// minutes in the 02:00 hour, REM 04:00–06:30 150 in the 04:00 hour (not 255 in the first).
  @Test func touchingRecordsStayInTheirOwnHours() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .sleep, "2026-11-21T02:15:00Z", minutes: 105, value: 105, stage: .asleepDeep)
      try insert(db, .sleep, "2026-11-21T04:00:00Z", minutes: 150, value: 150, stage: .asleepREM)
    }
    let hours = try store.read { try SampleBuckets.hourly($0, type: .sleep, hours: 16, selection: .standard, now: now) }
    let slept = hours.filter { $0.sum != nil }.map { "\($0.label) \($0.sum!) \($0.count)" }
    #expect(slept == ["2026-11-21 04:00 150.0 1", "2026-11-21 02:00 105.0 1"])
  }

  /// A report whose period ends with a nap begun at 20:00 holds that nap's night (the next day's, as
  /// a record's night is the date six hours after it starts), in its table and its chart.
  @Test func theReportsLastNightHoldsAnEveningsSleep() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .sleep, "2026-11-21T20:00:00Z", minutes: 45, value: 45, stage: .asleepCore)
    }
    let end = Timestamp(parsing: "2026-11-21T20:00:00Z")!
    let table = try store.read { try HistoryReport.lastNights($0, selection: .standard, now: end) }
    #expect(table?.rows.map { [$0[0], $0[2]] } == [["2026-11-22", "0 h 45"]])
    let chart = try store.read {
      try HistoryReport.sleepChart(
        $0, days: 7, selection: .standard, since: end.adding(milliseconds: -6 * 86_400_000), now: end)
    }
    // Only the night with sleep is drawn: 45 minutes = 0.75 h, shown to a tenth: 0.8.
    #expect(chart?.points == [.init("2026-11-22", 0.8)])
  }

  /// A period ending at 20:00 with nothing slept yet that evening still shows its last seven nights
  /// with sleep (tonight, empty, takes none of the seven places): nights of 2026-11-15 to 11-21.
  @Test func theReportsLastSevenNightsSkipTonightWhenEmpty() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      for day in 14...20 {
        try insert(db, .sleep, "2026-11-\(day)T23:00:00Z", minutes: 60, value: 60, stage: .asleepCore)
      }
    }
    let end = Timestamp(parsing: "2026-11-21T20:00:00Z")!
    let table = try store.read { try HistoryReport.lastNights($0, selection: .standard, now: end) }
    #expect(table?.rows.map { $0[0] } == (15...21).reversed().map { "2026-11-\($0)" })
  }

  /// The summary as of a time (`--until`): nothing recorded after it; minutes no workout gives and a
  /// night without records are unknown, not 0.
  @Test func theSummaryAsOfATimeShowsNothingLater() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .heartRate, "2026-11-21T10:00:00Z", value: 60)
      try insert(db, .heartRate, "2026-11-21T13:00:00Z", value: 100)  // after now (12:30)
      try insert(db, .bodyMass, "2026-11-21T07:00:00Z", value: 80)
      try insert(db, .bodyMass, "2026-11-21T19:00:00Z", value: 81)  // after now
      try HistoryFixtures.insert(db, at: "2026-11-17T10:00:00.000Z", minutes: nil)  // this week, no duration
      try HistoryFixtures.insert(db, at: "2026-11-21T18:00:00.000Z", minutes: 50)  // this week, after now
    }
    let summary = try store.read { try HealthSummary.compute($0, now: now) }
    #expect(summary.latestHeartRate == .init(at: "2026-11-21T10:00:00.000Z", value: 60))
    #expect(summary.bodyMass.map(\.value) == [80])
    #expect(summary.workoutsThisWeek == 1 && summary.workoutMinutesThisWeek == nil)
    #expect(summary.lastNightAsleep == nil && summary.lastNightInBed == nil && summary.lastNightSleep.isEmpty)
  }

  /// As of 12:30 a sample still running then counts the part before it, as a day counts the part of a
  /// sample inside it: steps 12:00–13:00 (600, 10 a minute) are 30 × 10 = 300 today and in the 12:00
  /// hour; steps from 14:00 count nothing; a nap from 12:00 to 13:00 is 30 minutes of last night's sleep.
  @Test func theSummaryAsOfATimeCountsWhatWasRecordedByThen() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .steps, "2026-11-21T12:00:00Z", minutes: 60, value: 600)
      try insert(db, .steps, "2026-11-21T14:00:00Z", minutes: 60, value: 999)
      try insert(db, .sleep, "2026-11-21T12:00:00Z", minutes: 60, value: 60, stage: .asleepCore)
    }
    let summary = try store.read { try HealthSummary.compute($0, now: now) }
    #expect(summary.stepsToday == 300)
    #expect(summary.stepsByHour.first?.label == "2026-11-21 12:00")
    #expect(summary.stepsByHour.first?.sum == 300)
    #expect(summary.lastNightAsleep == 30)
    #expect(summary.lastNightSleep == [.init(stage: "asleepCore", minutes: 30)])
  }

  /// A day's average lies between its min and max, to a millionth as sums are: one reading of 176.37 lb
  /// (80.000086 kg) is its own min, average and max; 80, 80 and 81 average 241 / 3 = 80.333333.
  @Test func anAverageLiesBetweenItsMinAndMax() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      try insert(db, .bodyMass, "2026-11-21T07:00:00Z", value: 80.000086)
      for (hour, kg) in [(7, 80.0), (8, 80), (9, 81)] {
        try insert(db, .bodyMass, "2026-11-20T0\(hour):00:00Z", value: kg)
      }
    }
    let days = try store.read { try SampleBuckets.daily($0, type: .bodyMass, days: 2, now: now) }
    #expect(days.map(\.label) == ["2026-11-21", "2026-11-20"])
    #expect(days[0].min == 80.000086 && days[0].avg == 80.000086 && days[0].max == 80.000086)
    #expect(days[1].min == 80 && days[1].avg == 80.333333 && days[1].max == 81)
  }

  /// Every query of the summary, daily and recent reads through an index: no table scan.
  @Test func everySummaryQueryUsesAnIndex() throws {
    let store = try HistoryFixtures.store()
    var statements: [String] = []
    try store.read { db in
      db.trace(options: .statement) { event in
        if case .statement(let statement) = event { statements.append(statement.expandedSQL) }
      }
      _ = try HealthSummary.compute(db, now: now)
      _ = try SampleBuckets.daily(db, type: .steps, days: 30, now: now)
      _ = try SampleBuckets.hourly(db, type: .heartRate, hours: 8, now: now)
      db.trace(options: .statement, nil)
    }
    let queries = statements.filter {
      $0.uppercased().contains("FROM SAMPLE") || $0.uppercased().contains("FROM WORKOUT")
    }
    #expect(queries.count >= 9)
    try store.read { db in
      for sql in queries {
        let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
        for line in plan where line.contains(" sample") || line.contains(" workout") {
          #expect(line.hasPrefix("SEARCH"), "\(line) in \(sql)")
        }
      }
    }
  }

  @Test func importingTheSameSamplesTwiceAddsNothing() throws {
    let store = try HistoryFixtures.store()
    var generator = SampleGenerator(seed: 3, end: now, days: 2)
    var lines: [String] = []
    generator.generate { cells in
      var bytes: [UInt8] = [UInt8(ascii: "{")]
      for (i, cell) in cells.enumerated() {
        if i > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes += Array("\"\(SampleSchema.table.fieldNames[i])\":".utf8)
        cell.appendJSON(to: &bytes)
      }
      lines.append(String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self))
    }
    // The same sample twice within the file, too: the first is kept, the second skipped.
    let path = try HistoryFixtures.file("s.ndjson", (lines + [lines[0]]).joined(separator: "\n"))
    let job = RecordImport(table: SampleSchema.table, conflict: SampleSchema.conflict, path: path, format: nil)
    let first = try job.run(openStore: { store }, progress: ProgressLine("t", enabled: false))
    #expect(first.inserted == lines.count && first.unchanged == 1)
    let second = try job.run(openStore: { store }, progress: ProgressLine("t", enabled: false))
    #expect(second.inserted == 0 && second.unchanged == lines.count + 1)
    #expect(try store.read { try Query(table: SampleSchema.table).count($0) } == lines.count)
  }

  /// A sample ending before it starts breaks the table's rule: refused naming the file's line and the
  /// rule, not with SQLite's words, into a new table and into one with rows alike.
  @Test(arguments: [false, true]) func aSampleEndingBeforeItStartsNamesItsLine(tableHasRows: Bool) throws {
    let store = try HistoryFixtures.store()
    let good =
      #"{"type":"steps","start":"2026-11-01T10:00:00Z","end":"2026-11-01T10:05:00Z","value":100,"unit":"count","source":"w"}"#
    let backwards =
      #"{"type":"steps","start":"2026-11-01T11:00:00Z","end":"2026-11-01T10:00:00Z","value":5,"unit":"count","source":"w"}"#
    let job = { (text: String) in
      RecordImport(
        table: SampleSchema.table, conflict: SampleSchema.conflict, path: try HistoryFixtures.file("s.ndjson", text),
        format: nil)
    }
    if tableHasRows { _ = try job(good).run(openStore: { store }, progress: ProgressLine("t", enabled: false)) }
    do {
      _ = try job(good + "\n" + backwards).run(openStore: { store }, progress: ProgressLine("t", enabled: false))
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.message.contains("s.ndjson:2: the record breaks the table's rule CHECK ("), "\(error.message)")
    }
    #expect(try store.read { try Query(table: SampleSchema.table).count($0) } == (tableHasRows ? 1 : 0))
  }

  /// A sample of a type gym knows is in that type's unit, and only sleep has a stage (one of its
  /// stages): a `steps` sample in kg would be summed as steps. Refused naming the line; a type gym
  /// does not know keeps its own unit.
  @Test func aKnownTypeTakesItsUnitAndOnlySleepAStage() throws {
    func sample(_ type: String, _ unit: String, stage: String? = nil, value: String = "5") -> String {
      #"{"type":"\#(type)","start":"2026-11-01T10:00:00Z","end":"2026-11-01T10:05:00Z","value":\#(value),"#
        + #""unit":"\#(unit)","# + (stage.map { #""stage":"\#($0)","# } ?? "") + #""source":"w"}"#
    }
    // A type gym does not know keeps any value (a place below the sea); a known one may be 0.
    let good = [
      sample("steps", "count"), sample("sleep", "min", stage: "asleepREM"), sample("elevation", "m", value: "-3"),
      sample("heartRate", "count/min", value: "-0"),
    ]
    for (bad, message) in [
      (sample("steps", "count", value: "-100"), "field 'value': '-100' is negative, and a steps sample never is"),
      (sample("bodyMass", "kg", value: "-1e-3"), "field 'value': '-1e-3' is negative, and a bodyMass sample never is"),
      (sample("steps", "kg"), "field 'unit': 'kg' is not the unit of steps, which is stored in count"),
      (sample("steps", "count", stage: "asleepREM"), "field 'stage': 'asleepREM' is for sleep only"),
      (sample("sleep", "min", stage: "bogus"), "field 'stage': 'bogus' is not a sleep stage"),
    ] {
      let store = try HistoryFixtures.store()
      var job = RecordImport(
        table: SampleSchema.table, conflict: SampleSchema.conflict,
        path: try HistoryFixtures.file("s.ndjson", (good + [bad]).joined(separator: "\n")), format: nil)
      job.extra = SampleRules()
      do {
        _ = try job.run(openStore: { store }, progress: ProgressLine("t", enabled: false))
        Issue.record("expected an error for \(bad)")
      } catch let error as GymError {
        #expect(error.message.contains("s.ndjson:5: \(message)"), "\(error.message)")
      }
      #expect(try store.read { try Query(table: SampleSchema.table).count($0) } == 0)
    }
    let store = try HistoryFixtures.store()
    var job = RecordImport(
      table: SampleSchema.table, conflict: SampleSchema.conflict,
      path: try HistoryFixtures.file("s.ndjson", good.joined(separator: "\n")), format: nil)
    job.extra = SampleRules()
    #expect(try job.run(openStore: { store }, progress: ProgressLine("t", enabled: false)).inserted == 4)
  }

  @Test func everyDeclaredValuePassesTheTableConstraints() throws {
    let store = try HistoryFixtures.store()
    try store.write { db in
      for type in SampleType.allCases {
        for stage in SleepStage.allCases {
          try insert(db, type, "2026-11-21T08:00:00Z", value: 1, stage: stage, source: "\(type)-\(stage)")
        }
      }
    }
    let stored = try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sample") }
    #expect(stored == SampleType.allCases.count * SleepStage.allCases.count)
  }
}
