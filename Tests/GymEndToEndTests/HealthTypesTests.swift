import Foundation
import GRDB
import Testing

/// Every record type an export holds is kept: the ones gym knows in its units, the others as
/// written; `samples types` lists them, `trend` gives weekly levels, and an export imported before
/// gym kept them all adds only what was skipped then.
@Suite struct HealthTypesTests {
  /// Records on Mondays 5, 12 and 19 January 2026 (UTC), and one type gym does not know.
  static let export = """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_GB">
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2026-01-05 09:00:00 +0000" endDate="2026-01-05 10:00:00 +0000" value="1000"/>
     <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Watch" unit="count/min" startDate="2026-01-05 07:00:00 +0000" endDate="2026-01-05 07:00:00 +0000" value="60"/>
     <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Watch" unit="count/min" startDate="2026-01-07 07:00:00 +0000" endDate="2026-01-07 07:00:00 +0000" value="56"/>
     <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Watch" unit="count/min" startDate="2026-01-13 07:00:00 +0000" endDate="2026-01-13 07:00:00 +0000" value="58"/>
     <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Watch" unit="ms" startDate="2026-01-05 03:00:00 +0000" endDate="2026-01-05 03:01:00 +0000" value="48.5"/>
     <Record type="HKQuantityTypeIdentifierVO2Max" sourceName="Watch" unit="mL/min·kg" startDate="2026-01-12 18:00:00 +0000" endDate="2026-01-12 18:00:00 +0000" value="41.2"/>
     <Record type="HKQuantityTypeIdentifierDietaryWater" sourceName="Water App" unit="L" startDate="2026-01-12 12:00:00 +0000" endDate="2026-01-12 12:00:00 +0000" value="0.5"/>
     <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Watch" startDate="2026-01-19 20:00:00 +0000" endDate="2026-01-19 20:10:00 +0000" value="HKCategoryValueNotApplicable"/>
     <Record type="HKCategoryTypeIdentifierAppleStandHour" sourceName="Watch" startDate="2026-01-19 09:00:00 +0000" endDate="2026-01-19 10:00:00 +0000" value="HKCategoryValueAppleStandHourStood"/>
     <Record type="HKQuantityTypeIdentifierUVExposure" sourceName="Watch" unit="count" startDate="2026-01-19 13:00:00 +0000" endDate="2026-01-19 13:00:00 +0000" value="3"/>
    </HealthData>

    """

  @Test func everyTypeIsKeptListedAndTrended() throws {
    let gym = try GymProcess()
    let path = try gym.write("export.xml", Self.export)
    let imported = try gym.run(["history", "import-health", path])
    #expect(
      imported.stderr.hasPrefix("read 10 records: 10 samples inserted, 0 skipped as duplicates, 2 of other types"))
    let types = try gym.run(["history", "samples", "types", "--format", "csv"])
    #expect(
      types.stdoutLines.dropFirst().map { $0.split(separator: ",").prefix(3).joined(separator: ",") } == [
        "appleStandHour,min,cumulative", "heartRateVariability,ms,rate", "mindfulMinutes,min,cumulative",
        "restingHeartRate,count/min,rate", "steps,count,cumulative", "uvExposure,count,rate", "vo2Max,ml/kg/min,rate",
        "water,ml,cumulative",
      ])
    let stood = try gym.run([
      "history", "samples", "list", "--type", "appleStandHour", "--format", "csv", "--fields", "value,stage",
    ])
    #expect(stood.stdoutLines == ["value,stage", "60,appleStandHourStood"])
    // Weeks of 5 and 12 January: resting heart rate 60 and 56 (min 56, avg 58, max 60), then 58.
    let weeks = Int(Date().timeIntervalSince(Date(timeIntervalSince1970: 1_767_571_200)) / 604_800) + 2
    let trend = try gym.run([
      "history", "trend", "--type", "restingHeartRate", "--weeks", String(weeks), "--format", "csv",
    ])
    #expect(trend.status == 0, "\(trend.stderr)")
    let rows = trend.stdoutLines.filter { $0.hasPrefix("2026-01-05") || $0.hasPrefix("2026-01-12") }
    // Machine formats name a week by its local start with the offset (TZ=UTC here).
    #expect(rows == ["2026-01-12T00:00:00+00:00,1,58,58,58", "2026-01-05T00:00:00+00:00,2,56,58,60"])
    let water = try gym.run(["history", "samples", "list", "--type", "water", "--format", "csv", "--fields", "value"])
    #expect(water.stdoutLines == ["value", "500"])
    let unknown = try gym.run(["history", "daily", "--type", "mood"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("no samples of type 'mood'"))
    // A type named as `samples import` stores it, a space in it, is one the commands take.
    let spaced =
      #"{"type":"my type","start":"2026-11-20T10:00:00Z","end":"2026-11-20T10:01:00Z","value":3,"unit":"cnt","source":"s"}"#
    #expect(try gym.run(["history", "samples", "import", "-"], stdin: spaced + "\n").status == 0)
    let listed = try gym.run([
      "history", "samples", "list", "--type", "my type", "--format", "csv", "--fields", "type,value",
    ])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdoutLines == ["type,value", "my type,3"])
  }

  /// A database from before history/008 holds the steps an earlier gym imported, and none of the
  /// types it skipped: importing the same export again adds exactly those.
  @Test func reimportingAnOldExportAddsOnlyWhatWasSkipped() throws {
    let gym = try GymProcess()
    let up = try gym.run(["migrate", "up", "--to", "history/007-workout-unknown-values-and-totals"])
    #expect(up.status == 0, "\(up.stderr)")
    try DatabaseQueue(path: gym.databasePath).write { db in
      try db.execute(
        sql: """
          INSERT INTO sample (type, start, "end", value, unit, stage, source) VALUES
            ('steps', '2026-01-05T09:00:00.000Z', '2026-01-05T10:00:00.000Z', 1000, 'count', 'none', 'Watch'),
            ('restingHeartRate', '2026-01-05T07:00:00.000Z', '2026-01-05T07:00:00.000Z', 60, 'count/min', 'none', 'Watch'),
            ('restingHeartRate', '2026-01-07T07:00:00.000Z', '2026-01-07T07:00:00.000Z', 56, 'count/min', 'none', 'Watch'),
            ('restingHeartRate', '2026-01-13T07:00:00.000Z', '2026-01-13T07:00:00.000Z', 58, 'count/min', 'none', 'Watch')
          """)
    }
    let path = try gym.write("export.xml", Self.export)
    let imported = try gym.run(["history", "import-health", path])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stderr.contains("\nread 10 records: 6 samples inserted, 4 skipped as duplicates"), "\(imported.stderr)")
    #expect(try gym.run(["history", "samples", "count"]).stdout == "10\n")
  }
}
