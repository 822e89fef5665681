import Foundation
import GRDB
import Testing

/// Each kind of bad input: a one-line error on stderr, its own exit code, nothing written.
@Suite struct BadInputTests {
  func expectOneLineError(_ result: GymProcess.Result, _ status: Int32, contains text: String) {
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("gym: error: "))
    #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
    #expect(result.stderr.contains(text), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test func malformedNDJSONNamesFileLineAndFieldAndImportsNothing() throws {
    let gym = try GymProcess()
    let good = try gym.run(["history", "sample", "--count", "3"]).stdout
    let path = try gym.write("w.ndjson", good + #"{"id":"x","completedAt":"2026-01-01"}"# + "\n")
    expectOneLineError(try gym.run(["history", "import", path]), 65, contains: "w.ndjson:4: field 'id'")
    // Nothing imported, and nothing made: the database did not exist, and still does not.
    #expect(try gym.run(["history", "count"]).status == 66)
  }

  /// The file is parsed on a second thread ahead of the writer: a record the writer refuses (line
  /// 600) is still the error reported when the parser has already met a broken line further on (900),
  /// batches apart, and nothing is imported.
  @Test func theFirstProblemInTheFileIsTheOneReported() throws {
    let gym = try GymProcess()
    var lines = try gym.run(["history", "sample", "--count", "1000"]).stdout.split(separator: "\n").map(String.init)
    lines[599] = lines[599].replacingOccurrences(of: #""status":"completed""#, with: #""status":"maybe""#)
      .replacingOccurrences(of: #""status":"skipped""#, with: #""status":"maybe""#)
    lines[899] = #"{"id" 1}"#
    let path = try gym.write("w.ndjson", lines.joined(separator: "\n") + "\n")
    expectOneLineError(try gym.run(["history", "import", path]), 65, contains: "w.ndjson:600: field 'status'")
    // Nothing imported, and nothing made: the database did not exist, and still does not.
    #expect(try gym.run(["history", "count"]).status == 66)
    // And the broken line alone, once the refused record is fixed.
    lines[599] = try gym.run(["history", "sample", "--count", "1", "--seed", "99"]).stdout.trimmingCharacters(
      in: .newlines)
    let second = try gym.write("w2.ndjson", lines.joined(separator: "\n") + "\n")
    expectOneLineError(try gym.run(["history", "import", second]), 65, contains: "w2.ndjson:900:")
  }

  @Test func malformedCSVNamesTheLine() throws {
    let gym = try GymProcess()
    let good = try gym.run(["history", "sample", "--count", "2", "--format", "csv"]).stdout
    let path = try gym.write("w.csv", good + "a,b\r\n")
    expectOneLineError(try gym.run(["history", "import", path]), 65, contains: "w.csv:4: the record has 2 fields")
  }

  @Test func unknownWhereFieldIsAUsageErrorListingFields() throws {
    let gym = try GymProcess()
    let result = try gym.run(["history", "list", "--where", "minutes > 3"])
    expectOneLineError(result, 64, contains: "unknown field 'minutes'; valid fields: id, completedAt, status")
  }

  @Test func wrongEnumValueListsAllowedValues() throws {
    let gym = try GymProcess()
    let result = try gym.run(["history", "count", "--where", #"focus == "arms""#])
    expectOneLineError(
      result, 64, contains: "allowed: fullBody, upper, lower, push, pull, legs, core, cardio, mobility")
    let flag = try gym.run(["history", "list", "--status", "done"])
    #expect(flag.status == 64)
  }

  @Test func unknownFieldsFlagIsAUsageError() throws {
    let gym = try GymProcess()
    expectOneLineError(try gym.run(["history", "list", "--fields", "id,bogus"]), 64, contains: "unknown field 'bogus'")
  }

  @Test func unreadableInputFileIs66() throws {
    let gym = try GymProcess()
    expectOneLineError(try gym.run(["history", "import", "missing.csv"]), 66, contains: "cannot read 'missing.csv'")
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath), "no database was created for a failed import")
  }

  /// A directory given as the file is 66 (no input) for every importer; stdin that cannot be read (closed)
  /// is 74, an error of the system, not of the data (65). Nothing is created either way.
  @Test func aDirectoryOrAClosedStdinIsNoBadData() throws {
    let gym = try GymProcess()
    let folder = gym.directory + "/exports"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for command in [
      ["history", "import"], ["history", "import-health"], ["history", "samples", "import"], ["staples", "import"],
      ["library", "import", "goodreads"],
    ] {
      expectOneLineError(try gym.run(command + [folder]), 66, contains: "is a directory")
    }
    for command in ["history import", "history import-health", "staples import"] {
      let closed = try gym.run(["-c", "exec \"$0\" \(command) - <&-", GymProcess.executable], executable: "/bin/sh")
      #expect(closed.status == 74, "\(command): \(closed.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
  }

  /// A negative limit is told as one (not as a missing value: `-1` looked like an option); a file
  /// saved as UTF-16 is told to be converted, not called binary; 1e308 in a Health record is told as
  /// the number it is, never as 'inf'.
  @Test func valuesAreToldAsWhatTheyAre() throws {
    let gym = try GymProcess()
    expectOneLineError(
      try gym.run(["history", "list", "--limit", "-1"]), 64, contains: "--limit must be 0 (no limit) or more")
    var utf16 = Data([0xFF, 0xFE])
    utf16.append("completedAt,planTitle\n2026-01-01T10:00:00Z,Run\n".data(using: .utf16LittleEndian)!)
    let path = gym.directory + "/utf16.csv"
    try utf16.write(to: URL(fileURLWithPath: path))
    expectOneLineError(
      try gym.run(["history", "import", path]), 65, contains: "this file is UTF-16, and gym reads UTF-8")
    let health = """
      <?xml version="1.0"?>
      <HealthData>
      <Record type="HKQuantityTypeIdentifierStepCount" unit="count" sourceName="X" startDate="2024-01-14 10:00:00 +0000" endDate="2024-01-14 10:10:00 +0000" value="100"/>
      <Record type="HKQuantityTypeIdentifierFooBar" unit="count" sourceName="X" startDate="2024-01-14 10:00:00 +0000" endDate="2024-01-14 10:00:00 +0000" value="1e308"/>
      </HealthData>
      """
    let result = try gym.run(["history", "import-health", try gym.write("export.xml", health)])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("export.xml:4: skipped") && !result.stderr.contains("'inf'"), "\(result.stderr)")
    #expect(result.stderr.contains("0 of other types"), "\(result.stderr)")
  }

  /// An export that meets the file size limit (`ulimit -f`, SIGXFSZ ignored as a shell may) is 74,
  /// names where it was writing, and leaves nothing there.
  @Test func anExportPastTheFileSizeLimitNamesWhereItWrote() throws {
    let gym = try GymProcess()
    try gym.seed(3000)
    let out = gym.directory + "/exports"
    let result = try gym.run(
      [
        "-c",
        "import os, resource, signal, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (50000, 50000)); "
          + "signal.signal(signal.SIGXFSZ, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])",
        GymProcess.executable, "export", "--out", out,
      ], executable: "/usr/bin/python3")
    expectOneLineError(result, 74, contains: "cannot write the export in '\(out)'")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
  }

  @Test func databaseDirectoryThatCannotBeCreatedIs73() throws {
    let gym = try GymProcess()
    let blocker = try gym.write("file", "x")
    let result = try gym.run(["library", "add", "Dune", "--database", blocker + "/sub/gym.sqlite"])
    expectOneLineError(result, 73, contains: "cannot create the database")
  }

  @Test func aFileThatIsNotSQLiteIsRefusedAndUntouched() throws {
    let gym = try GymProcess()
    let path = try gym.write("notes.txt", "dear diary\n")
    expectOneLineError(try gym.run(["history", "list", "--database", path]), 65, contains: "is not an SQLite database")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "dear diary\n")
  }

  @Test func busyDatabaseIs75() throws {
    let gym = try GymProcess()
    try gym.seed(1)
    let holder = try DatabasePool(path: gym.databasePath)
    try holder.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      defer { try? db.execute(sql: "ROLLBACK") }
      let result = try gym.run(
        ["history", "add", "--plan-title", "P", "--focus", "core", "--duration", "5"],
        environment: ["GYM_DATABASE_BUSY_TIMEOUT": "100"])
      expectOneLineError(result, 75, contains: "is busy")
      // Readers still answer while the writer holds its lock.
      #expect(try gym.run(["history", "count"]).stdout == "1\n")
    }
  }

