import Foundation
import GRDB
import Testing

/// `gym migrate` end to end: status, plan, up, verify, backups, restore, and what every command
/// does with a database from a newer gym or with migrations pending.
@Suite struct MigrateCommandTests {
  func execute(_ gym: GymProcess, _ sql: String) throws {
    let queue = try DatabaseQueue(path: gym.databasePath)
    try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
  }

  @Test func statusPlanAndVerifyOnAFreshDatabase() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["migrate", "status"]).status == 66)
    try gym.run(["staples", "seed"])
    let status = try gym.run(["migrate", "status", "--format", "json"])
    let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as! [String: Any]
    let migrations = json["migrations"] as! [[String: Any]]
    #expect(json["version"] as? Int == migrations.count)
    #expect(migrations.allSatisfy { $0["state"] as? String == "applied" })
    #expect(
      (json["modules"] as! [[String: Any]]).map { $0["name"] as! String } == ["history", "library", "staples", "sync"])
    #expect(try gym.run(["migrate", "plan"]).stdout.hasPrefix("nothing to do: schema v"))
    let verify = try gym.run(["migrate", "verify", "--format", "csv"])
    #expect(verify.status == 0)
    #expect(verify.stdoutLines.contains("integrity_check,ok,"))
    #expect(verify.stdoutLines.contains("rows: grocery_item,\(try count(gym, "grocery_item")),"))
  }

  func count(_ gym: GymProcess, _ table: String) throws -> Int {
    try DatabaseQueue(path: gym.databasePath).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table)")! }
  }

  @Test func aDatabaseFromANewerGymIsRefusedByEveryCommand() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    try execute(gym, "INSERT INTO grdb_migrations (identifier) VALUES ('history/999-from-the-future')")
    for arguments in [["history", "list"], ["library", "count"], ["migrate", "up"]] {
      let result = try gym.run(arguments)
      #expect(result.status == 65, "\(arguments)")
      #expect(result.stderr.contains("written by a newer gym (unknown migrations: history/999-from-the-future)"))
    }
    let status = try gym.run(["migrate", "status", "--format", "csv"])
    #expect(status.stdoutLines.contains("history,history/999-from-the-future,,unknown"))
  }

  /// A pending migration that cannot apply (its table is already there): with auto_migrate off a
  /// command says to run `migrate up`; `migrate up` fails naming it, leaves the file as it was,
  /// keeps its backup, and the backup restores.
  @Test func aFailedMigrationIsRolledBackAndTheBackupRestores() throws {
    let gym = try GymProcess()
    try gym.run(["staples", "seed"])
    try execute(gym, "DELETE FROM grdb_migrations WHERE identifier = 'staples/001-items-and-recipes'")
    let off = try gym.run(["staples", "list"], environment: ["GYM_DATABASE_AUTO_MIGRATE": "false"])
    #expect(off.status == 78)
    #expect(
      off.stderr.contains(
        "needs 1 migration(s) (staples/001-items-and-recipes) and database.auto_migrate is off; run 'gym migrate up'"))
    let plan = try gym.run(["migrate", "plan"])
    #expect(plan.stdout.contains("1. staples/001-items-and-recipes  [additive]"))
    #expect(plan.stdout.contains("backup first:"))
    let before = try Data(contentsOf: URL(fileURLWithPath: gym.databasePath))
    let up = try gym.run(["migrate", "up"])
    #expect(up.status == 65)
    #expect(
      up.stderr.contains(
        "migration staples/001-items-and-recipes failed: table grocery_item already exists; the database was left exactly as it was"
      ))
    #expect(up.stderr.contains("gym migrate restore "))
    #expect(try Data(contentsOf: URL(fileURLWithPath: gym.databasePath)) == before)
    let backups = try gym.run(["migrate", "backups", "--format", "csv"])
    #expect(backups.stdoutLines.count == 2)
    let backup = String(backups.stdoutLines[1].split(separator: ",")[0])
    try execute(gym, "DELETE FROM recipe; DELETE FROM grocery_item")
    let restore = try gym.run(["migrate", "restore", backup])
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(restore.stderr.contains("the previous database is kept at"))
    #expect(try count(gym, "grocery_item") > 0)
  }

  @Test func verifyFindsAnOrphan() throws {
    let gym = try GymProcess()
    try gym.run(["staples", "seed"])
    try execute(gym, "PRAGMA foreign_keys = OFF; INSERT INTO recipe_ingredient (recipeSeq, itemSeq) VALUES (1, 999999)")
    let verify = try gym.run(["migrate", "verify"])
    #expect(verify.status == 65)
    #expect(verify.stderr.contains("verification failed: foreign_key_check: recipe_ingredient rowid"))
  }

  /// `migrate restore` on a full disk (a file-size limit smaller than the backup): exit 74, and the
  /// database is still at its path with its rows — the copy is written beside it first. A restore
  /// interrupted between moving the old file aside and putting the copy in place is named by every
  /// command, which refuses to create a new, empty database there.
  @Test func aRestoreThatCannotFinishLeavesTheDatabaseInPlace() throws {
    let gym = try GymProcess()
    _ = try MigrateCrashTests.oldDatabase(gym, workouts: 20_000)
    let up = try gym.run(["migrate", "up"])  // takes the backup to restore
    #expect(up.status == 0, "\(up.stderr)")
    let backups = try gym.run(["migrate", "backups", "--format", "csv"])
    let backup = String(try #require(backups.stdoutLines.dropFirst().first).split(separator: ",")[0])
    try gym.seed(10)
    let full = try gym.run(
      ["-c", "ulimit -f 200; exec \"$0\" migrate restore \"$1\"", GymProcess.executable, backup], executable: "/bin/sh")
    #expect(full.status == 74, "\(full.stderr)")
    #expect(full.stderr.filter { $0 == "\n" }.count == 1)
    #expect(try gym.run(["history", "count"]).stdout == "20010\n")
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath + ".restoring"))

    // Interrupted after the old file was moved aside: the copy is at .restoring, nothing at the path.
    try FileManager.default.copyItem(atPath: backup, toPath: gym.databasePath + ".restoring")
    try FileManager.default.moveItem(atPath: gym.databasePath, toPath: gym.databasePath + ".replaced-20260101T000000Z")
    let refused = try gym.run(["history", "count"])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("holds a restore that was interrupted; finish it with 'mv"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
    try FileManager.default.moveItem(atPath: gym.databasePath + ".restoring", toPath: gym.databasePath)
    #expect(try gym.run(["history", "count"]).stdout == "20000\n")
  }
}
