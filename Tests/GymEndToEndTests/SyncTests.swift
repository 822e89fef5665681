import Foundation
import GRDB
import Testing

/// `gym sync` as devices run it: each device a `gym` process with a database of its own, the remote
/// a local directory that rclone writes, the identity a key `age-keygen` made.
@Suite(.serialized) struct SyncTests {
  /// A shared remote and identity, and the devices that sync through them.
  struct Network {
    let remote: String
    let identity: String
    let scratch: GymProcess

    init() throws {
      scratch = try GymProcess()
      remote = scratch.directory + "/remote"
      try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
      identity = scratch.directory + "/sync.key"
      try Self.makeKey(identity)
    }

    /// A new age key at `path`, as `age-keygen` writes it.
    static func makeKey(_ path: String) throws {
      let keygen = Process()
      keygen.executableURL = URL(fileURLWithPath: "/usr/bin/age-keygen")
      keygen.arguments = ["-o", path]
      keygen.standardError = FileHandle.nullDevice
      try keygen.run()
      keygen.waitUntilExit()
      #expect(keygen.terminationStatus == 0)
    }

    /// A new device: its own directory and database, configured to sync here under `name`.
    func device(_ name: String) throws -> GymProcess {
      var gym = try GymProcess()
      gym.environment["GYM_SYNC_REMOTE"] = remote
      gym.environment["GYM_SYNC_IDENTITY"] = identity
      gym.environment["GYM_SYNC_DEVICE"] = name
      return gym
    }
  }

  /// What `gym` prints for each of `commands`, each expected to succeed.
  static func outputs(_ gym: GymProcess, _ commands: [[String]]) throws -> String {
    try commands.map { arguments in
      let result = try gym.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      return result.stdout
    }.joined(separator: "--\n")
  }

  /// What a user of the pantry sees, in every list of the module that syncs.
  static func pantry(_ gym: GymProcess) throws -> String {
    try outputs(
      gym,
      [
        ["staples", "list", "--all", "-f", "csv", "--fields", "name,category,isStaple,quantity,unit,minStock,notes"],
        ["staples", "stock", "-f", "csv"], ["staples", "recipes", "-f", "csv"],
        ["staples", "stats", "--since", "2000-01-01", "-f", "csv"],
      ])
  }

  /// What a user of the library sees, in every list of the module.
  static func library(_ gym: GymProcess) throws -> String {
    try outputs(
      gym,
      [
        ["library", "list", "-f", "csv", "--sort", "id", "--limit", "0", "--fields", RoundTripTests.everyListField],
        [
          "library", "readings", "-f", "csv", "--sort", "id", "--limit", "0", "--fields",
          "id,workId,title,status,started,finished,pages,percent",
        ],
        ["library", "authors", "-f", "csv", "--limit", "0"], ["library", "goal", "-f", "csv"],
        ["library", "stats", "--year", "2025", "-f", "csv"], ["library", "search", "ninth", "-f", "csv"],
      ])
  }

  /// What a user of training history sees: workouts, sets, exercises (through renames), samples.
  static func history(_ gym: GymProcess) throws -> String {
    try outputs(
      gym,
      [
        [
          "history", "list", "-f", "csv", "--limit", "0", "--sort", "completedAt", "--fields",
          "id,completedAt,status,planTitle,focus,durationMinutes,intensity,notes",
        ],
        ["history", "sets", "-f", "csv", "--limit", "0"], ["history", "exercises", "-f", "csv", "--limit", "0"],
        ["history", "samples", "list", "-f", "csv", "--limit", "0"],
      ])
  }

  /// Every module's lists.
  static func everything(_ gym: GymProcess) throws -> String {
    try pantry(gym) + library(gym) + history(gym)
  }

