import Foundation
import GRDB
import Testing

/// `gym migrate up` killed with SIGKILL at random points of a large rebuild: the database always
/// opens, passes `integrity_check`, and is exactly at the old version or at the new one, every row there.
@Suite struct MigrateCrashTests {
  static let workouts = 150_000

  /// A database at history/005 (before the workout rebuild) with `workouts` rows.
  static func oldDatabase(_ gym: GymProcess, workouts: Int = workouts) throws -> String {
    let up = try gym.run(["migrate", "up", "--to", "history/005-set-duration-seconds"])
    precondition(up.status == 0, up.stderr)
    let queue = try DatabaseQueue(path: gym.databasePath)
    try queue.write { db in
      let insert = try db.makeStatement(
        sql: """
          INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity)
          VALUES (?, ?, 'completed', ?, 'push', 45, 'moderate')
          """)
      for i in 0..<workouts {
        try insert.execute(arguments: [
          String(format: "00000000-0000-4000-8000-%012d", i), String(format: "2025-%02d-01T10:00:00.000Z", 1 + i % 12),
          i % 7 == 0 ? "Soccer" : "Push Day",
        ])
      }
    }
    try queue.close()
    return gym.databasePath
  }

  func state(_ path: String) throws -> (applied: Int, workouts: Int, integrity: String) {
    let queue = try DatabaseQueue(path: path)
    return try queue.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grdb_migrations")!,
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workout")!,
        try String.fetchOne(db, sql: "PRAGMA integrity_check")!
      )
    }
  }

  @Test func killedMidMigrationTheDatabaseIsBeforeOrAfterNeverBetween() throws {
    var timing = KillTiming("killedMidMigrationTheDatabaseIsBeforeOrAfterNeverBetween")
    let gym = try GymProcess()
    let original = try Self.oldDatabase(gym)
    let oldVersion = try state(original).applied
    // What a migration run to its end applies: every kill must leave this or the old number.
    let finished = gym.directory + "/finished.sqlite"
    try FileManager.default.copyItem(atPath: original, toPath: finished)
    #expect(try gym.run(["migrate", "up", "--database", finished]).status == 0)
    let latest = try state(finished).applied
    #expect(latest > oldVersion + 1, "the fixture must leave several migrations pending")
    // A fixed number of kills, each at a random point: no quota of iterations per wall-clock time,
    // which a loaded machine would miss.
    for iteration in 1...(4 * Stress.factor) {
      let copy = gym.directory + "/crash-\(iteration).sqlite"
      try FileManager.default.copyItem(atPath: original, toPath: copy)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: GymProcess.executable)
      process.arguments = ["migrate", "up", "--database", copy]
      process.environment = gym.environment
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(timing.microseconds(in: 20_000...900_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let after = try state(copy)
      #expect(after.integrity == "ok")
      #expect(after.workouts == Self.workouts)
      #expect(after.applied == oldVersion || after.applied == latest, "half-applied: \(after.applied)")
      // Whatever the kill interrupted, the next run completes.
      let again = try gym.run(["migrate", "up", "--database", copy])
      #expect(again.status == 0, "\(again.stderr)")
      let done = try state(copy)
      #expect(done.workouts == Self.workouts && done.integrity == "ok" && done.applied == latest)
    }
  }

  /// Two processes starting the migration at once: one migrates, the other waits for the lock,
  /// then finds nothing pending. One backup.
  @Test func twoProcessesMigrateOnce() throws {
    let gym = try GymProcess()
    let path = try Self.oldDatabase(gym, workouts: 20_000)
    let processes = (0..<2).map { _ in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: GymProcess.executable)
      process.arguments = ["migrate", "up", "--database", path]
      process.environment = gym.environment
      let err = Pipe()
      process.standardError = err
      return (process, err)
    }
    for (process, _) in processes { try process.run() }
    let messages = processes.map { process, err in
      let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(text)")
      return text
    }
    // One applies what is pending (every migration after history/005), the other finds nothing.
    #expect(messages.filter { $0.hasPrefix("applied ") && $0.contains(" migration(s)") }.count == 1, "\(messages)")
    #expect(messages.filter { $0.hasPrefix("nothing to do") }.count == 1, "\(messages)")
    let backups = try FileManager.default.contentsOfDirectory(atPath: gym.directory).filter { $0.contains(".backup-") }
    #expect(backups.count == 1)
  }
}
