import Foundation
import GRDB
import Testing

/// Every command that writes, while another process holds the database's write lock: it waits its
/// busy timeout, then exits 75 (EX_TEMPFAIL, "try again") with one line, and changes nothing. The
/// list of commands is checked against the command tree, so a new command must say which it is.
@Suite struct HeldLockTests {
  /// Each leaf command, from the reference pages the command tree generates (`# \`gym history add\``).
  static func leafCommands() throws -> Set<String> {
    let reference = BenchCommandTests.root + "/Docs/Reference/"
    let titles = try FileManager.default.contentsOfDirectory(atPath: reference).filter { $0.hasSuffix(".md") }
      .compactMap { name -> String? in
        let text = try String(contentsOfFile: reference + name, encoding: .utf8)
        guard let first = text.split(separator: "\n").first, first.hasPrefix("# `gym ") else { return nil }
        return String(first.dropFirst("# `gym ".count).dropLast())
      }
    // A group is a title that another title extends by a word.
    return Set(titles.filter { title in !titles.contains { $0.hasPrefix(title + " ") } })
  }

  /// Commands that only read (or write only files of their own: an export, a bench database).
  static let readers: Set<String> = [
    "bench", "completions", "config show", "doctor", "version", "report",
    "export create", "export prune", "export pull", "export status", "export verify",
    "history count", "history daily", "history exercises list", "history list", "history sets", "history progress",
    "history prs",
    "history recent", "history sample", "history samples count", "history samples generate",
    "history samples list", "history samples sources", "history samples types", "history show", "history sleep",
    "history stats", "history summary", "history trend", "history volume",
    "library authors", "library count", "library export", "library list", "library readings", "library search",
    "library show", "library stats",
    "migrate backups", "migrate plan", "migrate status", "migrate verify",
    "staples categories", "staples cookable", "staples count", "staples expiring", "staples list",
    "staples recipe show", "staples recipes", "staples shopping-list", "staples show", "staples stats", "staples stock",
    "sync status",
  ]

  /// Commands that run until stopped: a run that meets the lock is logged and tried again on the
  /// next interval (`ComposeExporterTests` runs both).
  static let schedulers: Set<String> = ["export schedule", "sync schedule"]

  /// Every table's rows, in order: what "nothing changed" compares.
  static func contents(_ path: String) throws -> [String] {
    try DatabaseQueue(path: path).read { db in
      let tables = try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      return try tables.flatMap { table in
        try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { "\(table): \($0)" }.sorted()
      }
    }
  }

