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
    #expect((json["modules"] as! [[String: Any]]).map { $0["name"] as! String } == ["history", "library", "staples"])
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
}
