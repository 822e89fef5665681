import Foundation
import GRDB
import Testing

/// Several gym processes on one database at once: writers of every kind, readers during every
/// write, writers killed mid-command, and the scheduled exporter beside interactive commands. The
/// only failure allowed is the documented busy exit 75; no update is lost and no reader sees half
/// of a command.
@Suite(.serialized) struct ConcurrencyTests {
  /// What the concurrent roles did, under a lock.
  final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var successes: [String: Int] = [:]
    private(set) var failures: [String] = []
    private(set) var violations: [String] = []

    func record(_ role: String, _ result: GymProcess.Result) {
      lock.withLock {
        switch result.status {
        case 0: successes[role, default: 0] += 1
        case 75: break  // busy past the timeout: documented, and nothing was written
        default: failures.append("\(role): exit \(result.status): \(result.stderr)")
        }
      }
    }
    func violation(_ text: String) { lock.withLock { violations.append(text) } }
    func count(_ role: String) -> Int { lock.withLock { successes[role] ?? 0 } }
  }

  /// `count` workouts titled `title`, as NDJSON gym imports.
  static func batch(_ title: String, count: Int) -> String {
    (0..<count).map { i in
      let id = UUID().uuidString.lowercased()
      let minute = String(format: "%02d", i % 60)
      return #"{"id":"\#(id)","completedAt":"2026-03-01T10:\#(minute):00Z","status":"completed","#
        + #""planTitle":"\#(title)","focus":"push","durationMinutes":30,"intensity":"low"}"#
    }.joined(separator: "\n") + "\n"
  }

  /// Workouts per title, read in one command (one read transaction).
  static func titles(_ gym: GymProcess) throws -> [String: Int]? {
    let result = try gym.run(["history", "list", "--limit", "0", "--fields", "planTitle", "--format", "csv"])
    guard result.status == 0 else { return nil }
    var counts: [String: Int] = [:]
    for line in result.stdoutLines.dropFirst() { counts[String(line), default: 0] += 1 }
    return counts
  }

  static func integrityCheck(_ path: String) throws -> String {
    try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") ?? "" }
  }

  @Test func writersOfEveryKindAndReadersAtOnce() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["history", "import", "-"], stdin: Self.batch("Doomed", count: 10)).status == 0)
    let doomed = try gym.run(["history", "list", "--limit", "0", "--fields", "id", "--format", "csv"])
      .stdoutLines.dropFirst().map(String.init)
    let tally = Tally()
    let writersDone = DispatchGroup()
    let batchSize = 50
    let writers: [@Sendable () throws -> Void] = [
      {
        for k in 0..<6 * Stress.factor {
          tally.record(
            "import", try gym.run(["history", "import", "-"], stdin: Self.batch("Batch a\(k)", count: batchSize)))
        }
      },
      {
        for k in 0..<6 * Stress.factor {
          tally.record(
            "import", try gym.run(["history", "import", "-"], stdin: Self.batch("Batch b\(k)", count: batchSize)))
        }
      },
      {
        for _ in 0..<12 {
          tally.record(
            "add", try gym.run(["history", "add", "--plan-title", "Single", "--focus", "push", "--duration", "10"]))
        }
      },
      { for id in doomed { tally.record("delete", try gym.run(["history", "delete", id])) } },
      {
        for k in 0..<8 {
          tally.record("library", try gym.run(["library", "add", "Book \(k)", "--author", "A. Writer"]))
        }
      },
      {
        for k in 0..<8 {
          tally.record("staples", try gym.run(["staples", "add", "Item \(k)", "--category", "Pantry"]))
        }
      },
    ]
    for writer in writers {
      writersDone.enter()
      DispatchQueue.global().async {
        defer { writersDone.leave() }
        do { try writer() } catch { tally.violation("writer threw \(error)") }
      }
    }
    // Readers until the writers finish: every import whole or absent, counts never going back.
    let readersDone = DispatchGroup()
    for _ in 0..<2 {
      readersDone.enter()
      DispatchQueue.global().async {
        defer { readersDone.leave() }
        var lastSingles = 0
        var lastDoomed = 10
        var lastBooks = 0
        repeat {
          guard let counts = try? Self.titles(gym) else { return tally.violation("a read failed") }
          for (title, n) in counts where title.hasPrefix("Batch") && n != batchSize {
            tally.violation("a reader saw \(n) of \(title)'s \(batchSize) workouts")
          }
          let singles = counts["Single"] ?? 0
          let left = counts["Doomed"] ?? 0
          if singles < lastSingles || left > lastDoomed { tally.violation("counts went back") }
          (lastSingles, lastDoomed) = (singles, left)
          let books =
            Int((try? gym.run(["library", "count"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? "") ?? -1
          if books < lastBooks { tally.violation("library count went back: \(lastBooks) → \(books)") }
          lastBooks = books
        } while writersDone.wait(timeout: .now()) == .timedOut
      }
    }
    writersDone.wait()
    readersDone.wait()
    #expect(tally.failures.isEmpty, "\(tally.failures)")
    #expect(tally.violations.isEmpty, "\(tally.violations)")
    // Nothing lost: every command that succeeded is there, in full.
    let counts = try #require(try Self.titles(gym))
    #expect(counts.filter { $0.key.hasPrefix("Batch") }.values.reduce(0, +) == tally.count("import") * batchSize)
    #expect(counts["Single"] ?? 0 == tally.count("add"))
    #expect(counts["Doomed"] ?? 0 == 10 - tally.count("delete"))
    #expect(try gym.run(["library", "count"]).stdout == "\(tally.count("library"))\n")
    let items = try gym.run(["staples", "list", "--all", "--format", "csv"]).stdoutLines.count - 1
    #expect(items == tally.count("staples"))
    #expect(tally.count("import") + tally.count("add") > 0, "nothing ran")
    #expect(try Self.integrityCheck(gym.databasePath) == "ok")
  }

  @Test func writersKilledMidImportLeaveOthersWholeAndTheDatabaseSound() throws {
    let gym = try GymProcess()
    let rows = 3000
    var timing = KillTiming("writersKilledMidImport")
    var killed: Set<Int> = []
    var processes: [(Int, Process)] = []
    let imports = 10 * Stress.factor
    for k in 0..<imports {
      let path = try gym.write("batch\(k).ndjson", Self.batch("Crash \(k)", count: rows))
      let process = Process()
      process.executableURL = URL(fileURLWithPath: GymProcess.executable)
      process.arguments = ["history", "import", path, "--quiet"]
      process.environment = gym.environment
      process.standardError = FileHandle.nullDevice
      try process.run()
      processes.append((k, process))
      if k % 2 == 0 {  // half of them, each at a random point
        usleep(timing.microseconds(in: 5_000...200_000))
        kill(process.processIdentifier, SIGKILL)
        killed.insert(k)
      }
    }
    var succeeded: Set<Int> = []
    for (k, process) in processes {
      process.waitUntilExit()
      let status = process.terminationReason == .uncaughtSignal ? -1 : process.terminationStatus
      if status == 0 { succeeded.insert(k) }
      #expect(killed.contains(k) || status == 0 || status == 75, "import \(k) exited \(status)")
    }
    #expect(try Self.integrityCheck(gym.databasePath) == "ok")
    let counts = try #require(try Self.titles(gym))
    for k in 0..<imports {
      let n = counts["Crash \(k)"] ?? 0
      #expect(n == 0 || n == rows, "import \(k) left \(n) of \(rows) rows")
      if succeeded.contains(k) { #expect(n == rows, "import \(k) succeeded but \(n) rows are there") }
    }
    // No lock or journal left behind stops the next writer.
    #expect(try gym.run(["history", "add", "--plan-title", "After", "--focus", "push", "--duration", "5"]).status == 0)
  }

  @Test func scheduledExportsBesideWritersAreConsistentSnapshots() throws {
    let gym = try GymProcess()
    try gym.seed(50)
    let out = gym.directory + "/exports"
    let exporter = Process()
    exporter.executableURL = URL(fileURLWithPath: GymProcess.executable)
    exporter.arguments = ["export", "schedule", "--every", "1s", "--keep", "20", "--out", out]
    exporter.environment = gym.environment
    let logPath = gym.directory + "/exporter.log"
    #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
    exporter.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    try exporter.run()
    let tally = Tally()
    let batchSize = 200
    @Sendable func exportsLogged() -> Int {
      ((try? String(contentsOfFile: logPath, encoding: .utf8))?.components(separatedBy: " exported ").count ?? 1) - 1
    }
    // The writers write until the exporter has exported three times during their writes: an event,
    // not a quota of work per second. The deadline only ends a run that hangs.
    let safety = Date().addingTimeInterval(300)
    DispatchQueue.concurrentPerform(iterations: 2) { writer in
      var k = 0
      while exportsLogged() < 3 * Stress.factor && Date() < safety {
        let batch = Self.batch("Sched \(writer)-\(k)", count: batchSize)
        tally.record(
          "import",
          (try? gym.run(["history", "import", "-", "--quiet"], stdin: batch))
            ?? .init(status: -2, stdout: "", stderr: "threw"))
        k += 1
      }
    }
    // And one more export after the last write.
    let after = exportsLogged()
    while exportsLogged() <= after && Date() < safety { usleep(100_000) }
    kill(exporter.processIdentifier, SIGTERM)
    exporter.waitUntilExit()
    let log = try String(contentsOfFile: logPath, encoding: .utf8)
    #expect(exporter.terminationStatus == 0, "\(log)")
    #expect(tally.failures.isEmpty, "\(tally.failures)")
    let exports = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("gym-export-") }
    #expect(exports.count >= 3, "\(log)")
    // Each export is one moment: every import in it whole, none in part.
    for (i, name) in exports.sorted().enumerated() {
      #expect(try gym.run(["export", "verify", out + "/" + name]).status == 0)
      var restored = gym
      restored.environment["GYM_DATABASE"] = gym.directory + "/restored\(i).sqlite"
      let result = try restored.run(["import", out + "/" + name])
      #expect(result.status == 0, "\(result.stderr)")
      let counts = try #require(try Self.titles(restored))
      for (title, n) in counts where title.hasPrefix("Sched") && n != batchSize {
        Issue.record("\(name) holds \(n) of \(title)'s \(batchSize) workouts")
      }
    }
    let final = try #require(try Self.titles(gym))
    #expect(final.filter { $0.key.hasPrefix("Sched") }.values.reduce(0, +) == tally.count("import") * batchSize)
  }

  /// Workout ids stored in the database file at `path`, read as it is.
  static func storedIDs(_ path: String) throws -> Set<String> {
    var configuration = Configuration()
    configuration.readonly = true
    return try Set(
      DatabaseQueue(path: path, configuration: configuration).read {
        try String.fetchAll($0, sql: "SELECT id FROM workout")
      })
  }

  /// Eight commands making the first write to one new path at once: one creates the database while
  /// the others wait for it, and each writes its workout (they used to find the half-made database
  /// and refuse it as one gym did not create).
  @Test func commandsCreatingOneDatabaseAtOnceEachWrite() throws {
    for _ in 0..<3 * Stress.factor {
      let gym = try GymProcess()
      let ids = (0..<8).map { _ in UUID().uuidString.lowercased() }
      let processes = try ids.enumerated().map { k, id in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: GymProcess.executable)
        process.arguments = [
          "history", "add", "--plan-title", "First \(k)", "--focus", "push", "--duration", "5", "--id", id,
        ]
        process.environment = gym.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: try gym.write("err\(k)", "")))
        try process.run()
        return process
      }
      for (k, process) in processes.enumerated() {
        process.waitUntilExit()
        let stderr = try String(contentsOfFile: gym.directory + "/err\(k)", encoding: .utf8)
        #expect(process.terminationStatus == 0, "\(stderr)")
      }
      #expect(try Self.storedIDs(gym.databasePath) == Set(ids))
      #expect(try Self.integrityCheck(gym.databasePath) == "ok")
    }
  }

  /// `gym migrate restore`, again and again, while three writers add workouts: each write a writer
  /// was told succeeded is in the restored database or in a file a restore moved aside, and every
  /// file is sound. A writer that had opened the file, but not yet locked it, when a restore moved
  /// it aside wrote into the file moved aside and its WAL into the new one's: lost rows, and
  /// "database disk image is malformed".
  @Test func restoresBesideWritersLoseNoAcknowledgedWrite() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["history", "add", "--plan-title", "Seed", "--focus", "push", "--duration", "5"]).status == 0)
    let backup = gym.directory + "/backup.sqlite"
    try FileManager.default.copyItem(atPath: gym.databasePath, toPath: backup)
    final class Acknowledged: @unchecked Sendable {
      let lock = NSLock()
      var ids: [String] = []
      var failures: [String] = []
      var done = false
    }
    let acknowledged = Acknowledged()
    let writers = DispatchGroup()
    for _ in 0..<3 {
      writers.enter()
      Thread {
        while !acknowledged.lock.withLock({ acknowledged.done }) {
          let id = UUID().uuidString.lowercased()
          let result = try? gym.run(
            ["history", "add", "--plan-title", "W", "--focus", "push", "--duration", "5", "--id", id, "--quiet"])
          acknowledged.lock.withLock {
            switch result?.status {
            case 0: acknowledged.ids.append(id)
            case 75: break  // busy past the timeout: documented, nothing written
            default: acknowledged.failures.append("\(result?.status ?? -1): \(result?.stderr ?? "threw")")
            }
          }
        }
        writers.leave()
      }.start()
    }
    for _ in 0..<8 * Stress.factor {
      usleep(300_000)
      let result = try gym.run(["migrate", "restore", backup, "--quiet"])
      #expect(result.status == 0 || result.status == 75, "\(result.stderr)")
    }
    acknowledged.lock.withLock { acknowledged.done = true }
    writers.wait()
    #expect(acknowledged.failures.isEmpty, "\(acknowledged.failures.prefix(3))")
    let replaced = try FileManager.default.contentsOfDirectory(atPath: gym.directory)
      .filter { $0.hasPrefix("gym.sqlite.replaced-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
    #expect(!replaced.isEmpty)
    var found: Set<String> = []
    for file in [gym.databasePath] + replaced.map({ gym.directory + "/" + $0 }) {
      #expect(try Self.integrityCheck(file) == "ok", "\(file)")
      found.formUnion(try Self.storedIDs(file))
    }
    let lost = Set(acknowledged.ids).subtracting(found)
    #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.ids.count) acknowledged writes in no file")
  }
}
