import Foundation
import Testing

/// Health samples end to end: generate, import, count, daily, recent, summary.
@Suite struct SampleCommandTests {
  @Test func importedSamplesFeedDailyRecentAndSummary() throws {
    let gym = try GymProcess()
    let samples = try gym.run(["history", "samples", "generate", "--days", "3"])
    let lines = samples.stdoutLines.count
    let first = try gym.run(["history", "samples", "import", "-"], stdin: samples.stdout)
    #expect(first.stderr == "imported \(lines) samples: \(lines) inserted, 0 skipped as duplicates\n" + gym.createdNote)
    let again = try gym.run(["history", "samples", "import", "-"], stdin: samples.stdout)
    #expect(again.stderr == "imported \(lines) samples: 0 inserted, \(lines) skipped as duplicates\n")
    #expect(try gym.run(["history", "samples", "count"]).stdout == "\(lines)\n")

    let daily = try gym.run(["history", "daily", "--type", "steps", "--days", "3", "--format", "csv"])
    #expect(daily.stdoutLines.first == "day,count,sum")
    #expect(daily.stdoutLines.count == 4)
    let rates = try gym.run(["history", "daily", "--type", "heartRate", "--days", "2", "--format", "csv"])
    #expect(rates.stdoutLines.first == "day,count,min,avg,max")
    let recent = try gym.run(["history", "recent", "--type", "heartRate", "--hours", "5", "--format", "ndjson"])
    #expect(recent.stdoutLines.count == 5)

    let summary = try gym.run(["history", "summary", "--format", "json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
    #expect((document["heartRateByHour"] as? [Any])?.count == 8)
    // One weighing a morning: two or three in three days, depending on the hour now.
    #expect((2...3).contains((document["bodyMass"] as? [Any])?.count ?? 0))
    #expect(document["stepsToday"] is NSNumber)
    #expect(try gym.run(["history", "summary"]).stdout.contains("last night's sleep"))
  }

  @Test func badSampleTypeIsAUsageError() throws {
    let gym = try GymProcess()
    try gym.seed(1)
    let result = try gym.run(["history", "daily", "--type", "mood"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("steps"))
  }

  /// An import writes in one transaction in WAL mode: readers in other processes keep answering
  /// while it runs, and see the data before or after it, never half. The import reads a pipe fed in
  /// two halves, so it is certainly running (half its rows read) while the readers ask, however
  /// slow the machine.
  @Test func readersAnswerDuringAnImportAndNeverSeeHalf() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    let samples = try gym.run(["history", "samples", "generate", "--days", "500"])
    let lines = samples.stdoutLines
    let total = lines.count
    let half = lines.count / 2

    let run = try readWhileImporting(
      gym, ["history", "samples", "import", "-", "--quiet"], first: lines[..<half].joined(separator: "\n") + "\n",
      rest: lines[half...].joined(separator: "\n") + "\n")
    #expect(run.wasRunning, "the import ended before its input did")
    #expect(run.status == 0)
    #expect(run.seen == ["0", "0", "0"], "readers during the import must see the data before it: \(run.seen)")
    #expect(try gym.run(["history", "samples", "count"]).stdout == "\(total)\n")
  }
}

@Suite struct HealthImportCommandTests {
  let export = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!ATTLIST HealthData locale CDATA #REQUIRED>
    ]>
    <HealthData locale="en_US">
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2024-01-14 09:00:00 -0800" endDate="2024-01-14 10:00:00 -0800" value="1234"/>
     <Record type="HKQuantityTypeIdentifierOxygenSaturation" sourceName="Watch" unit="%" startDate="2024-01-14 09:00:00 -0800" endDate="2024-01-14 09:00:00 -0800" value="0.98"/>
    </HealthData>

    """

  @Test func importsFromStdinAndSummarises() throws {
    let gym = try GymProcess()
    let result = try gym.run(["history", "import-health", "-"], stdin: export)
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "read 2 records: 2 samples inserted, 0 skipped as duplicates, 0 of other types kept as written; workouts 0 inserted, 0 updated, 0 unchanged\n"
        + gym.createdNote
    )
    #expect(try gym.run(["history", "samples", "count", "--type", "steps"]).stdout == "1\n")
    // Health writes saturation as a fraction of one: 0.98 is 98 %.
    let saturation = try gym.run([
      "history", "samples", "list", "--type", "oxygenSaturation", "--format", "csv", "--fields", "value,unit",
    ])
    #expect(saturation.stdoutLines == ["value,unit", "98,%"])
  }

  /// An Apple Health import is one transaction: readers in other processes answer while it runs
  /// (WAL: they never wait for the writer) and see the database as it was before it, never half.
  @Test func readersAnswerDuringAnAppleHealthImportAndNeverSeeHalf() throws {
    let gym = try GymProcess()
    try gym.seed(5)  // the database exists, so readers have one to read while the import runs
    // 3,000 step counts a minute apart from 2024-01-01 00:00: 1,440 a day, over three days.
    let total = 3000
    let records = (0..<total).map { i in
      let start = String(format: "2024-01-%02d %02d:%02d:00 -0800", 1 + i / 1440, i / 60 % 24, i % 60)
      return """
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" \
        startDate="\(start)" endDate="\(start)" value="\(i + 1)"/>
        """
    }
    let head = export.components(separatedBy: " <Record")[0]
    let run = try readWhileImporting(
      gym, ["history", "import-health", "-", "--quiet"],
      first: head + records[..<(total / 2)].joined(separator: "\n") + "\n",
      rest: records[(total / 2)...].joined(separator: "\n") + "\n</HealthData>\n")
    #expect(run.wasRunning, "the import ended before its input did")
    #expect(run.status == 0)
    #expect(run.seen == ["0", "0", "0"], "readers during the import must see the data before it: \(run.seen)")
    #expect(try gym.run(["history", "samples", "count"]).stdout == "\(total)\n")
  }

  @Test func truncatedXMLIs65WithTheLineAndMissingFileIs66() throws {
    let gym = try GymProcess()
    let cut = try gym.run(["history", "import-health", "-"], stdin: String(export.dropLast(16)))
    #expect(cut.status == 65)
    #expect(cut.stderr.hasPrefix("gym: error: <stdin>:"))
    #expect(cut.stderr.contains("nothing was imported"))
    #expect(try gym.run(["history", "samples", "count"]).status == 66)  // and no database was made
    let missing = try gym.run(["history", "import-health", "nope.zip"])
    #expect(missing.status == 66)
  }
}

/// Starts an import reading stdin and feeds it `first`; while it runs, three rounds of reads (a
/// count of samples and the summary, each in a process of its own); then `rest`. Returns what
/// the counts printed, whether the import was still running after the reads, and its status.
private func readWhileImporting(_ gym: GymProcess, _ arguments: [String], first: String, rest: String) throws -> (
  seen: [String], wasRunning: Bool, status: Int32
) {
  let importer = Process()
  importer.executableURL = URL(fileURLWithPath: GymProcess.executable)
  importer.arguments = arguments
  importer.environment = gym.environment
  let input = Pipe()
  importer.standardInput = input
  try importer.run()
  input.fileHandleForWriting.write(Data(first.utf8))
  usleep(300_000)
  var seen: [String] = []
  for _ in 0..<3 {
    let count = try gym.run(["history", "samples", "count"])
    let summary = try gym.run(["history", "summary", "--format", "json"])
    #expect(count.status == 0 && summary.status == 0, "\(count.stderr)\(summary.stderr)")
    seen.append(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
  }
  let wasRunning = importer.isRunning
  input.fileHandleForWriting.write(Data(rest.utf8))
  try input.fileHandleForWriting.close()
  importer.waitUntilExit()
  return (seen, wasRunning, importer.terminationStatus)
}
