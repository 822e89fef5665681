import Foundation
import GRDB
import Testing

/// Another application's database given to gym by mistake: refused, and left byte for byte as it was,
/// its pending write-ahead log included.
@Suite struct ForeignDatabaseTests {
  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// A WAL database whose last transaction is still only in its `-wal`, as an application that was
  /// killed leaves it: the files are copied while the writer still holds the database open.
  func foreignWALDatabase(in directory: String) throws -> String {
    let live = directory + "/live.sqlite"
    let writer = try DatabaseQueue(path: live)
    try writer.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "CREATE TABLE notes (body TEXT)")
      try db.execute(sql: "INSERT INTO notes VALUES ('only in the WAL')")
    }
    let path = directory + "/other.sqlite"
    try FileManager.default.copyItem(atPath: live, toPath: path)
    try FileManager.default.copyItem(atPath: live + "-wal", toPath: path + "-wal")
    try writer.close()
    return path
  }

  @Test(arguments: [
    ["history", "list"], ["library", "list"],
    ["history", "add", "--plan-title", "Push", "--focus", "push", "--duration", "30"],
    ["export", "--format", "ndjson"],
  ])
  func aForeignWALDatabaseIsRefusedWithItsWALUntouched(arguments: [String]) throws {
    let gym = try GymProcess()
    let path = try foreignWALDatabase(in: gym.directory)
    let main = try #require(bytes(path))
    let wal = try #require(bytes(path + "-wal"))
    #expect(wal.count > 0)
    var command = arguments + ["--database", path]
    if arguments.first == "export" { command += ["--out", gym.directory + "/exports"] }
    let result = try gym.run(command)
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains("an SQLite database that gym did not create (left untouched)"), "\(result.stderr)")
    #expect(bytes(path) == main)
    #expect(bytes(path + "-wal") == wal)
    // The row is still there for its owner, who reads the WAL on open.
    let owner = try DatabaseQueue(
      path: path,
      configuration: {
        var c = Configuration()
        c.readonly = true
        return c
      }())
    #expect(try owner.read { try String.fetchOne($0, sql: "SELECT body FROM notes") } == "only in the WAL")
  }

  @Test func gymsOwnDatabaseWithAPendingWALOpensAsUsual() throws {
    let gym = try GymProcess()
    try gym.run(["library", "add", "Dune"])
    // Another gym holding the database open keeps its WAL pending while this one reads and writes.
    let holder = try DatabaseQueue(path: gym.databasePath)
    try holder.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) SELECT 'x' WHERE 0") }
    try gym.run(["library", "add", "Hyperion"])
    let listed = try gym.run(["library", "list", "--format", "csv", "--fields", "title"])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.split(separator: "\r\n").contains("Hyperion"))
    try holder.close()
  }
}
