import Foundation
import GRDB
import GymCLI
import GymCore
import TestTimeZone
import Testing
import ZIPFoundation

@testable import GymHistory

/// Apple Health exports, generated with the real file's quirks: DOCTYPE with an internal DTD,
/// locale units, metadata children, sleep stages, workouts with totals as attributes and children.
@Suite(.serialized) struct AppleHealthImportTests {
  init() throws { try TestTimeZone.requireUTC() }

  static func export(records: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 11 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
    <!ATTLIST HealthData
      locale CDATA #REQUIRED
    >
    <!ATTLIST Record
      type          CDATA #REQUIRED
      unit          CDATA #IMPLIED
    >
    ]>
    <HealthData locale="en_US">
     <ExportDate value="2024-01-15 09:00:00 -0800"/>
     <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
    \(records)
    </HealthData>

    """
  }

  static let records = """
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jane&apos;s iPhone" sourceVersion="17.2" device="&lt;&lt;HKDevice: 0x283&gt;, name:iPhone&gt;" unit="count" creationDate="2024-01-14 10:05:00 -0800" startDate="2024-01-14 09:00:00 -0800" endDate="2024-01-14 10:00:00 -0800" value="1234"/>
     <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="lb" startDate="2024-01-14 07:00:00 -0800" endDate="2024-01-14 07:00:00 -0800" value="165.3">
      <MetadataEntry key="HKWasUserEntered" value="1"/>
     </Record>
     <Record type="HKQuantityTypeIdentifierDistanceWalkingRunning" sourceName="Watch" unit="mi" startDate="2024-01-14 09:00:00 -0800" endDate="2024-01-14 10:00:00 -0800" value="1.5"/>
     <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Watch" unit="kJ" startDate="2024-01-14 09:00:00 -0800" endDate="2024-01-14 10:00:00 -0800" value="418.4"/>
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-01-14 09:30:00 -0800" endDate="2024-01-14 09:30:00 -0800" value="72"/>
     <Record type="HKQuantityTypeIdentifierBodyTemperature" sourceName="Thermo" unit="degF" startDate="2024-01-14 09:00:00 -0800" endDate="2024-01-14 09:00:00 -0800" value="98.6"/>
     <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-01-13 23:10:00 -0800" endDate="2024-01-14 00:40:00 -0800" value="HKCategoryValueSleepAnalysisAsleepCore"/>
     <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-01-14 00:40:00 -0800" endDate="2024-01-14 01:00:00 -0800" value="HKCategoryValueSleepAnalysisAsleepREM"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="32.5" durationUnit="min" totalDistance="3.1" totalDistanceUnit="mi" totalEnergyBurned="310" totalEnergyBurnedUnit="Cal" sourceName="Watch" startDate="2024-01-14 08:00:00 -0800" endDate="2024-01-14 08:33:00 -0800">
      <MetadataEntry key="HKIndoorWorkout" value="0"/>
     </Workout>
     <Workout workoutActivityType="HKWorkoutActivityTypeTraditionalStrengthTraining" duration="45" durationUnit="min" sourceName="Watch" startDate="2024-01-15 18:00:00 -0800" endDate="2024-01-15 18:45:00 -0800">
      <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-01-15 18:00:00 -0800" endDate="2024-01-15 18:45:00 -0800" sum="250" unit="Cal"/>
     </Workout>
    """

  func run(_ path: String, store: Store?, strict: Bool = false) throws -> HealthCounts {
    var job = AppleHealthImport(path: path)
    job.strict = strict
    return try job.run(openStore: store.map { s in { s } }, progress: ProgressLine("t", enabled: false))
  }

  func sample(_ store: Store, _ type: String) throws -> Row? {
    try store.read { try Row.fetchOne($0, sql: "SELECT * FROM sample WHERE type = ?", arguments: [type]) }
  }

  @Test func recordsBecomeSamplesInGymsUnits() throws {
    let store = try HistoryFixtures.store()
    let path = try HistoryFixtures.file("export.xml", Self.export(records: Self.records))
    let counts = try run(path, store: store)
    #expect(counts.records == 8 && counts.samples.inserted == 8 && counts.unknownRecords == 1)
    // A type gym does not know is kept as written: its short name, its unit, its value.
    let temperature = try #require(try sample(store, "bodyTemperature"))
    #expect(temperature["unit"] == "degF")
    #expect(temperature["value"] == 98.6)
    #expect(temperature["stage"] == "none")
    #expect(try sample(store, "steps")?["source"] == "Jane's iPhone")
    #expect(try sample(store, "steps")?["start"] == "2024-01-14T17:00:00.000Z")
    #expect(try sample(store, "bodyMass")?["value"] == 74.978819)
    #expect(try sample(store, "distance")?["value"] == 2.414016)
    #expect(try sample(store, "activeEnergy")?["value"] == 100)
    let sleep = try store.read {
      try Row.fetchAll($0, sql: "SELECT stage, value FROM sample WHERE type = 'sleep' ORDER BY start")
    }
    #expect(sleep.map { $0["stage"] as String } == ["asleepCore", "asleepREM"])
    #expect(sleep.map { $0["value"] as Double } == [90, 20])
  }

  /// Types and units are remembered by their bytes, up to a limit; past it each is worked out
  /// again and still comes out the same. The same unit means a different factor for each type.
  @Test func typesAndUnitsComeOutTheSameCachedOrNot() {
    var cache = RecordTypeCache()
    func type(_ text: String) -> RecordTypeCache.RecordType {
      Array(text.utf8).withUnsafeBufferPointer { cache.type($0) }
    }
    func factor(_ unit: String, _ type: SampleType) -> Double? {
      Array(unit.utf8).withUnsafeBufferPointer { cache.factor(unit: $0, to: type) }
    }
    for round in 1...2 {
      for n in 0..<(RecordTypeCache.limit + 10) {
        let made = type("HKQuantityTypeIdentifierMade\(n)")
        #expect(made.known == nil && made.name == "made\(n)", "round \(round)")
      }
      #expect(type("HKQuantityTypeIdentifierStepCount").known == .steps)
      #expect(type("HKQuantityTypeIdentifierStepCount").name == "steps")
      // 1 lb = 0.45359237 kg exactly; 1 mi = 1.609344 km exactly.
      #expect(factor("lb", .bodyMass) == 0.453_592_37)
      #expect(factor("mi", .distance) == 1.609_344)
      #expect(factor("mL/(kg·min)", .vo2Max) == 1)
      #expect(factor("lb", .distance) == nil)
      #expect(factor("", .bodyMass) == nil)
    }
  }

  /// Sports are `sport` since history/006, and that migration moved exactly the titles they had
  /// been imported with before.
  @Test func sportsHaveTheirOwnFocus() {
    #expect(HealthKitMapping.workout("HKWorkoutActivityTypeSoccer") == ("Soccer", "sport"))
    #expect(HealthKitMapping.workout("HKWorkoutActivityTypeTableTennis") == ("Table Tennis", "sport"))
    // Strength training names no focus gym has (push? legs?): unknown, never a made-up fullBody.
    #expect(HealthKitMapping.workout("HKWorkoutActivityTypeTraditionalStrengthTraining").focus == nil)
    for sport in HealthKitMapping.sports {
      let title = HealthKitMapping.workout("HKWorkoutActivityType" + sport).title
      #expect(WorkoutEvolution.sportFocus.sql.contains("'\(title)'"), "\(title)")
    }
  }

  @Test func typesGymDoesNotKnowKeepAShortName() {
    #expect(HealthKitMapping.shortName("HKQuantityTypeIdentifierUVExposure") == "uvExposure")
    #expect(HealthKitMapping.shortName("HKQuantityTypeIdentifierVO2Max") == "vo2Max")
    #expect(
      HealthKitMapping.shortName("HKQuantityTypeIdentifierEnvironmentalAudioExposure") == "environmentalAudioExposure")
    #expect(HealthKitMapping.shortName("HKCategoryTypeIdentifierAppleStandHour") == "appleStandHour")
    #expect(HealthKitMapping.shortName("HKCategoryValueAppleStandHourStood") == "appleStandHourStood")
    #expect(HealthKitMapping.shortName("HKDataTypeSleepDurationGoal") == "dataTypeSleepDurationGoal")
    #expect(HealthKitMapping.shortName("HK") == "hk")
    #expect(SampleKind.of("uvExposure", unit: "count") == .rate)
    #expect(SampleKind.of("appleStandHour", unit: "min") == .cumulative)
    #expect(SampleKind.of("dietaryProtein", unit: "g") == .cumulative)
    #expect(SampleKind.of("restingHeartRate", unit: nil) == .rate)
  }

  @Test func workoutsBecomeCompletedWorkouts() throws {
    let store = try HistoryFixtures.store()
    let path = try HistoryFixtures.file("export.xml", Self.export(records: Self.records))
    #expect(try run(path, store: store).workouts.inserted == 2)
    let rows = try store.read { try Row.fetchAll($0, sql: "SELECT * FROM workout ORDER BY completedAt") }
    #expect(rows.map { $0["planTitle"] as String } == ["Running", "Traditional Strength Training"])
    #expect(rows.map { $0["focus"] as String? } == ["cardio", nil])
    #expect(rows.map { $0["intensity"] as String? } == [nil, nil])  // Health has no intensity
    #expect(rows.map { $0["durationMinutes"] as Double } == [32.5, 45])
    // The run ends at its endDate (08:33 -0800), not start + duration: it was paused for 30 s.
    #expect(rows[0]["completedAt"] == "2024-01-14T16:33:00.000Z")
    #expect(rows.allSatisfy { $0["status"] == "completed" })
    // Totals: 3.1 mi and 310 Cal as attributes; 250 Cal from <WorkoutStatistics>.
    let runKm: Double = (3.1 * 1.609_344 * 1_000_000).rounded() / 1_000_000
    #expect(rows[0]["distanceKm"] == runKm)
    #expect(rows[0]["activeEnergyKcal"] == 310.0)
    #expect(rows[1]["distanceKm"] == nil as Double?)
    #expect(rows[1]["activeEnergyKcal"] == 250.0)
  }

  @Test func reimportingAddsNothing() throws {
    let store = try HistoryFixtures.store()
    let path = try HistoryFixtures.file("export.xml", Self.export(records: Self.records))
    _ = try run(path, store: store)
    let again = try run(path, store: store)
    #expect(again.samples.inserted == 0 && again.samples.unchanged == 8 && again.workouts.unchanged == 2)
  }

  @Test func readsTheExportInsideItsZip() throws {
    let store = try HistoryFixtures.store()
    let directory = try HistoryFixtures.directory()
    let archive = try Archive(url: URL(fileURLWithPath: directory + "/export.zip"), accessMode: .create)
    let data = Data(Self.export(records: Self.records).utf8)
    try archive.addEntry(
      with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(data.count),
      compressionMethod: .deflate
    ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
    #expect(try run(directory + "/export.zip", store: store).samples.inserted == 8)
  }

  @Test func aZipWithoutTheExportIsNoInput() throws {
    let directory = try HistoryFixtures.directory()
    let archive = try Archive(url: URL(fileURLWithPath: directory + "/other.zip"), accessMode: .create)
    let data = Data("hello".utf8)
    try archive.addEntry(with: "notes.txt", type: .file, uncompressedSize: Int64(data.count)) { position, size in
      data.subdata(in: Int(position)..<Int(position) + size)
    }
    do {
      _ = try run(directory + "/other.zip", store: try HistoryFixtures.store())
      Issue.record("expected an error")
    } catch let error as GymError {
      #expect(error.status == .noInput)
      #expect(error.message.contains("holds no XML document whose root is <HealthData>"))
    }
  }

  /// With `strict`, a record gym cannot read refuses the export; a document that is not whole always does.
  @Test func brokenExportsNameTheLineAndImportNothingWhenStrict() throws {
    let cases: [(String, String)] = [
      (String(Self.export(records: Self.records).dropLast(20)), "is not closed"),
      (
        Self.export(
          records:
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"1\" startDate=\"yesterday\" endDate=\"2024-01-14 10:00:00 -0800\"/>"
        ), "startDate 'yesterday' is not a date"
      ),
      (
        Self.export(
          records:
            "<Record type=\"HKQuantityTypeIdentifierBodyMass\" unit=\"furlong\" value=\"1\" startDate=\"2024-01-14 10:00:00 -0800\" endDate=\"2024-01-14 10:00:00 -0800\"/>"
        ), "unit 'furlong' cannot be converted"
      ),
      // A date alone is no start: never read as its midnight.
      (
        Self.export(
          records:
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"1\" startDate=\"2024-04-03\" endDate=\"2024-04-03 10:00:00 -0800\"/>"
        ), "startDate '2024-04-03' is not a date"
      ),
      // An end before the start: no length is made up for it (a sleep stage of 0 minutes).
      (
        Self.export(
          records:
            "<Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Watch\" startDate=\"2024-01-14 01:00:00 -0800\" endDate=\"2024-01-14 00:40:00 -0800\" value=\"HKCategoryValueSleepAnalysisAsleepREM\"/>"
        ), "<Record> ends (2024-01-14T08:40:00.000Z) before it starts (2024-01-14T09:00:00.000Z)"
      ),
      // A quantity gym does not know is still a quantity: a value that is no number is no stage.
      (
        Self.export(
          records:
            "<Record type=\"HKQuantityTypeIdentifierBloodGlucose\" unit=\"mg/dL\" value=\"ninety\" startDate=\"2024-01-14 10:00:00 -0800\" endDate=\"2024-01-14 10:00:00 -0800\"/>"
        ), "HKQuantityTypeIdentifierBloodGlucose: value 'ninety' is not a number"
      ),
      // Steps below zero would take from a day's total: what gym knows is never negative.
      (
        Self.export(
          records:
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"-100\" startDate=\"2024-01-14 10:00:00 -0800\" endDate=\"2024-01-14 10:05:00 -0800\"/>"
        ), "HKQuantityTypeIdentifierStepCount: value '-100' is negative, and a steps sample never is"
      ),
      // XML has no character U+0000.
      (
        Self.export(
          records:
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Ph&#0;one\" unit=\"count\" value=\"1\" startDate=\"2024-01-14 10:00:00 -0800\" endDate=\"2024-01-14 10:00:00 -0800\"/>"
        ), "'&#0;' is not a character XML allows"
      ),
    ]
    for (text, expected) in cases {
      let store = try HistoryFixtures.store()
      let path = try HistoryFixtures.file("export.xml", text)
      do {
        _ = try run(path, store: store, strict: true)
        Issue.record("expected an error for \(expected)")
      } catch let error as GymError {
        #expect(error.status == .dataError)
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(error.message.contains("export.xml:"), "names the line: \(error.message)")
      }
      #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sample") } == 0)
    }
  }

  /// Without `strict` those records are skipped and told, and the rest of the export is kept.
  @Test func recordsGymCannotReadAreSkippedAndTheRestKept() throws {
    let bad = [
      "<Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Watch\" startDate=\"2024-01-14 01:00:00 -0800\" endDate=\"2024-01-14 00:40:00 -0800\" value=\"HKCategoryValueSleepAnalysisAsleepREM\"/>",
      "<Record type=\"HKQuantityTypeIdentifierBloodGlucose\" unit=\"mg/dL\" value=\"ninety\" startDate=\"2024-01-14 10:00:00 -0800\" endDate=\"2024-01-14 10:00:00 -0800\"/>",
      "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"1\" startDate=\"2024-04-03\" endDate=\"2024-04-03\"/>",
      // Refused, with statistics that must not go to the workout before it (the strength one, which
      // has no distance of its own).
      "<Workout workoutActivityType=\"HKWorkoutActivityTypeYoga\" sourceName=\"Watch\" startDate=\"2024-01-14 09:00:00 -0800\" endDate=\"2024-01-14 08:00:00 -0800\">",
      "<WorkoutStatistics type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" sum=\"5\" unit=\"km\"/>",
      "</Workout>",
    ].joined(separator: "\n")
    let store = try HistoryFixtures.store()
    let path = try HistoryFixtures.file("export.xml", Self.export(records: Self.records + "\n" + bad))
    let counts = try run(path, store: store)
    #expect(counts.skips.count == 4, "\(counts.skips.summary)")
    // The eight good records and two good workouts of `records`, as `recordsBecomeSamplesInGymsUnits` reads them.
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sample") } == 8)
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workout") } == 2)
    let strength = try store.read {
      try Row.fetchOne(
        $0, sql: "SELECT distanceKm FROM workout WHERE focus IS NOT 'cardio' AND planTitle NOT LIKE '%Run%'")
    }
    #expect(strength?["distanceKm"] == nil as Double?)
  }

  /// Records of types gym does not know whose values no import keeps (1e308, 2e12) are skipped and
  /// counted as skipped, not as kept. Of `records`' eight
  /// samples one is of an unknown type (body temperature), kept as written.
  @Test func anUnknownTypesRecordSkippedIsNotCountedAsKept() throws {
    let huge = ["1e308", "2e12"].map { value in
      "<Record type=\"HKQuantityTypeIdentifierFooBar\" unit=\"count\" sourceName=\"X\" startDate=\"2024-01-14 10:00:00 -0800\" endDate=\"2024-01-14 10:00:00 -0800\" value=\"\(value)\"/>"
    }
    let store = try HistoryFixtures.store()
    let path = try HistoryFixtures.file(
      "export.xml", Self.export(records: Self.records + "\n" + huge.joined(separator: "\n")))
    let counts = try run(path, store: store)
    #expect(counts.skips.count == 2, "\(counts.skips.summary)")
    #expect(counts.unknownRecords == 1)
    #expect(counts.samples.inserted == 8)
  }
}
