import Foundation
import Testing
import ZIPFoundation

/// Apple Health exports as phones write them, through the binary: the `.zip` on standard input,
/// the XML named in the phone's language beside `export_cda.xml`, and a paused workout whose
/// totals are in `<WorkoutStatistics>`.
@Suite struct HealthExportTests {
  static let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
    ]>
    <HealthData locale="es_ES">
     <ExportDate value="2024-03-06 09:00:00 +0100"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="28.81" durationUnit="min" sourceName="Reloj" startDate="2024-03-05 07:00:00 +0100" endDate="2024-03-05 07:35:00 +0100">
      <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-03-05 07:00:00 +0100" endDate="2024-03-05 07:35:00 +0100" sum="1046" unit="kJ"/>
      <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2024-03-05 07:00:00 +0100" endDate="2024-03-05 07:35:00 +0100" sum="5210" unit="m"/>
     </Workout>
     <Workout workoutActivityType="HKWorkoutActivityTypeTraditionalStrengthTraining" duration="3000" durationUnit="s" totalEnergyBurned="200" totalEnergyBurnedUnit="kcal" sourceName="Reloj" startDate="2024-03-06 18:00:00 +0100" endDate="2024-03-06 18:50:00 +0100"/>
    </HealthData>

    """

  /// A zip like the Spanish Health app's: the clinical document first, the export as `exportar.xml`.
  static func zip(in directory: String) throws -> Data {
    let path = directory + "/exportar-\(UUID().uuidString).zip"
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
    let entries = [
      ("apple_health_export/export_cda.xml", "<?xml version=\"1.0\"?>\n<ClinicalDocument></ClinicalDocument>\n"),
      ("apple_health_export/exportar.xml", xml),
    ]
    for (name, text) in entries {
      let data = Data(text.utf8)
      try archive.addEntry(
        with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
      ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
    }
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  @Test func theZipOnStandardInputWithItsExportNamedInSpanish() throws {
    let gym = try GymProcess()
    let imported = try gym.run(["history", "import-health", "-"], stdinBytes: try Self.zip(in: gym.directory))
    #expect(imported.status == 0, "\(imported.stderr)")
    let fields = "completedAt,planTitle,focus,intensity,durationMinutes,distanceKm,activeEnergyKcal"
    let listed = try gym.run(["history", "list", "--format", "csv", "--fields", fields])
    // Ends at endDate (07:35 +0100 = 06:35Z), though only 28.81 of its 35 minutes ran; 1046 kJ is
    // 1046 / 4.184 = 250 kcal; 5210 m is 5.21 km. Strength training names no focus: unknown.
    #expect(
      listed.stdoutLines == [
        Substring(fields),
        "2024-03-06T17:50:00.000Z,Traditional Strength Training,,,50,,200",
        "2024-03-05T06:35:00.000Z,Running,cardio,,28.81,5.21,250",
      ])
    let again = try gym.run(["history", "import-health", "-"], stdinBytes: try Self.zip(in: gym.directory))
    #expect(again.stderr.contains("workouts 0 inserted, 0 updated, 2 unchanged"), "\(again.stderr)")
    #expect(try gym.run(["history", "count"]).stdout == "2\n")
  }

  @Test func aZipWithNoHealthDataDocumentIsNoInput() throws {
    let gym = try GymProcess()
    let path = gym.directory + "/other.zip"
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
    let data = Data("<?xml version=\"1.0\"?>\n<ClinicalDocument/>\n".utf8)
    try archive.addEntry(with: "apple_health_export/export_cda.xml", type: .file, uncompressedSize: Int64(data.count)) {
      position, size in data.subdata(in: Int(position)..<Int(position) + size)
    }
    let result = try gym.run(
      ["history", "import-health", "-"], stdinBytes: try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(result.status == 66)
    #expect(result.stderr.contains("holds no XML document whose root is <HealthData>"), "\(result.stderr)")
    #expect(result.stderr.filter { $0 == "\n" }.count == 1)
  }

  /// A bad record near the start of a large zipped export, with --strict: the import stops there and says so,
  /// rather than inflating the rest first (the extraction is cancelled), and writes nothing.
  @Test func aBadRecordEarlyInALargeZipStopsTheImport() throws {
    let gym = try GymProcess()
    var xml = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
    xml +=
      #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="W" unit="count" startDate="soon" endDate="2024-01-01 10:00:00 +0000" value="1"/>"#
      + "\n"
    let good =
      #" <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:00:00 +0000" value="60"/>"#
      + "\n"
    xml += String(repeating: good, count: 200_000) + "</HealthData>\n"
    let path = gym.directory + "/big.zip"
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
    let data = Data(xml.utf8)
    try archive.addEntry(
      with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(data.count),
      compressionMethod: .deflate
    ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
    let result = try gym.run(["history", "import-health", path, "--strict"])
    #expect(result.status == 65)
    #expect(result.stderr.contains("big.zip:3: startDate 'soon' is not a date"), "\(result.stderr)")
    #expect(try gym.run(["history", "samples", "count"]).status == 66)  // nothing imported, no database made
  }
}
