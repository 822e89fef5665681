import Foundation
import GRDB
import Testing

/// Two databases exporting into one directory, or to one remote path: each export's manifest names
/// the database it came from (`store`, the database's `store_identity`), and `export prune`, the
/// scheduler, `export status --max-age` and `doctor` judge only their own database's exports and
/// those made before manifests named one.
@Suite struct ExportOwnerTests {
  static func exports(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("gym-export-") }
      .sorted()
  }

  static func manifest(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path + "/manifest.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func identity(of database: String) throws -> String? {
    try DatabaseQueue(path: database).read { try String.fetchOne($0, sql: "SELECT id FROM store_identity") }
  }

  /// nil while the database has no `store_identity` table.
  static func identity(ofUnmigrated database: String) throws -> String? {
    try DatabaseQueue(path: database).read { db in
      try db.tableExists("store_identity") ? String.fetchOne(db, sql: "SELECT id FROM store_identity") : nil
    }
  }

  /// Exports `count` times into `directory` from `database`, a few milliseconds apart (names are
  /// the time to the millisecond); returns the new exports' names, oldest first.
  static func export(_ gym: GymProcess, _ database: String, into directory: String, count: Int) throws -> [String] {
    let before = Set(exports(in: directory))
    for _ in 0..<count {
      let made = try gym.run(["export", "create", "--out", directory, "--no-remote", "-q", "--database", database])
      #expect(made.status == 0, "\(made.stderr)")
      Thread.sleep(forTimeInterval: 0.01)
    }
    return exports(in: directory).filter { !before.contains($0) }
  }

  @Test func eachDatabaseThinsOnlyItsOwnExports() throws {
    let gym = try GymProcess()
    let laptop = gym.databasePath
    let desktop = gym.directory + "/desktop.sqlite"
    try gym.seed(5)
    try gym.seed(3, database: desktop)
    let backups = gym.directory + "/backups"
    let ours = try Self.export(gym, laptop, into: backups, count: 2)
    let theirs = try Self.export(gym, desktop, into: backups, count: 2)
    let legacy = try Self.export(gym, laptop, into: backups, count: 1)
    #expect(ours.count == 2 && theirs.count == 2 && legacy.count == 1)

    // Each manifest names its database: 32 lowercase hexadecimal digits, the database's own, and
    // two databases' are not the same.
    let laptopID = try #require(try Self.identity(of: laptop))
    let desktopID = try #require(try Self.identity(of: desktop))
    #expect(laptopID.count == 32 && laptopID.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(laptopID != desktopID)
    for name in ours + legacy { #expect(try Self.manifest(backups + "/" + name)["store"] as? String == laptopID) }
    for name in theirs { #expect(try Self.manifest(backups + "/" + name)["store"] as? String == desktopID) }

    // The newest of the laptop's, as if made before manifests named a database: its `store` removed.
    let legacyPath = backups + "/" + legacy[0] + "/manifest.json"
    var legacyManifest = try Self.manifest(backups + "/" + legacy[0])
    legacyManifest.removeValue(forKey: "store")
    try JSONSerialization.data(withJSONObject: legacyManifest).write(to: URL(fileURLWithPath: legacyPath))

    // The laptop keeps 1 of its own three (two named, one naming none): the newest, the one naming none.
    // The desktop's two are neither deleted nor counted.
    let laptopPrune = try gym.run(["export", "prune", "--out", backups, "--keep", "1"])
    #expect(laptopPrune.status == 0, "\(laptopPrune.stderr)")
    #expect(laptopPrune.stdoutLines.map(String.init) == ours)
    #expect(laptopPrune.stderr.contains("deleted 2 exports in '\(backups)'; left 2 exports of another database alone"))
    #expect(Self.exports(in: backups) == (theirs + legacy).sorted())

    // The desktop's rules judge its own two and the one naming none: 1 kept of three, the newest
    // (the laptop's unnamed one, made last); its own two go.
    let desktopPrune = try gym.run(["export", "prune", "--out", backups, "--keep", "1", "--database", desktop])
    #expect(desktopPrune.stdoutLines.map(String.init) == theirs, "\(desktopPrune.stderr)")
    #expect(Self.exports(in: backups) == legacy)

    // A third database with no export of its own has no recent backup there, though the directory has one.
    let phone = gym.directory + "/phone.sqlite"
    try gym.seed(2, database: phone)
    let status = try gym.run(["export", "status", "--out", backups, "--max-age", "1h", "--database", phone])
    #expect(status.status == 0, "the unnamed export counts for every database: \(status.stderr)")
    let named = try Self.export(gym, laptop, into: backups, count: 1)
    try FileManager.default.removeItem(atPath: backups + "/" + legacy[0])
    let phoneStatus = try gym.run(["export", "status", "--out", backups, "--max-age", "1h", "--database", phone])
    #expect(phoneStatus.status == 1 && phoneStatus.stderr.contains("no complete, intact export of this database"))
    #expect(try gym.run(["export", "status", "--out", backups, "--max-age", "1h"]).status == 0)
    let doctor = try gym.run(["doctor", "--database", phone], environment: ["GYM_EXPORT_DIRECTORY": backups])
    #expect(doctor.stdout.contains("no complete export of this database in '\(backups)'"), "\(doctor.stdout)")
    #expect(Self.exports(in: backups) == named)

    // Two of the laptop's now. With no database at the path, no export that names one is judged:
    // `--keep 1` deletes nothing (judged as one database's, the older would go).
    let both = named + (try Self.export(gym, laptop, into: backups, count: 1))
    let nowhere = try gym.run(
      ["export", "prune", "--out", backups, "--keep", "1", "--database", gym.directory + "/none.sqlite"])
    #expect(nowhere.status == 0 && nowhere.stdoutLines.isEmpty)
    #expect(nowhere.stderr.contains("deleted 0 exports in '\(backups)'; left 2 exports of another database alone"))
    #expect(!FileManager.default.fileExists(atPath: gym.directory + "/none.sqlite"))
    #expect(Self.exports(in: backups) == both)

    // A database no gym with identities has opened (its identity and that migration's record
    // removed from a copy): the same, and prune neither migrates it nor gives it an identity.
    let older = gym.directory + "/older.sqlite"
    try FileManager.default.copyItem(atPath: laptop, toPath: older)
    try DatabaseQueue(path: older).write { db in
      try db.execute(
        sql: "DROP TABLE store_identity; DELETE FROM grdb_migrations WHERE identifier = 'sync/004-store-identity'")
    }
    let unmigrated = try gym.run(["export", "prune", "--out", backups, "--keep", "1", "--database", older])
    #expect(unmigrated.status == 0 && unmigrated.stdoutLines.isEmpty, "\(unmigrated.stderr)")
    #expect(try Self.identity(ofUnmigrated: older) == nil)
    #expect(Self.exports(in: backups) == both)
  }

  /// The scheduler thins by the same rule: with `--keep 1` its own older export goes after its next
  /// one, and the other database's two stay.
  @Test func theSchedulerThinsOnlyItsOwnExports() throws {
    let gym = try GymProcess()
    let desktop = gym.directory + "/desktop.sqlite"
    try gym.seed(3)
    try gym.seed(3, database: desktop)
    let backups = gym.directory + "/backups"
    let theirs = try Self.export(gym, desktop, into: backups, count: 2)
    let ours = try Self.export(gym, gym.databasePath, into: backups, count: 1)
    let (status, log) = try gym.runUntilLogged(
      ["export", "schedule", "--every", "1h", "--keep", "1", "--out", backups, "--no-remote"],
      marker: " exported gym-export-", count: 1)
    #expect(status == 0, "\(log)")
    #expect(log.contains("; removed \(ours[0])"), "\(log)")
    let now = Self.exports(in: backups)
    #expect(now.count == 3 && Array(now.prefix(2)) == theirs && !now.contains(ours[0]), "\(now)")
  }

  /// On a remote (a local path, which rclone reads as one): four exports a day apart, two named by
  /// this database and two by another; `--keep 1` deletes this database's older one only.
  @Test func aRemoteSharedWithAnotherDatabaseKeepsItsExports() throws {
    let gym = try GymProcess()
    try gym.seed(2)
    let ours = try #require(try Self.identity(of: gym.databasePath))
    let other = String(repeating: "ab", count: 16)
    let remote = gym.directory + "/remote"
    var names: [String] = []
    for (day, store) in [("01", other), ("02", ours), ("03", other), ("04", ours)] {
      let name = "gym-export-202611\(day)T120000.000Z"
      names.append(name)
      try FileManager.default.createDirectory(atPath: remote + "/" + name, withIntermediateDirectories: true)
      let manifest = """
        {"kind":"gym-export","version":1,"gymVersion":"test","created":"2026-11-\(day)T12:00:00.000Z",
        "dataFormat":"ndjson","compression":"gzip","schema":[],"tables":[],"files":[],"store":"\(store)"}
        """
      try Data(manifest.utf8).write(to: URL(fileURLWithPath: remote + "/" + name + "/manifest.json"))
    }
    let arguments = ["export", "prune", "--out", "empty", "--keep", "1", "--remote", remote]
    let dry = try gym.run(arguments + ["--dry-run"])
    #expect(dry.stdoutLines.map(String.init) == [remote + "/" + names[1]], "\(dry.stderr)")
    #expect(dry.stderr.contains("would delete 1 export on \(remote); left 2 exports of another database alone"))
    let real = try gym.run(arguments)
    #expect(real.status == 0, "\(real.stderr)")
    #expect(Self.exports(in: remote) == [names[0], names[2], names[3]])
  }
}
