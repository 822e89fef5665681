import Foundation
import GRDB
import Testing

/// `gym doctor` reads everything gym depends on, changes none of it, and says what to fix.
@Suite struct DoctorTests {
  /// The doctor's findings as check → result, from its CSV.
  func findings(_ result: GymProcess.Result) -> [String: String] {
    var found: [String: String] = [:]
    for line in result.stdoutLines.dropFirst() {
      let fields = line.split(separator: ",", maxSplits: 2).map(String.init)
      found[fields[0]] = fields[1]
    }
    return found
  }

  @Test func aHealthyDatabaseWithAnExportIsAllOK() throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let exports = gym.directory + "/exports"
    _ = try gym.write("gym.yaml", "version: 1\nexport:\n  directory: \(exports)\n")
    #expect(try gym.run(["export"]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: gym.databasePath))
    let result = try gym.run(["doctor", "--format", "csv"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      findings(result) == [
        "configuration": "ok", "integrity": "ok", "schema": "ok", "values": "ok", "exercises": "ok",
        "future samples": "ok", "wal": "ok", "backups": "ok", "exports": "ok",
      ])
    #expect(try Data(contentsOf: URL(fileURLWithPath: gym.databasePath)) == before)
  }

  /// What every command refuses is a problem to the doctor too, never "integrity ok": an SQLite
  /// database gym did not create (a note table) and a file that is no database (`/dev/null`, text).
  @Test func whatEveryCommandRefusesIsAProblem() throws {
    let gym = try GymProcess()
    let foreign = gym.directory + "/notes.sqlite"
    try DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE notes (x)") }
    let text = try gym.write("notes.txt", "my notes\n")
    for (path, refusal) in [
      (foreign, "did not create"), ("/dev/null", "not an SQLite database"), (text, "not an SQLite database"),
    ] {
      #expect(try gym.run(["--database", path, "history", "count"]).status == 65)
      let result = try gym.run(["--database", path, "doctor", "--format", "csv"])
      #expect(result.status == 1, "\(path): \(result.stdout)")
      #expect(result.stdout.contains(refusal), "\(path): \(result.stdout)")
      #expect(!result.stdout.contains("migration(s) pending"), "\(path): \(result.stdout)")
    }
  }

  /// The newest complete export ten days old is a note with its age; the doctor still passes.
  @Test func anExportAWeekOldIsNoted() throws {
    let gym = try GymProcess()
    try gym.seed(2)
    let exports = gym.directory + "/exports"
    _ = try gym.write("gym.yaml", "version: 1\nexport:\n  directory: \(exports)\n")
    #expect(try gym.run(["export"]).status == 0)
    let export = try #require(try FileManager.default.contentsOfDirectory(atPath: exports).first)
    let manifestPath = exports + "/" + export + "/manifest.json"
    var manifest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
    // Ten days of 86,400,000 ms before now.
    let tenDaysAgo = Date().addingTimeInterval(-10 * 86_400)
    manifest["created"] = ISO8601DateFormatter().string(from: tenDaysAgo)
    try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
    let result = try gym.run(["doctor", "--format", "csv"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(findings(result)["exports"] == "note", "\(result.stdout)")
    #expect(result.stdout.contains("the newest complete export is 10 days old"), "\(result.stdout)")
  }

  /// Samples dated ahead of now (a watch whose clock was wrong) are a note naming the source and how
  /// many; the doctor still passes.
  @Test func samplesInTheFutureAreNoted() throws {
    let gym = try GymProcess()
    let samples = [
      #"{"type":"steps","start":"2099-01-01T10:00:00Z","end":"2099-01-01T11:00:00Z","value":5,"unit":"count","stage":"none","source":"Old Watch"}"#,
      #"{"type":"steps","start":"2099-01-02T10:00:00Z","end":"2099-01-02T11:00:00Z","value":6,"unit":"count","stage":"none","source":"Old Watch"}"#,
      #"{"type":"steps","start":"2020-01-01T10:00:00Z","end":"2020-01-01T11:00:00Z","value":7,"unit":"count","stage":"none","source":"Phone"}"#,
    ]
    #expect(
      try gym.run(["history", "samples", "import", "-"], stdin: samples.joined(separator: "\n") + "\n").status == 0)
    let result = try gym.run(["doctor", "--format", "csv"])
    #expect(findings(result)["future samples"] == "note", "\(result.stdout)")
    // Two of the three, both from Old Watch, the first on 2099-01-01.
    #expect(
      result.stdout.contains("2 samples start more than a day from now ('Old Watch' 2 from 2099-01-01T10:00:00.000Z)"))
  }