  @Test func configurationErrorsAre78WithLineAndColumn() throws {
    let gym = try GymProcess()
    let path = try gym.write("gym.yaml", "version: 1\noutput:\n  format: xml\n")
    expectOneLineError(try gym.run(["history", "list"]), 78, contains: "\(path):3:11: 'output.format' must be one of")
    let typo = try gym.write("bad.yaml", "version: 1\ndatabase:\n  timeout: 3\n")
    expectOneLineError(
      try gym.run(["history", "list", "--config", typo]), 78, contains: "bad.yaml:3:3: unknown key 'database.timeout'")
    // A directory given as the file is told as one.
    expectOneLineError(
      try gym.run(["history", "list", "--config", gym.directory]), 78,
      contains: "is a directory; give the configuration file")
  }

  @Test func injectionAttemptsAreInert() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    let attempts = [
      ["history", "list", "--where", #"planTitle == "x' OR 1=1; DROP TABLE workout; --""#],
      ["history", "list", "--fields", #"id,"status"; DROP TABLE workout; --"#],
      ["history", "show", "' OR '1'='1"],
    ]
    for arguments in attempts { _ = try gym.run(arguments) }
    #expect(try gym.run(["history", "count"]).stdout == "5\n")
  }
}

@Suite struct ConstraintTests {
  @Test func addingAnExistingIdIsABadInputErrorAndChangesNothing() throws {
    let gym = try GymProcess()
    let id = "0f8fad5b-d9cb-469f-a165-70867728950e"
    let add = ["history", "add", "--plan-title", "P", "--focus", "core", "--duration", "5", "--id", id]
    #expect(try gym.run(add).status == 0)
    let again = try gym.run(add)
    #expect(again.status == 65)
    #expect(again.stderr.contains("--id: a workout with id \(id) is already recorded"), "\(again.stderr)")
    #expect(try gym.run(["history", "count"]).stdout == "1\n")
  }
}
