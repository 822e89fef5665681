import Foundation
import GRDB
import GymCore
import Synchronization
import Testing

@Suite struct MigrationRunnerTests {
  typealias F = MigrationFixtures

  func rows(_ path: String, _ sql: String) throws -> [Row] {
    var configuration = Configuration()
    configuration.readonly = true
    return try DatabaseQueue(path: path, configuration: configuration).read { try Row.fetchAll($0, sql: sql) }
  }

  /// Additive, rename and rebuild from the previous version: every row survives, with its relationships.
  @Test func eachKindFromThePreviousVersionKeepsEveryRow() throws {
    let path = try F.filledV1()
    let before = try rows(
      path,
      "SELECT m.id, m.name, m.level, v.id AS visit, v.at FROM member m JOIN visit v ON v.memberId = m.id ORDER BY v.id")
    let store = try Store(path: path, modules: [F.module(F.v2, tables: [F.memberTable])])
    let after = try store.read { db in
      try Row.fetchAll(
        db,
        sql:
          "SELECT m.id, m.name, m.level, v.id AS visit, v.visitedAt AS at, m.isActive FROM member m JOIN visit v ON v.memberId = m.id ORDER BY v.id"
      )
    }
    #expect(after.count == 150)
    for (old, new) in zip(before, after) {
      for column in ["id", "name", "level", "visit", "at"] {
        #expect(old[column] as DatabaseValue == new[column] as DatabaseValue)
      }
      #expect(new["isActive"] == 1)
    }
    try store.read { db in
      let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
      #expect(orphans.isEmpty)
      let indexes = try db.indexes(on: "member").map(\.name)
      #expect(indexes.contains("member_name"))
      // The rebuilt table enforces its new CHECK; the cascade from member to visit still works.
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO member (name, level) VALUES ('x', 'platinum')")
      }
    }
    try store.write { db in try db.execute(sql: "DELETE FROM member WHERE id = 1") }
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM visit WHERE memberId = 1") } == 0)
    let backups = Backup.list(of: path)
    #expect(backups.count == 1 && backups[0].version == 1)
  }

  /// A migration that fails halfway leaves the file byte-for-byte as it was, and the backup
  /// taken before it restores the data.
  @Test func aFailingMigrationLeavesTheFileUntouchedAndTheBackupRestores() throws {
    let path = try F.filledV1()
    let original = try F.bytes(path)
    let failing =
      F.v1 + [
        Migration(
          "club/002-half-done", .custom,
          sql: """
            CREATE TABLE badge (id INTEGER PRIMARY KEY, memberId INTEGER NOT NULL REFERENCES member(id));
            INSERT INTO badge (memberId) SELECT id FROM member;
            UPDATE member SET name = NULL;
            """)
      ]
    do {
      _ = try Store(path: path, modules: [F.module(failing)])
      Issue.record("expected the migration to fail")
    } catch let error as StoreError {
      guard case .migrationFailed(let identifier, let reason, let backup) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(identifier == "club/002-half-done")
      #expect(reason.contains("NOT NULL"))
      #expect(backup != nil)
      #expect(error.description.contains("(backup: \(backup ?? "")"))
    }
    #expect(try F.bytes(path) == original)
    let wal = FileManager.default.fileExists(atPath: path + "-wal") ? try F.bytes(path + "-wal") : Data()
    #expect(wal.isEmpty)
    let backup = try #require(Backup.list(of: path).first)
    try Backup.check(backup.path)
    // Restoring puts the backup's rows back; the file it replaced is kept aside.
    try FileManager.default.removeItem(atPath: path)
    _ = try backup.restore(to: path, migrations: F.v1)
    #expect(try rows(path, "SELECT COUNT(*) AS n FROM visit")[0]["n"] == 150)
  }

  /// A rebuild that loses a relationship, or a migration that drops rows it did not declare,
  /// is rolled back.
  @Test(arguments: [
    (
      "club/002-orphan-visits",
      "UPDATE visit SET memberId = memberId + 1000 WHERE id = 7", MigrationKind.custom, "point at missing member"
    ),
    ("club/002-lose-rows", "DELETE FROM visit WHERE id > 100", MigrationKind.custom, "had 150 rows and now has 100"),
  ])
  func checksAfterTheMigrationRollBack(identifier: String, sql: String, kind: MigrationKind, expected: String) throws {
    let path = try F.filledV1()
    let original = try F.bytes(path)
    let broken = F.v1 + [Migration(identifier, kind, touches: ["visit"], sql: sql)]
    let error = #expect(throws: StoreError.self) { _ = try Store(path: path, modules: [F.module(broken)]) }
    #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    #expect(try F.bytes(path) == original)
  }

  /// Declared row changes pass: a data transformation may delete what it says it deletes.
  @Test func declaredRowChangesPass() throws {
    let path = try F.filledV1()
    let cleanup =
      F.v1 + [
        Migration(
          "club/002-forget-old-visits", .custom, touches: ["visit"], rowsMayChange: ["visit"],
          sql: "DELETE FROM visit WHERE at < '2026-02-01'")
      ]
    let store = try Store(path: path, modules: [F.module(cleanup)])
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM visit") } == 100)
  }

  @Test func withAutoMigrateOffCommandsAreToldToRunMigrateUp() throws {
    let path = try F.filledV1()
    #expect(throws: StoreError.pendingMigrations(path: path, pending: F.v2.dropFirst().map(\.identifier))) {
      try Store(path: path, modules: [F.module(F.v2)], options: .init(autoMigrate: false))
    }
  }

  /// Two processes starting the same migration: one migrates, the other waits for the lock and
  /// then finds nothing pending.
  @Test func twoRunnersAtOnceMigrateOnce() throws {
    let path = try F.filledV1(members: 2000)
    let options = Store.Options(inspectOnly: true)
    let stores = try (0..<2).map { _ in try Store(path: path, modules: [F.module(F.v2)], options: options) }
    // Each thread writes its own report under the lock: no data race on the array.
    let reports = Mutex<[MigrationReport?]>([nil, nil])
    DispatchQueue.concurrentPerform(iterations: 2) { i in
      let report = try? MigrationRunner(store: stores[i]).up()
      reports.withLock { $0[i] = report }
    }
    let applied = reports.withLock { $0.compactMap { $0?.applied.count } }.sorted()
    #expect(applied == [0, 3])
    #expect(Backup.list(of: path).count == 1)
  }

  @Test func onlyTheNewestBackupsAreKept() throws {
    let path = try F.filledV1()
    var migrations = F.v1
    for n in 2...5 {
      migrations.append(
        Migration("club/00\(n)-index-\(n)", .additive, sql: "CREATE INDEX visit_\(n) ON visit(at, id)"))
      var runner = MigrationRunner(
        store: try Store(path: path, modules: [F.module(migrations)], options: .init(inspectOnly: true)))
      runner.keepBackups = 2
      _ = try runner.up(now: Date(timeIntervalSince1970: Double(n) * 100))
    }
    #expect(Backup.list(of: path).map(\.version) == [4, 3])
  }

  /// Three restores within one second: the first keeps the file it replaced under the second's
  /// name, the next under the millisecond's; the third finds both taken and is told to try again
  /// (exit 75), nothing replaced. Every replaced file is kept.
  @Test func restoresWithinOneSecondKeepEveryFileTheyReplaced() throws {
    let path = try F.filledV1(members: 4)
    let copy = path + ".copy"
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    let backup = Backup(unnamed: copy)
    // 2026-11-28T08:00:00.250Z: a quarter of a second past the whole second.
    let now = Date(timeIntervalSince1970: 1_795_852_800.25)
    #expect(try backup.restore(to: path, migrations: F.v1, now: now) == path + ".replaced-20261128T080000Z")
    #expect(try backup.restore(to: path, migrations: F.v1, now: now) == path + ".replaced-20261128T080000.250Z")
    #expect(throws: StoreError.restoredThisInstant(path: path)) {
      try backup.restore(to: path, migrations: F.v1, now: now)
    }
    #expect(!FileManager.default.fileExists(atPath: path + ".restoring"))
    // 4 members, 3 visits each: 12 in the database and in each file it replaced.
    for file in [path, path + ".replaced-20261128T080000Z", path + ".replaced-20261128T080000.250Z"] {
      #expect(try rows(file, "SELECT COUNT(*) AS n FROM visit")[0]["n"] == 12, "\(file)")
    }
  }

  /// A migration that meets a full disk (here the database's own page limit, SQLite's same
  /// SQLITE_FULL) fails as a write does, exit 74, not as a broken migration (65): the database is
  /// rolled back all the same.
  @Test func aFullDiskDuringAMigrationIsAWriteFailure() throws {
    let path = try F.filledV1()
    let original = try F.bytes(path)
    let filling =
      F.v1 + [
        Migration(
          "club/002-fill", .additive,
          sql: """
            PRAGMA max_page_count = 16;
            CREATE TABLE filler (text TEXT NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
            INSERT INTO filler SELECT printf('%.100c', 'x') FROM n;
            """)
      ]
    let error = #expect(throws: DatabaseError.self) { _ = try Store(path: path, modules: [F.module(filling)]) }
    #expect(error?.resultCode == .SQLITE_FULL)
    #expect(try F.bytes(path) == original)
  }

  /// Two restores at once, of two backups, again and again: each puts its own copy in place, one
  /// after the other (they shared the name `.restoring`, and one installed the other's half-written
  /// copy, or failed for the other's), so the database is always one of the two backups, whole.
  @Test func twoRestoresAtOnceEachPutTheirOwnCopy() throws {
    let path = try F.filledV1(members: 2)
    let backups = try [4, 7].map { members in
      let copy = path + ".backup\(members)"
      try FileManager.default.copyItem(atPath: try F.filledV1(members: members), toPath: copy)
      return Backup(unnamed: copy)
    }
    final class Outcomes: @unchecked Sendable {
      let lock = NSLock()
      var unexpected: [String] = []
    }
    let outcomes = Outcomes()
    for _ in 0..<5 {
      DispatchQueue.concurrentPerform(iterations: 2) { k in
        do {
          _ = try backups[k].restore(to: path, migrations: F.v1)
        } catch StoreError.busy, StoreError.restoredThisInstant {
          // Told to try again: allowed, nothing changed.
        } catch {
          outcomes.lock.withLock { outcomes.unexpected.append("\(error)") }
        }
      }
      // 4 or 7 members, 3 visits each.
      let visits = try rows(path, "SELECT COUNT(*) AS n FROM visit")[0]["n"] as Int
      #expect([12, 21].contains(visits))
      #expect(try rows(path, "PRAGMA integrity_check")[0][0] == "ok")
    }
    #expect(outcomes.unexpected.isEmpty, "\(outcomes.unexpected)")
    let folder = (path as NSString).deletingLastPathComponent
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".restoring") }
    #expect(left.isEmpty, "\(left)")
  }

  /// A WAL whose writer died before it checkpointed holds committed changes. The restore writes them
  /// into the file first, so the file it keeps aside holds them on its own (they were in the `-wal`
  /// moved with it, lost to a restore cut short between the two).
  @Test func theFileARestoreKeepsHoldsWhatAnAbandonedWALHeld() throws {
    let path = try F.filledV1(members: 3)
    let backup = path + ".copy"
    try FileManager.default.copyItem(atPath: path, toPath: backup)
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = [
      "python3", "-c",
      "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        + "c.execute(\"UPDATE member SET name = 'In the WAL' WHERE id = 1\"); c.commit(); os._exit(0)",
      path,
    ]
    try python.run()
    python.waitUntilExit()
    #expect(python.terminationStatus == 0)
    var info = stat()
    #expect(stat(path + "-wal", &info) == 0 && info.st_size > 0)
    let aside = try #require(try Backup(unnamed: backup).restore(to: path, migrations: F.v1))
    for suffix in ["-wal", "-shm"] { unlink(aside + suffix) }
    #expect(try rows(aside, "SELECT name FROM member WHERE id = 1")[0]["name"] == "In the WAL")
    #expect(try rows(path, "SELECT name FROM member WHERE id = 1")[0]["name"] == "Member 1")
  }

  /// Restoring where the database is missing but its `-wal` was left: the WAL is not the copy's, so it
  /// goes aside under the name a replaced file would have, and the database is the backup's alone.
  @Test func aRestoreBesideAWALWithoutItsDatabaseKeepsTheWALAside() throws {
    let path = try F.filledV1(members: 2)
    let backup = path + ".copy"
    try FileManager.default.copyItem(atPath: path, toPath: backup)
    try FileManager.default.removeItem(atPath: path)
    let wal = Data(repeating: 7, count: 4096)
    #expect(FileManager.default.createFile(atPath: path + "-wal", contents: wal))
    // 2026-11-28T09:00:00Z
    let now = Date(timeIntervalSince1970: 1_795_856_400)
    #expect(try Backup(unnamed: backup).restore(to: path, migrations: F.v1, now: now) == nil)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".replaced-20261128T090000Z-wal")) == wal)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    // 2 members, 3 visits each.
    #expect(try rows(path, "SELECT COUNT(*) AS n FROM visit")[0]["n"] == 6)
    // Restored again in that second: the WAL set aside holds the name, so the file it replaces
    // takes the millisecond's and is never read with another's WAL.
    #expect(
      try Backup(unnamed: backup).restore(to: path, migrations: F.v1, now: now)
        == path + ".replaced-20261128T090000.000Z")
  }
}