  /// Export settings every export would be refused for (a low-order recipient, a remote rclone
  /// would read as a flag) are a problem; a usable recipient passes.
  @Test func exportSettingsThatFailEveryExportAreAProblem() throws {
    let gym = try GymProcess()
    try gym.seed(1)
    for environment in [
      ["GYM_EXPORT_RECIPIENTS": EncryptionFailsClosedTests.lowOrder], ["GYM_EXPORT_REMOTE": "-x"],
    ] {
      let result = try gym.run(["doctor", "--format", "csv"], environment: environment)
      #expect(result.status == 1, "\(environment): \(result.stdout)")
      #expect(findings(result)["export settings"] == "problem", "\(result.stdout)")
    }
    let fine = try gym.run(
      ["doctor", "--format", "csv"], environment: ["GYM_EXPORT_RECIPIENTS": EncryptionFailsClosedTests.recipient])
    #expect(findings(fine)["export settings"] == nil, "\(fine.stdout)")
  }

  @Test func anInterruptedRestoreAndAMissingDatabaseAreProblemsWithTheFix() throws {
    let gym = try GymProcess()
    try gym.seed(1)
    #expect(FileManager.default.createFile(atPath: gym.databasePath + ".restoring", contents: Data("x".utf8)))
    // Cut short before anything was replaced: the database is as it was, and `mv` would overwrite it.
    let early = try gym.run(["doctor", "--format", "csv"])
    #expect(early.status == 1)
    #expect(findings(early)["restore"] == "problem")
    #expect(early.stdout.contains("remove it with 'rm \(gym.databasePath).restoring'"), "\(early.stdout)")
    #expect(!early.stdout.contains("mv "))
    // Cut short after the database was moved aside: finish it.
    try FileManager.default.moveItem(atPath: gym.databasePath, toPath: gym.databasePath + ".replaced-20261128T000000Z")
    let interrupted = try gym.run(["doctor", "--format", "csv"])
    #expect(interrupted.status == 1)
    #expect(findings(interrupted)["restore"] == "problem")
    #expect(interrupted.stdout.contains("finish it with 'mv \(gym.databasePath).restoring \(gym.databasePath)'"))
    // No import makes a new database there meanwhile, which that `mv` would overwrite.
    let samples = try gym.write("w.ndjson", try gym.run(["history", "sample", "--count", "3"]).stdout)
    let imported = try gym.run(["history", "import", samples])
    #expect(imported.status != 0 && imported.stderr.contains("restor"), "\(imported.stderr)")
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))

    let missing = gym.directory + "/none.sqlite"
    let none = try gym.run(["doctor", "--format", "csv", "--database", missing])
    #expect(none.status == 1)
    #expect(findings(none)["database"] == "problem")
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  /// A restore cut short after it gave the database its second name (the `.replaced-` name, a hard
  /// link): doctor names both to remove, and the database is as it was. The newest of two files
  /// replaced in one second is the one with milliseconds; a relative path is named as given.
  @Test func aRestoreCutShortAfterTheLinkAndTheNewestReplacedFile() throws {
    var gym = try GymProcess()
    try gym.seed(1)
    gym.environment["GYM_DATABASE"] = "gym.sqlite"  // relative to the working directory
    let link = gym.directory + "/gym.sqlite.replaced-20261128T083022Z"
    #expect(Foundation.link(gym.directory + "/gym.sqlite", link) == 0)
    #expect(FileManager.default.createFile(atPath: gym.directory + "/gym.sqlite.restoring", contents: Data("x".utf8)))
    let cut = try gym.run(["doctor", "--format", "csv"])
    #expect(cut.status == 1)
    #expect(
      cut.stdout.contains(
        "remove it and the database's second name with 'rm gym.sqlite.restoring gym.sqlite.replaced-20261128T083022Z'"),
      "\(cut.stdout)")
    // Put right as told: two files replaced in one second, the later one to the millisecond.
    unlink(gym.directory + "/gym.sqlite.restoring")
    unlink(link)
    for name in ["gym.sqlite.replaced-20261128T083022Z", "gym.sqlite.replaced-20261128T083022.074Z"] {
      #expect(FileManager.default.createFile(atPath: gym.directory + "/" + name, contents: Data("x".utf8)))
      #expect(FileManager.default.createFile(atPath: gym.directory + "/" + name + "-wal", contents: Data()))
    }
    let kept = try gym.run(["doctor", "--format", "csv"])
    #expect(kept.stdout.contains("kept as gym.sqlite.replaced-20261128T083022.074Z"), "\(kept.stdout)")
    #expect(!kept.stdout.contains("kept as gym.sqlite.replaced-20261128T083022Z"), "\(kept.stdout)")
    #expect(!kept.stdout.contains("-wal"), "\(kept.stdout)")
  }

  /// The copy a restore made before it was stopped (killed, or interrupted while it waited): doctor
  /// names it once no restore holds it, and the next restore removes it.
  @Test func aStoppedRestoresCopyIsNamed() throws {
    let gym = try GymProcess()
    try gym.seed(1)
    // A process id past any the kernel gives (its limit is 2^22).
    let left = gym.databasePath + ".restoring-4242-ABCDEF12.partial"
    #expect(FileManager.default.createFile(atPath: left, contents: Data("x".utf8)))
    // No restore holds it, and it has not changed for two minutes (one younger than a minute may be
    // a restore's copy not yet locked).
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: left)
    let found = try gym.run(["doctor", "--format", "csv"])
    #expect(found.status == 1)
    #expect(found.stdout.contains("remove it with 'rm \(left)'"), "\(found.stdout)")
    let backup = gym.directory + "/backup.sqlite"
    try FileManager.default.copyItem(atPath: gym.databasePath, toPath: backup)
    #expect(try gym.run(["migrate", "restore", backup, "-q"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: left))
  }

  /// Through a symbolic link to the database, doctor looks beside the file it names, where a restore
  /// leaves its files.
  @Test func throughALinkDoctorLooksBesideTheDatabase() throws {
    var gym = try GymProcess()
    try gym.seed(1)
    let link = gym.directory + "/link.sqlite"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: gym.databasePath)
    #expect(FileManager.default.createFile(atPath: gym.databasePath + ".restoring", contents: Data("x".utf8)))
    gym.environment["GYM_DATABASE"] = link
    let found = try gym.run(["doctor", "--format", "csv"])
    #expect(found.status == 1)
    #expect(found.stdout.contains("remove it with 'rm \(gym.directory)/gym.sqlite.restoring'"), "\(found.stdout)")
  }

  /// `config show` prints what a key without a value means, not a blank.
  @Test func configShowPrintsEffectiveDefaults() throws {
    var gym = try GymProcess()
    gym.environment["XDG_DATA_HOME"] = gym.directory + "/data"
    let shown = try gym.run(["config", "show", "--format", "csv"])
    #expect(shown.stdoutLines.contains("export.directory,\(gym.directory)/data/gym/exports,default"))
    #expect(shown.stdoutLines.contains { $0.hasPrefix("time.zone,the system's (") })
    // In JSON a number is a number and a flag a boolean, as the configuration file writes them.
    let json = try gym.run(["config", "show", "--format", "json"], environment: ["GYM_DATABASE_BUSY_TIMEOUT": "250"])
    let items = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
    func value(_ key: String) -> Any? { items.first { $0["key"] as? String == key }?["value"] }
    #expect(value("database.busy_timeout") as? Int == 250)
    #expect(value("output.page_size") as? Int == 20)
    #expect(value("database.auto_migrate") as? Bool == true)
    #expect(value("output.format") as? String == "table")
  }
}