  @Test func everyCommandThatWritesExits75UnderAHeldLockAndChangesNothing() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    // Taken before what follows, so that each would change the database if it ran: the restore and
    // the merge bring back a workout removed since, the item list an item removed since.
    #expect(try gym.run(["export", "create", "--out", "exports"]).status == 0)
    let export =
      gym.directory + "/exports/" + (try FileManager.default.contentsOfDirectory(atPath: gym.directory + "/exports")[0])
    let backup = gym.directory + "/backup.sqlite"
    try DatabaseQueue(path: gym.databasePath).backup(to: DatabaseQueue(path: backup))
    let removed = String(
      try gym.run(["history", "list", "--limit", "1", "-f", "tsv"]).stdoutLines[1].split(separator: "\t")[0])
    #expect(try gym.run(["history", "remove", removed]).status == 0)
    #expect(try gym.run(["staples", "seed"]).status == 0)
    #expect(try gym.run(["library", "add", "Emma", "--author", "Jane Austen"]).status == 0)
    let workout = String(
      try gym.run(["history", "list", "--limit", "1", "-f", "tsv"]).stdoutLines[1].split(separator: "\t")[0])
    let strong = try gym.write(
      "strong.csv",
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
        + "2026-01-05 18:00:00,Legs,45m,Squat (Barbell),1,100,5,0,0,,,\n")
    #expect(try gym.run(["history", "import", strong, "--weight-unit", "kg"]).status == 0)
    let exercise = "Squat (Barbell)"
    let recipe = String(try gym.run(["staples", "recipes", "-f", "tsv"]).stdoutLines[1].split(separator: "\t")[0])
    let workouts = try gym.write(
      "workouts.csv", try gym.run(["history", "sample", "--count", "3", "-f", "csv"]).stdout)
    let samples = try gym.write(
      "samples.ndjson", try gym.run(["history", "samples", "generate", "--days", "1", "-f", "ndjson"]).stdout)
    #expect(try gym.run(["staples", "add", "Tofu", "--category", "Dairy"]).status == 0)
    let items = try gym.write("items.csv", try gym.run(["staples", "list", "--all", "-f", "csv"]).stdout)
    #expect(try gym.run(["staples", "remove", "Tofu"]).status == 0)
    let health = try gym.write(
      "export.xml",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_US">
       <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2026-01-01 09:00:00 +0000" endDate="2026-01-01 10:00:00 +0000" value="100"/>
      </HealthData>

      """)
    let goodreads = try gym.write(
      "goodreads.csv",
      "Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Date Read,Date Added\n"
        + "7,Persuasion,Jane Austen,,,5,read,2020/01/02,2019/12/01\n")

    let syncKey = gym.directory + "/sync.key"
    let keygen = try Process.run(URL(fileURLWithPath: "/usr/bin/age-keygen"), arguments: ["-o", syncKey])
    keygen.waitUntilExit()
    let writers: [String: [String]] = [
      "sync run": ["--remote", gym.directory + "/sync-remote", "--identity", syncKey],
      "sync compact": ["--remote", gym.directory + "/sync-remote", "--identity", syncKey],
      "history add": ["--plan-title", "Legs", "--focus", "legs", "--duration", "30"],
      "history set": [workout, "--notes", "changed"],
      "history remove": [workout],
      "history import": [workouts],
      "history import-health": [health],
      "history samples import": [samples],
      "history exercises rename": [exercise, "Another Name"],
      "history exercises merge": [exercise, "Another Name"],
      "library add": ["Persuasion", "--author", "Jane Austen"],
      "library start": ["1"],
      "library finish": ["1"],
      "library abandon": ["1"],
      "library progress": ["1", "10"],
      "library set": ["1", "--rating", "3"],
      "library remove": ["1"],
      "library goal": ["12"],
      "library import": [goodreads],
      "staples add": ["Tempeh", "--category", "Dairy"],
      "staples buy": ["Bread", "1"],
      "staples use": ["Bread", "1"],
      "staples open": ["Bread", "--days", "2"],
      "staples cook": [recipe],
      "staples set": ["Bread", "--min-stock", "2"],
      "staples remove": ["Bread"],
      "staples seed": ["--force"],
      "staples import": [items],
      "staples recipe add": ["Toast", "--ingredient", "Bread:1"],
      "staples recipe remove": [recipe],
      "migrate up": [],
      "migrate repair": [],
      "migrate restore": [backup],
      "import": [export, "--merge"],
    ]
    let leaves = try Self.leafCommands()
    #expect(Set(writers.keys).isDisjoint(with: Self.readers))
    #expect(
      leaves.subtracting(writers.keys).subtracting(Self.readers).subtracting(Self.schedulers).sorted() == [],
      "commands not classified")
    #expect(
      Set(writers.keys).union(Self.readers).union(Self.schedulers).subtracting(leaves).sorted() == [],
      "commands that do not exist")

    let before = try Self.contents(gym.databasePath)
    let holder = try DatabaseQueue(path: gym.databasePath)
    try holder.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      defer { try? db.execute(sql: "ROLLBACK") }
      for (command, arguments) in writers.sorted(by: { $0.key < $1.key }) {
        let result = try gym.run(
          command.split(separator: " ").map(String.init) + arguments,
          environment: ["GYM_DATABASE_BUSY_TIMEOUT": "100"])
        #expect(result.status == 75, "\(command): \(result.stderr)")
        // Its one error line last (an import may first say how it read the file).
        let busy =
          "gym: error: database '\(gym.databasePath)' is busy: another process held its lock for over 100 ms; "
          + "try again, or raise database.busy_timeout\n"
        #expect(result.stderr == busy || result.stderr.hasSuffix("\n" + busy), "\(command)")
      }
    }
    try holder.close()
    #expect(try Self.contents(gym.databasePath) == before)
    // Nothing was left half-done beside the database: no restore in progress, no partial import.
    let left = try FileManager.default.contentsOfDirectory(atPath: gym.directory).filter {
      $0.contains(".restoring") || $0.contains(".replaced-") || $0.contains(".partial")
    }
    #expect(left == [])
    // Once the lock is gone the same payloads do change it: "nothing changed" above was the lock's doing.
    let workoutsBefore = try gym.run(["history", "count"]).stdout
    #expect(try gym.run(["import", export, "--merge"]).status == 0)
    #expect(try gym.run(["history", "show", removed]).status == 0)
    #expect(try gym.run(["history", "count"]).stdout != workoutsBefore)
    #expect(try gym.run(["staples", "import", items]).status == 0)
    #expect(try gym.run(["staples", "show", "Tofu"]).status == 0)
  }
}