  static func workoutCount(_ gym: GymProcess) throws -> Int? {
    Int(try gym.run(["history", "count"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// One Strong export, imported on whichever devices: 2 workouts, 3 sets.
  static let strong = """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2025-03-03 07:00:00,Push,45m,Bench Press (Barbell),1,60,8,,0,,,
    2025-03-03 07:00:00,Push,45m,Bench Press (Barbell),2,65,6,,0,,,
    2025-03-05 07:00:00,Pull,50m,Deadlift (Barbell),1,100,5,,0,,,

    """

  /// Samples, imported on whichever devices: 3 of them.
  static let samples = """
    type,start,end,value,unit,source
    steps,2025-03-03T08:00:00Z,2025-03-03T08:10:00Z,500,count,Phone
    heartRate,2025-03-03T08:00:00Z,2025-03-03T08:00:00Z,61,count/min,Watch
    heartRate,2025-03-03T08:01:00Z,2025-03-03T08:01:00Z,64.5,count/min,Watch

    """

  static func readCount(_ gym: GymProcess, _ work: Int64) throws -> Int? {
    let lines = try gym.run(["library", "list", "-f", "tsv", "--fields", "id,readCount", "--limit", "0"])
      .stdoutLines.dropFirst()
    return lines.map { $0.split(separator: "\t") }.first { $0[0] == "\(work)" }.flatMap { Int($0[1]) }
  }

  static func quantity(_ gym: GymProcess, _ item: String) throws -> Double? {
    let lines = try gym.run(["staples", "stock", "-f", "tsv"]).stdoutLines.dropFirst()
    return lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }.first { $0[0] == item }
      .flatMap { Double($0[2]) }
  }

  /// Three devices apart: in the pantry buying, using, cooking, editing the same fields, making and
  /// removing items; in the library finishing books, rating the same ones, adding and removing books,
  /// importing one Goodreads export, setting the year's goal; in history adding workouts, editing
  /// the same fields of one, adding and removing another, importing one Strong export and one file
  /// of samples, renaming an exercise; syncing in random order, some syncs
  /// killed part-way (SIGKILL, at a random moment: listing, fetching, applying or pushing); twice a
  /// compaction, after the first a fourth device starting from the base and working beside them. At
  /// the end every device lists the same pantry, library and history, each item's stock is what the
  /// operations bought less what they took, a recipe counts every cook, a book every finish, the
  /// workouts and samples are those added (an import's once however many devices imported it), a
  /// second sync changes nothing, and a new device that syncs from nothing (the newest base and the
  /// changes after it) lists the same.
  @Test func devicesApartConvergeThroughKillsAndANewDeviceMatches() throws {
    let network = try Network()
    // One seeded sequence for the operations and the kills: GYM_KILL_SEED replays both.
    var random = KillTiming("devicesApartConverge")
    var devices = try ["laptop", "desktop", "server"].map { try network.device($0) }
    let setup = devices[0]
    for item in ["Milk", "Eggs", "Flour"] {
      #expect(
        try setup.run(["staples", "add", item, "--category", "Pantry", "--quantity", "1000", "--unit", "u"]).status == 0
      )
    }
    #expect(
      try setup.run(["staples", "recipe", "add", "Pancakes", "--ingredient", "Milk:2 u", "--ingredient", "Eggs:1 u"])
        .status == 0)
    let books = [("Dune", "Frank Herbert"), ("Emma", "Jane Austen")]
    for (title, author) in books {
      #expect(try setup.run(["library", "add", title, "--author", author]).status == 0)
    }
    let works = books.map { RecordKeys.work($0.0, authors: [$0.1]) }
    // A workout every device edits.
    let shared = "0b5e1c3a-7d42-4e8f-9a61-2c4d8e0f1a23"
    #expect(
      try setup.run([
        "history", "add", "--id", shared, "--plan-title", "Shared", "--focus", "upper", "--duration", "40",
        "--completed-at", "2025-03-01T09:00:00Z",
      ]).status == 0)
    for device in devices { #expect(try device.run(["sync"]).status == 0) }
    var expected: [String: Double] = ["Milk": 1000, "Eggs": 1000, "Flour": 1000]
    var cooks = 0
    var killed = 0
    var finishes = [0, 0]
    var imported = false
    // Workouts: the shared one, each added by a step (an id of its own), the export's two once imported.
    var workouts = 1
    var strongImported = false
    var samplesImported = false
    for step in 0..<96 {
      if step == 32 || step == 64 {
        // A compaction on any device, once all have synced: a base in place of what all hold; at
        // the first, a fourth device starts from it and works beside the others from then on. Two
        // rounds: in one, a device that syncs early says it has applied none of what the devices
        // after it push (made before its own newest change, those hold the cut back); after the
        // second, every device's marker holds every change.
        for _ in 0..<2 {
          for device in devices { #expect(try device.run(["sync"]).status == 0) }
        }
        sleep(2)
        let compact = try devices[Int(random.next() % UInt64(devices.count))].run(
          ["sync", "compact", "--older-than", "1s"])
        #expect(compact.status == 0 && compact.stderr.contains("compacted: "), "\(compact.stderr)")
        if step == 32 {
          let tablet = try network.device("tablet")
          let joined = try tablet.run(["sync"])
          #expect(joined.status == 0 && joined.stderr.contains("from a base of"), "\(joined.stderr)")
          devices.append(tablet)
        }
      }
      let device = devices[Int(random.next() % UInt64(devices.count))]
      let item = ["Milk", "Eggs", "Flour"][Int(random.next() % 3)]
      let book = Int(random.next() % 2)
      switch random.next() % 14 {
      case 0:
        #expect(try device.run(["staples", "buy", item, "3"]).status == 0)
        expected[item]! += 3
      case 1:
        #expect(try device.run(["staples", "use", item, "0.5"] + (step % 2 == 0 ? ["--spoiled"] : [])).status == 0)
        expected[item]! -= 0.5
      case 2:
        #expect(try device.run(["staples", "cook", "Pancakes"]).status == 0)
        expected["Milk"]! -= 2
        expected["Eggs"]! -= 1
        cooks += 1
      case 3:
        #expect(try device.run(["staples", "set", item, "--notes", "note \(step)"]).status == 0)
      case 4:
        // A short-lived item with stock of its own: made, bought, removed, on any device.
        let name = "Temp \(random.next() % 2)"
        if try device.run(["staples", "show", name]).status == 0 {
          #expect(try device.run(["staples", "remove", name]).status == 0)
        } else {
          #expect(try device.run(["staples", "add", name, "--category", "Temp", "--unit", "u"]).status == 0)
          #expect(try device.run(["staples", "buy", name, "2"]).status == 0)
        }
      case 5 where step % 4 == 1:
        // An import: the same items, made on whichever devices import them, are one each.
        let file = try device.write("items.csv", "name,category,notes\nSalt,Spices,fine\nPepper,Spices,\n")
        #expect(try device.run(["staples", "import", file]).status == 0)
      case 6:
        // A read on a day of its own (step days into 2025): a reading of its own on every device.
        var day = DateComponents()
        day.year = 2025
        day.month = 1
        day.day = 1 + step
        let date = Calendar(identifier: .gregorian).date(from: day)!
        let text = String(ISO8601DateFormatter().string(from: date).prefix(10))
        let finished = try device.run(["library", "finish", "\(works[book])", "--date", text])
        #expect(finished.status == 0, "\(finished.stderr)")
        finishes[book] += 1
      case 7:
        #expect(try device.run(["library", "set", "\(works[book])", "--rating", "\(1 + step % 5)"]).status == 0)
        #expect(try device.run(["library", "goal", "\(10 + step)", "--year", "2025"]).status == 0)
      case 8:
        // A short-lived book: added, removed (its author with it), on any device.
        let title = "Temp Book \(random.next() % 2)"
        let id = RecordKeys.work(title, authors: ["Tem Porary"])
        if try device.run(["library", "show", "\(id)"]).status == 0 {
          #expect(try device.run(["library", "remove", "\(id)"]).status == 0)
        } else {
          #expect(try device.run(["library", "add", title, "--author", "Tem Porary", "--pages", "100"]).status == 0)
        }
      case 9 where step % 4 == 3:
        // One Goodreads export, imported on whichever devices: its books and readings are one each.
        let file = try device.write("goodreads.csv", LibraryCommandTests.goodreads)
        #expect(try device.run(["library", "import", "goodreads", file]).status == 0)
        imported = true
      case 10:
        // A workout of its own, on a day of its own.
        let id = String(format: "5e55a0a0-0000-4000-8000-%012d", step)
        let added = try device.run([
          "history", "add", "--id", id, "--plan-title", "Session \(step)", "--focus", "cardio", "--duration",
          "\(20 + step)", "--completed-at", String(format: "2025-04-%02dT07:30:00Z", 1 + step % 28),
        ])
        #expect(added.status == 0, "\(added.stderr)")
        workouts += 1
      case 11 where step % 2 == 0:
        // The same Strong export on whichever devices: its workouts and sets are one each.
        let file = try device.write("strong.csv", Self.strong)
        let result = try device.run(["history", "import", file, "--from", "strong", "--weight-unit", "kg", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        if !strongImported { workouts += 2 }
        strongImported = true
      case 11:
        // The same samples on whichever devices: one each.
        let file = try device.write("samples.csv", Self.samples)
        #expect(try device.run(["history", "samples", "import", file, "-q"]).status == 0)
        samplesImported = true
      case 12:
        // The same fields of one workout edited apart; an exercise renamed apart: the later wins.
        let edited = try device.run([
          "history", "set", shared, "--notes", "note \(step)", "--duration", "\(30 + step)",
        ])
        #expect(edited.status == 0, "\(edited.stderr)")
        // Only where the export's deadlift has arrived (imported or synced here).
        let sets = try device.run(["history", "sets", "-f", "csv", "--fields", "exercise", "--limit", "0"]).stdout
        if sets.contains("Deadlift") {
          let renamed = try device.run([
            "history", "exercises", "rename", "Deadlift (Barbell)", "Deadlift \(step)", "-q",
          ])
          #expect(renamed.status == 0, "\(renamed.stderr)")
        }
      case 13:
        // A short-lived workout: added, removed, on any device.
        let id = "7e3a0000-0000-4000-8000-000000000001"
        if try device.run(["history", "show", id]).status == 0 {
          #expect(try device.run(["history", "remove", id]).status == 0)
        } else {
          #expect(
            try device.run([
              "history", "add", "--id", id, "--plan-title", "Temp", "--focus", "core", "--duration", "10",
              "--completed-at", "2025-03-02T10:00:00Z",
            ]).status == 0)
        }
      default:
        // A sync, killed part-way one time in three.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: GymProcess.executable)
        process.arguments = ["sync"]
        process.environment = device.environment
        process.currentDirectoryURL = URL(fileURLWithPath: device.directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if random.next() % 3 == 0 {
          usleep(random.microseconds(in: 1_000...150_000))
          kill(process.processIdentifier, SIGKILL)
          killed += 1
        }
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus == 0)
      }
    }
    for _ in 0..<2 {
      for device in devices { #expect(try device.run(["sync"]).status == 0) }
    }
    let lists = try Self.everything(devices[0])
    for device in devices.dropFirst() {
      #expect(try Self.everything(device) == lists, "seed \(random.seed)")
    }
    // Whether the short-lived workout is there is whatever the last add or remove made it.
    let temporary = try devices[0].run(["history", "show", "7e3a0000-0000-4000-8000-000000000001"]).status == 0
    #expect(try Self.workoutCount(devices[0]) == workouts + (temporary ? 1 : 0), "seed \(random.seed)")
    let sampleLines = try devices[0].run(["history", "samples", "count"]).stdout
    #expect(sampleLines.trimmingCharacters(in: .whitespacesAndNewlines) == (samplesImported ? "3" : "0"))
    for (work, count) in zip(works, finishes) {
      #expect(try Self.readCount(devices[0], work) == count, "seed \(random.seed): \(work)")
    }
    // Gideon the Ninth: the export's one reading, however many devices imported it.
    #expect(try Self.readCount(devices[0], RecordKeys.work(goodreadsId: 42_944_564)) == (imported ? 1 : nil))
    for (item, quantity) in expected {
      #expect(try Self.quantity(devices[0], item) == quantity, "seed \(random.seed): \(item)")
    }
    let recipes = try devices[0].run(["staples", "recipes", "-f", "tsv", "--fields", "name,usageCount"]).stdout
    #expect(recipes.contains("Pancakes\t\(cooks)\n"), "\(recipes)")
    // Again: nothing to pull or push, the same lists.
    for device in devices {
      let again = try device.run(["sync"])
      #expect(again.status == 0)
      #expect(again.stderr.contains("pulled 0 change(s), pushed 0"), "\(again.stderr)")
      #expect(try Self.everything(device) == lists)
    }
    let fresh = try network.device("new-phone")
    #expect(try fresh.run(["sync"]).status == 0)
    #expect(try Self.everything(fresh) == lists)
    print("devicesApartConverge: \(killed) sync(s) killed")
  }

  /// A library whose rows share their keys' parts (a book added twice more with --allow-duplicate,
  /// three reads finished on one day, books read twice without dates) begins syncing: the first sync
  /// keys every row without two meeting. An id from a file of an older database (1) is not a key, so
  /// two devices importing "work 1" keep two books.
  @Test func keysThatShareTheirPartsBeginSyncingAndOldIdsStayApart() throws {
    let network = try Network()
    let alpha = try network.device("alpha")
    for extra in [[], ["--allow-duplicate"], ["--allow-duplicate"]] {
      #expect(try alpha.run(["library", "add", "Dune", "--author", "Frank Herbert"] + extra).status == 0)
    }
    let dune = RecordKeys.work("Dune", authors: ["Frank Herbert"])
    for _ in 0..<3 { #expect(try alpha.run(["library", "finish", "\(dune)", "--date", "2025-02-01"]).status == 0) }
    let twice = (1...5).map { #"{"title":"Book \#($0)","authors":"Some One","status":"read","readCount":2}"# }
    #expect(
      try alpha.run(["library", "import", "gym", try alpha.write("twice.ndjson", twice.joined(separator: "\n") + "\n")])
        .status == 0)
    let old = #"{"id":1,"title":"Alpha Book","authors":"Ann A"}"# + "\n"
    #expect(try alpha.run(["library", "import", "gym", try alpha.write("old.ndjson", old)]).status == 0)
    let first = try alpha.run(["sync"])
    #expect(first.status == 0, "\(first.stderr)")
    let beta = try network.device("beta")
    let other = #"{"id":1,"title":"Beta Book","authors":"Bob B"}"# + "\n"
    #expect(try beta.run(["library", "import", "gym", try beta.write("old.ndjson", other)]).status == 0)
    for device in [beta, alpha, beta] { #expect(try device.run(["sync"]).status == 0) }
    #expect(try Self.library(alpha) == Self.library(beta))
    let books = try alpha.run(["library", "list", "-f", "tsv", "--fields", "title,authors", "--limit", "0"]).stdout
    #expect(books.contains("Alpha Book\tAnn A\n") && books.contains("Beta Book\tBob B\n"), "\(books)")
    #expect(try Self.readCount(beta, dune) == 3)
    #expect(try Self.readCount(beta, RecordKeys.work("Book 1", authors: ["Some One"])) == 2)
  }

  /// `sync status`: each device's changes here, what waits to be pushed, and with `--incoming` what
  /// waits on the remote to be pulled, devices not heard of yet included.
  @Test func statusCountsWhatWaitsEachWay() throws {
    let network = try Network()
    let laptop = try network.device("laptop")
    #expect(try laptop.run(["staples", "add", "Milk", "--category", "Dairy"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)  // change 1: the pantry as it was
    let desktop = try network.device("desktop")
    #expect(try desktop.run(["sync"]).status == 0)
    for item in ["Eggs", "Rice"] {
      #expect(try laptop.run(["staples", "add", item, "--category", "Pantry"]).status == 0)
    }
    #expect(try laptop.run(["sync"]).status == 0)  // changes 2 and 3
    #expect(try desktop.run(["staples", "add", "Tea", "--category", "Pantry"]).status == 0)
    let phone = try network.device("phone")
    #expect(try phone.run(["staples", "add", "Oats", "--category", "Pantry"]).status == 0)
    #expect(try phone.run(["sync"]).status == 0)  // phone's change 1 (its pantry)
    // Each row without its times (when the device last synced, its latest change).
    func rows(_ result: GymProcess.Result) -> [String] {
      result.stdoutLines.map {
        let cells = $0.split(separator: ",", omittingEmptySubsequences: false)
        return (cells[0..<5] + [cells[6]]).joined(separator: ",")
      }
    }
    let status = try desktop.run(["sync", "status", "--incoming", "-f", "csv"])
    #expect(status.status == 0, "\(status.stderr)")
    // desktop: its own Tea (1 change, not pushed); laptop: 1 held, 2 waiting; phone: 0 held, 1 waiting.
    // What each applied, by its own marker: desktop synced once, after laptop's 1: laptop's 2 and 3 and
    // phone's 1 are behind it (3); laptop last synced before phone pushed: phone's 1 (1); phone synced
    // last, after all of laptop's: 0 (desktop has pushed nothing).
    #expect(
      rows(status) == [
        "device,self,changes,pending,incoming,behind", "desktop,true,1,1,0,3", "laptop,false,1,0,2,1",
        "phone,false,0,0,1,0",
      ], "\(status.stdout)")
    #expect(
      status.stdoutLines.dropFirst().allSatisfy {
        $0.split(separator: ",", omittingEmptySubsequences: false)[5].hasPrefix("20")
      }, "\(status.stdout)")
    // Without --incoming no remote is asked: the remote's columns are empty.
    let local = try desktop.run(["sync", "status", "-f", "csv"])
    #expect(
      rows(local) == ["device,self,changes,pending,incoming,behind", "desktop,true,1,1,,", "laptop,false,1,0,,"],
      "\(local.stdout)")
    // An identity given that cannot be read is an error (66), in one line, as for `gym sync`;
    // none given: the listing still, what each applied left empty, a note.
    let unreadable = try desktop.run(
      ["sync", "status", "--incoming", "-f", "csv"], environment: ["GYM_SYNC_IDENTITY": laptop.directory + "/none"])
    #expect(unreadable.status == 66 && unreadable.stdout.isEmpty, "\(unreadable.stderr)")
    #expect(unreadable.stderr == "gym: error: cannot read the identity file '\(laptop.directory)/none'\n")
    var bare = desktop
    bare.environment["GYM_SYNC_IDENTITY"] = nil
    let keyless = try bare.run(["sync", "status", "--incoming", "-f", "csv"])
    #expect(keyless.status == 0 && keyless.stderr.contains("what each device has applied was not read"))
    #expect(rows(keyless).dropFirst().allSatisfy { $0.hasSuffix(",") }, "\(keyless.stdout)")
    // A marker is written again at every sync, even one of the same size on a remote whose times
    // match within an hour (rclone would skip it as unchanged): laptop's `synced` moves on.
    func synced(_ device: String) throws -> String {
      let line = try desktop.run(["sync", "status", "--incoming", "-f", "csv"]).stdoutLines
        .first { $0.hasPrefix(device + ",") }
      return String(try #require(line).split(separator: ",", omittingEmptySubsequences: false)[5])
    }
    #expect(try laptop.run(["sync"]).status == 0)  // pulls phone's 1: {laptop: 3, phone: 1}
    let before = try synced("laptop")
    sleep(1)
    #expect(try laptop.run(["staples", "add", "Salt", "--category", "Pantry"]).status == 0)
    #expect(try laptop.run(["sync"], environment: ["RCLONE_MODIFY_WINDOW": "1h"]).status == 0)  // {laptop: 4, …}
    #expect(try synced("laptop") > before)
    // A remote that takes no rewrite (immutable): the sync is done all the same, and says so.
    #expect(try laptop.run(["staples", "add", "Pepper", "--category", "Pantry"]).status == 0)
    let immutable = try laptop.run(["sync"], environment: ["RCLONE_IMMUTABLE": "true"])
    #expect(immutable.status == 0, "\(immutable.stderr)")
    #expect(immutable.stderr.contains("pushed 1; its applied marker was not written"), "\(immutable.stderr)")
  }

  /// A new device's first sync that fails (a remote that answers nothing, 75; a device name another
  /// device has, 78) leaves no database behind: the path is as it was, and the next try begins afresh.
  @Test func aFirstSyncThatFailsLeavesNoDatabase() throws {
    let network = try Network()
    let first = try network.device("laptop")
    #expect(try first.run(["staples", "add", "Milk", "--category", "Dairy", "-q"]).status == 0)
    #expect(try first.run(["sync"]).status == 0)
    var unreachable = try network.device("phone")
    unreachable.environment["GYM_SYNC_REMOTE"] = ":webdav,url=\"http://127.0.0.1:9/\":gym"
    let refused = try unreachable.run(["sync"])
    #expect(refused.status == 75, "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: unreachable.databasePath), "\(refused.stderr)")
    let taken = try network.device("laptop")
    let named = try taken.run(["sync"])
    #expect(named.status == 78, "\(named.stderr)")
    #expect(!FileManager.default.fileExists(atPath: taken.databasePath))
    #expect(!named.stderr.contains("created database"))
    // A first sync that did its work and then meets a change file it refuses (65): the device has
    // begun, its marker is on the remote, and its database is kept for the next sync to carry on.
    let change = try #require(
      try FileManager.default.subpathsOfDirectory(atPath: network.remote).first { $0.hasSuffix(".changeset.age") })
    let changePath = network.remote + "/" + change
    let whole = try Data(contentsOf: URL(fileURLWithPath: changePath))
    try whole.prefix(300).write(to: URL(fileURLWithPath: changePath))
    let tablet = try network.device("tablet")
    let refusedFile = try tablet.run(["sync"])
    #expect(refusedFile.status == 65, "\(refusedFile.stderr)")
    #expect(FileManager.default.fileExists(atPath: tablet.databasePath))
    try whole.write(to: URL(fileURLWithPath: changePath))
    #expect(try tablet.run(["sync"]).status == 0)
    let phone = try network.device("phone")
    let began = try phone.run(["sync"])
    #expect(began.status == 0, "\(began.stderr)")
    #expect(began.stderr.contains(phone.createdNote.dropLast()))
    #expect(
      try phone.run(["staples", "list", "--all", "-f", "ndjson", "--fields", "name"]).stdout == "{\"name\":\"Milk\"}\n")
  }

  /// `gym import --merge` into a synced database would add rows no other device ever receives: it is
  /// refused (64) before the export is read, and nothing is added.
  @Test func anImportIntoASyncedDatabaseIsRefused() throws {
    let network = try Network()
    let source = try GymProcess()
    #expect(try source.run(["staples", "add", "Eggs", "--category", "Dairy", "-q"]).status == 0)
    let exports = source.directory + "/exports"
    let made = try source.run(["export", "create", "--out", exports, "--no-remote", "-q"])
    #expect(made.status == 0, "\(made.stderr)")
    let export = exports + "/" + (try FileManager.default.contentsOfDirectory(atPath: exports).first ?? "")
    let laptop = try network.device("laptop")
    #expect(try laptop.run(["staples", "add", "Milk", "--category", "Dairy", "-q"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)
    let refused = try laptop.run(["import", export, "--merge"])
    #expect(refused.status == 64, "\(refused.stderr)")
    #expect(refused.stderr.contains("syncs as device 'laptop'"), "\(refused.stderr)")
    let items = try laptop.run(["staples", "list", "--all", "-f", "csv", "--fields", "name"]).stdoutLines
    #expect(items == ["name", "Milk"], "\(items)")
  }

  /// A device given another key than the others finds not one of their files it can open: it stops
  /// (65) before it begins or pushes anything, so the others are never blocked by files they cannot open.
  @Test func aDeviceWithAnotherKeyPushesNothing() throws {
    let network = try Network()
    let laptop = try network.device("laptop")
    #expect(try laptop.run(["staples", "add", "Milk", "--category", "Dairy", "-q"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)
    var stranger = try network.device("stranger")
    let other = stranger.directory + "/other.key"
    try Network.makeKey(other)
    stranger.environment["GYM_SYNC_IDENTITY"] = other
    #expect(try stranger.run(["staples", "add", "Tea", "--category", "Drinks", "-q"]).status == 0)
    let refused = try stranger.run(["sync"])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("opens with this identity"), "\(refused.stderr)")
    let devices = try FileManager.default.contentsOfDirectory(atPath: network.remote + "/gym-sync")
    #expect(!devices.contains("stranger"), "\(devices)")
    #expect(try laptop.run(["sync"]).status == 0)
  }

  /// A device that began syncing with the shared key and is then given another would push files
  /// that no other device opens: refused (78) before anything changes, whether its key was recorded
  /// at its first sync or (a device that began before keys were recorded) is checked against its own
  /// newest file on the remote, or another device's when it has none. Given the shared key again, it syncs.
  /// A device name edited in the database (`../../esc`) never reaches rclone: refused as a
  /// configured one is, nothing written on the remote or beside it.
  @Test func aDeviceNameEditedInTheDatabaseIsRefused() throws {
    let network = try Network()
    let laptop = try network.device("laptop")
    #expect(try laptop.run(["staples", "add", "Milk", "--category", "Dairy", "-q"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)
    let before = try FileManager.default.subpathsOfDirectory(atPath: network.remote).sorted()
    let database = try DatabaseQueue(path: laptop.databasePath)
    try database.write {
      try $0.execute(sql: "UPDATE sync_device SET device = '../../esc'")
      try $0.execute(sql: "UPDATE sync_change SET device = '../../esc'")
    }
    try database.close()
    #expect(try laptop.run(["staples", "add", "Tea", "--category", "Drinks", "-q"]).status == 0)
    let refused = try laptop.run(["sync"])
    #expect(refused.status == 78, "\(refused.stderr)")
    #expect(refused.stderr.contains("sync device name '../../esc' may hold only"), "\(refused.stderr)")
    #expect(try FileManager.default.subpathsOfDirectory(atPath: network.remote).sorted() == before)
    let parent = (network.remote as NSString).deletingLastPathComponent
    #expect(!FileManager.default.fileExists(atPath: parent + "/esc"))
    #expect(!FileManager.default.fileExists(atPath: (parent as NSString).deletingLastPathComponent + "/esc"))
  }

  /// A change file rclone did not put on the remote (here: skipped by `RCLONE_MAX_SIZE`) is a
  /// failure that may pass, exit 75, as its message says; not a configuration error (78).
  @Test func aFileTheRemoteDidNotTakeIsTriedAgain() throws {
    let network = try Network()
    let laptop = try network.device("laptop")
    #expect(try laptop.run(["staples", "add", "Milk", "--category", "Dairy", "-q"]).status == 0)
    let skipped = try laptop.run(["sync"], environment: ["RCLONE_MAX_SIZE": "10B"])
    #expect(skipped.status == 75, "\(skipped.stderr)")
    #expect(skipped.stderr.contains("is not on the remote after rclone copied it"), "\(skipped.stderr)")
    #expect(try laptop.run(["sync"]).status == 0)
  }

  @Test func aDeviceWhoseKeyChangedPushesNothing() throws {
    let network = try Network()
    var laptop = try network.device("laptop")
    #expect(try laptop.run(["staples", "add", "Milk", "--category", "Dairy", "-q"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)
    let folder = network.remote + "/gym-sync/laptop"
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    let other = laptop.directory + "/other.key"
    try Network.makeKey(other)
    laptop.environment["GYM_SYNC_IDENTITY"] = other
    #expect(try laptop.run(["staples", "add", "Tea", "--category", "Drinks", "-q"]).status == 0)
    let refused = try laptop.run(["sync"])
    #expect(refused.status == 78, "\(refused.stderr)")
    #expect(refused.stderr.contains("this device began syncing with the identity whose recipient is age1"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files)
    // As a device that began before keys were recorded: its own newest file decides.
    let database = try DatabaseQueue(path: laptop.databasePath)
    try database.write { try $0.execute(sql: "UPDATE sync_device SET recipient = NULL") }
    try database.close()
    let unrecorded = try laptop.run(["sync"])
    #expect(unrecorded.status == 78, "\(unrecorded.stderr)")
    #expect(unrecorded.stderr.contains("laptop/000000000001.changeset.age does not open with the key this device"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files)
    laptop.environment["GYM_SYNC_IDENTITY"] = network.identity
    #expect(try laptop.run(["sync"]).status == 0)
    var phone = try network.device("phone")
    #expect(try phone.run(["sync"]).status == 0)
    #expect(try phone.run(["staples", "list", "--all", "-f", "tsv", "--fields", "name"]).stdout == "name\nMilk\nTea\n")
    // The phone began holding nothing, so it has no change file of its own (only its applied
    // marker): as a device from before recording, the laptop's newest file decides.
    let phoneFolder = network.remote + "/gym-sync/phone"
    let phoneFiles = try FileManager.default.contentsOfDirectory(atPath: phoneFolder).sorted()
    #expect(phoneFiles == ["applied.age"])
    let phoneDatabase = try DatabaseQueue(path: phone.databasePath)
    try phoneDatabase.write { try $0.execute(sql: "UPDATE sync_device SET recipient = NULL") }
    try phoneDatabase.close()
    phone.environment["GYM_SYNC_IDENTITY"] = other
    #expect(try phone.run(["staples", "add", "Rice", "--category", "Pantry", "-q"]).status == 0)
    let stranger = try phone.run(["sync"])
    #expect(stranger.status == 78, "\(stranger.stderr)")
    #expect(stranger.stderr.contains("/gym-sync/laptop/"), "\(stranger.stderr)")
    #expect(stranger.stderr.contains("does not open with the key this device would push to"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: phoneFolder).sorted() == phoneFiles)
  }

  /// `sync compact`: refused (75) while a device has not said what it applied; then a base in place
  /// of every change all devices hold (their files removed, nothing readable), a new device starting
  /// from it, a later change reaching every device; a database that began before the compaction but
  /// never reached the remote lacks changes the base removed: refused (65), nothing changed.
  @Test func aCompactionLeavesABaseThatANewDeviceStartsFrom() throws {
    let network = try Network()
    let laptop = try network.device("laptop")
    let phone = try network.device("phone")
    #expect(
      try laptop.run(["staples", "add", "Milk", "--category", "Dairy", "--quantity", "2", "--unit", "l"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)  // laptop 1
    #expect(try phone.run(["sync"]).status == 0)
    // A backup of phone before it made a change: restored after the compaction, below.
    let backup = phone.directory + "/backup.sqlite"
    try FileManager.default.copyItem(atPath: phone.databasePath, toPath: backup)
    #expect(try phone.run(["staples", "buy", "Milk", "1"]).status == 0)
    #expect(try phone.run(["sync"]).status == 0)  // phone 1
    // A database that begins and pulls, but whose push fails: the remote holds a file where its
    // folder would go.
    let stray = try network.device("stray")
    #expect(try stray.run(["staples", "add", "Salt", "--category", "Pantry"]).status == 0)
    try Data().write(to: URL(fileURLWithPath: network.remote + "/gym-sync/stray"))
    #expect(try stray.run(["sync"]).status == 75)
    try FileManager.default.removeItem(atPath: network.remote + "/gym-sync/stray")
    #expect(try laptop.run(["staples", "use", "Milk", "0.5"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)  // laptop 2
    #expect(try laptop.run(["staples", "set", "Milk", "--notes", "semi-skimmed"]).status == 0)
    for device in [laptop, phone, laptop] { #expect(try device.run(["sync"]).status == 0) }  // laptop 3
    // phone says nothing of what it applied: no compaction.
    let marker = network.remote + "/gym-sync/phone/applied.age"
    let saved = try Data(contentsOf: URL(fileURLWithPath: marker))
    try FileManager.default.removeItem(atPath: marker)
    let waiting = try laptop.run(["sync", "compact", "--older-than", "1s"])
    #expect(waiting.status == 75, "\(waiting.stderr)")
    #expect(waiting.stderr.contains("'phone' has not said what it has applied yet"), "\(waiting.stderr)")
    try saved.write(to: URL(fileURLWithPath: marker))
    sleep(2)
    let compact = try laptop.run(["sync", "compact", "--older-than", "1s"])
    #expect(compact.status == 0, "\(compact.stderr)")
    // Every change of laptop's (1 to 3) and phone's (1): both hold them all, all older than a
    // second. Each device's newest file stays (the remote keeps saying how far each got): laptop's
    // first two files go.
    #expect(compact.stderr.contains("stands for 4 change(s) of 2 device(s); removed 2 file(s)"), "\(compact.stderr)")
    let left = try FileManager.default.subpathsOfDirectory(atPath: network.remote + "/gym-sync").sorted()
    let bases = left.filter { $0.hasPrefix(".base/") && $0.hasSuffix(".base.age") }
    #expect(bases.count == 1, "\(left)")
    #expect(
      left.filter { $0.hasSuffix(".changeset.age") } == [
        "laptop/000000000003.changeset.age", "phone/000000000001.changeset.age",
      ], "\(left)")
    let base = try Data(contentsOf: URL(fileURLWithPath: network.remote + "/gym-sync/" + bases[0]))
    #expect(base.starts(with: Data("age-encryption.org/v1\n".utf8)) && base.range(of: Data("Milk".utf8)) == nil)
    // A new device starts from the base: 2 + 1 − 0.5 = 2.5 l.
    let desktop = try network.device("desktop")
    let joined = try desktop.run(["sync"])
    #expect(joined.status == 0 && joined.stderr.contains("from a base of"), "\(joined.stderr)")
    #expect(try Self.quantity(desktop, "Milk") == 2.5)
    // A change after the base reaches everyone, the new device included: 2.5 + 4 = 6.5 l.
    #expect(try phone.run(["staples", "buy", "Milk", "4"]).status == 0)
    for device in [phone, desktop, laptop] { #expect(try device.run(["sync"]).status == 0) }
    for device in [laptop, phone, desktop] { #expect(try Self.quantity(device, "Milk") == 6.5) }
    #expect(try Self.pantry(desktop) == Self.pantry(laptop))
    // The stray database holds laptop 1 alone; the base removed laptop 2, which it lacks.
    let before = try HeldLockTests.contents(stray.databasePath)
    let refused = try stray.run(["sync"])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("is no longer on the remote and this database lacks it"), "\(refused.stderr)")
    #expect(try HeldLockTests.contents(stray.databasePath) == before)
    // phone's backup, put back and written to: its change 1 again, with other contents. The remote
    // still shows phone's change 1: refused (65), the remote as it was.
    try FileManager.default.removeItem(atPath: phone.databasePath)
    try FileManager.default.copyItem(atPath: backup, toPath: phone.databasePath)
    #expect(try phone.run(["staples", "add", "Rice", "--category", "Pantry"]).status == 0)
    let restored = try phone.run(["sync"])
    #expect(restored.status == 65, "\(restored.stderr)")
    #expect(try Self.pantry(desktop) == Self.pantry(laptop))
    // Nothing older than an hour that the base does not hold: no new base.
    let again = try laptop.run(["sync", "compact"])
    #expect(again.status == 0 && again.stderr.contains("nothing new to compact"), "\(again.stderr)")
  }

  /// A database restored from a backup (or copied) after it synced makes changes under sequence
  /// numbers the remote holds already: refused (65) before anything is overwritten; a change the
  /// remote holds that is this one (a sync stopped before marking it) is only marked.
  @Test func aRestoredDatabaseNeverOverwritesTheRemote() throws {
    let network = try Network()
    let laptop = try network.device("laptop")
    #expect(try laptop.run(["staples", "add", "Milk", "--category", "Dairy"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)
    let backup = laptop.directory + "/backup.sqlite"
    // gym checkpoints and removes the write-ahead log when it closes: the file is the whole database.
    try FileManager.default.copyItem(atPath: laptop.databasePath, toPath: backup)
    #expect(try laptop.run(["staples", "add", "Eggs", "--category", "Dairy"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)
    let file = network.remote + "/gym-sync/laptop/000000000002.changeset.age"
    let pushed = try Data(contentsOf: URL(fileURLWithPath: file))
    // Back to the backup: its next change is number 2 again, with other contents.
    try FileManager.default.removeItem(atPath: laptop.databasePath)
    try FileManager.default.copyItem(atPath: backup, toPath: laptop.databasePath)
    #expect(try laptop.run(["staples", "add", "Rice", "--category", "Pantry"]).status == 0)
    let refused = try laptop.run(["sync"])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("the remote holds another change 2 of 'laptop'"), "\(refused.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == pushed)
    // A new device still gets Milk and Eggs, never Rice.
    let desktop = try network.device("desktop")
    #expect(try desktop.run(["sync"]).status == 0)
    let items = try desktop.run(["staples", "list", "--all", "-f", "tsv", "--fields", "name"]).stdout
    #expect(items == "name\nEggs\nMilk\n")
  }

  /// A remote that fails is exit 75, and the database is as it was (not even begun); a change file
  /// damaged on the remote is refused (65) and named, and every other one still applies.
  @Test func aDeadRemoteChangesNothingAndADamagedFileIsRefusedAlone() throws {
    let network = try Network()
    let laptop = try network.device("laptop")
    #expect(
      try laptop.run(["staples", "add", "Milk", "--category", "Dairy", "--quantity", "2", "--unit", "l"]).status == 0)
    let before = try HeldLockTests.contents(laptop.databasePath)
    // Without a key, or with a file that holds none, nothing is read or written.
    var bare = laptop
    bare.environment.removeValue(forKey: "GYM_SYNC_IDENTITY")
    let keyless = try bare.run(["sync"])
    #expect(keyless.status == 78)
    #expect(
      keyless.stderr.hasPrefix("gym: error: sync encrypts every change: pass --identity FILE"), "\(keyless.stderr)")
    let empty = try laptop.write("empty.key", "# no key here\n")
    #expect(try laptop.run(["sync", "--identity", empty]).status == 78)
    #expect(try HeldLockTests.contents(laptop.databasePath) == before)
    #expect(!FileManager.default.fileExists(atPath: network.remote + "/gym-sync"))
    // Nothing listens on port 1: rclone's connection is refused at once.
    let config = try laptop.write("rclone.conf", "[dead]\ntype = http\nurl = http://127.0.0.1:1/\n")
    let dead = try laptop.run(["sync", "--remote", "dead:gym"], environment: ["RCLONE_CONFIG": config])
    #expect(dead.status == 75, "\(dead.stderr)")
    #expect(dead.stderr.hasPrefix("gym: error: sync through 'dead:gym' failed"), "\(dead.stderr)")
    #expect(try HeldLockTests.contents(laptop.databasePath) == before)

    #expect(try laptop.run(["sync"]).status == 0)
    // A sync pushes one file of every change since the last, named by the last: buying and adding
    // (changes 2 and 3) before one sync make 000000000003 alone.
    #expect(try laptop.run(["staples", "buy", "Milk", "1"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)
    #expect(
      try laptop.run(["staples", "add", "Eggs", "--category", "Dairy", "--quantity", "6", "--unit", "pcs"]).status == 0)
    #expect(try laptop.run(["staples", "add", "Salt", "--category", "Pantry"]).status == 0)
    #expect(try laptop.run(["sync"]).status == 0)
    let files = try FileManager.default.contentsOfDirectory(atPath: network.remote + "/gym-sync/laptop").sorted()
    #expect(
      files == [
        "000000000001.changeset.age", "000000000002.changeset.age", "000000000004.changeset.age", "applied.age",
      ])
    // Nothing on the remote is readable without the key: no item name in any file.
    for file in files {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: network.remote + "/gym-sync/laptop/" + file))
      #expect(bytes.starts(with: Data("age-encryption.org/v1\n".utf8)))
      #expect(bytes.range(of: Data("Milk".utf8)) == nil)
    }
    // One byte of the second file's payload changed: age's MAC refuses it.
    let damaged = network.remote + "/gym-sync/laptop/000000000002.changeset.age"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
    bytes[bytes.count - 20] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: damaged))
    let desktop = try network.device("desktop")
    let refused = try desktop.run(["sync"])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(
      refused.stderr.contains("refused \(network.remote)/gym-sync/laptop/000000000002.changeset.age"),
      "\(refused.stderr)")
    // The first and third files applied: Milk's first 2 l, Eggs and Salt, not the litre bought in the second.
    #expect(try Self.quantity(desktop, "Milk") == 2)
    #expect(try Self.quantity(desktop, "Eggs") == 6)
    #expect(
      try desktop.run(["staples", "list", "--all", "-f", "tsv", "--fields", "name"]).stdout
        == "name\nEggs\nMilk\nSalt\n")
  }
}
