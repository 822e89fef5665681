import Foundation
import GRDB
import Testing

/// `gym staples` end to end, including two processes writing at once.
@Suite struct StaplesCommandTests {
  @Test func seedListAndCategories() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["staples", "seed"]).status == 0)
    let again = try gym.run(["staples", "seed"])
    #expect(again.status == 65)
    #expect(again.stderr.contains("Pass --force"))
    #expect(try gym.run(["staples", "seed", "--force"]).status == 0)
    let dairy = try gym.run(["staples", "--category", "dairy", "--format", "csv", "--fields", "name"])
    #expect(dairy.stdoutLines == ["name", "Butter", "Eggs", "Milk", "Parmesan"])
    let typo = try gym.run(["staples", "--category", "Diary"])
    #expect(typo.status == 66)
    #expect(typo.stderr == "gym: error: no category 'Diary'; did you mean 'Dairy'?\n")
    let categories = try gym.run(["staples", "categories", "--format", "csv"])
    #expect(categories.stdoutLines.contains("Dairy,6,4"))
  }

  @Test func recipesCookingAndTheShoppingList() throws {
    let gym = try GymProcess()
    try gym.run(["staples", "seed"])
    #expect(try gym.run(["staples", "cook", "omelette"]).stderr == "cooked 'omelette' (21 times)\n")
    let top = try gym.run([
      "staples", "recipes", "--most-used", "--limit", "2", "--format", "csv", "--fields", "name,usageCount",
    ])
    #expect(top.stdoutLines == ["name,usageCount", "Porridge,30", "Omelette,21"])
    let list = try gym.run(["staples", "shopping-list", "Guacamole", "--format", "csv"])
    #expect(list.stdoutLines.first == "category,item,amount,unit,for")
    #expect(list.stdout.contains("Produce,Avocados,2,pcs,Guacamole"))
    let show = try gym.run(["staples", "recipe", "show", "Hummus", "--format", "json"])
    #expect(show.status == 0)
    #expect(show.stdout.contains("\"name\":\"Hummus\""))
    #expect(show.stdout.contains("\"item\":\"Chickpeas\""))
  }

  @Test func badInputIsOneLineAndWritesNothing() throws {
    let gym = try GymProcess()
    try gym.run(["staples", "seed"])
    let before = try Data(contentsOf: URL(fileURLWithPath: gym.databasePath))
    let cases: [([String], Int32, String)] = [
      (["staples", "add", "   ", "--category", "Dairy"], 64, "the item name is empty"),
      (
        ["staples", "add", "Kefir", "--category", "Dairy", "--quantity", "lots"], 64,
        "'lots' is invalid for '--quantity"
      ),
      (["staples", "add", "Kefir"], 64, "is a new item: give it a --category"),
      (
        ["staples", "recipe", "add", "Toast", "--ingredient", "Jam"], 65,
        "no item named 'Jam'; add it first or pass --create-missing"
      ),
      (["staples", "recipe", "add", "Toast", "--ingredient", "Bread:some"], 64, "'some' is not an amount"),
      (["staples", "recipes", "--popular"], 64, "Unknown option '--popular'"),
      (["staples", "cook", "Soup"], 66, "no recipe named 'Soup'"),
      (["staples", "remove", "Eggs"], 65, "'Eggs' is an ingredient of Omelette, Pancakes"),
    ]
    for (arguments, status, message) in cases {
      let result = try gym.run(arguments)
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix("gym: error: ") && result.stderr.contains(message), "\(result.stderr)")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: gym.databasePath)) == before, "nothing was written")
  }

  /// Two processes cooking the same recipe 200 times each: every cook counts.
  @Test func concurrentCooksAreNeverLost() throws {
    let gym = try GymProcess()
    try gym.run(["staples", "recipe", "add", "Toast"])
    let loop = "for i in $(seq 200); do \"$GYM\" staples cook Toast 2>/dev/null || exit 1; done"
    let workers = try (0..<2).map { _ in try shell(loop, gym) }
    for worker in workers { worker.waitUntilExit() }
    #expect(workers.allSatisfy { $0.terminationStatus == 0 })
    let count = try gym.run(["staples", "recipes", "--format", "csv", "--fields", "usageCount"]).stdoutLines.last
    #expect(count == "400")
  }

  /// Two processes cooking 100 times each from a stock of exactly 200 servings: 200 cooks, stock 0,
  /// never below; the next cook is refused.
  @Test func concurrentCooksNeverTakeTheSameLotTwice() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["staples", "add", "Bread", "--category", "Bakery", "--unit", "slices"]).status == 0)
    // Three lots, so cooks cross from one to the next while the other process waits.
    for (slices, day) in [(50, "2026-12-01"), (70, "2026-12-02"), (80, "2026-12-03")] {
      #expect(try gym.run(["staples", "buy", "Bread", String(slices), "--best-before", day, "-q"]).status == 0)
    }
    #expect(
      try gym.run(["staples", "recipe", "add", "Toast", "--servings", "1", "--ingredient", "Bread:1 slices"]).status
        == 0)
    let loop = "for i in $(seq 100); do \"$GYM\" staples cook Toast 2>/dev/null || exit 1; done"
    let workers = try (0..<2).map { _ in try shell(loop, gym) }
    for worker in workers { worker.waitUntilExit() }
    #expect(workers.allSatisfy { $0.terminationStatus == 0 })
    let count = try gym.run(["staples", "recipes", "--format", "csv", "--fields", "usageCount"]).stdoutLines.last
    #expect(count == "200")
    let shown = try gym.run(["staples", "show", "Bread", "-f", "json"])
    #expect(shown.stdout.contains("\"quantity\":0,"), "\(shown.stdout)")
    let lots = try DatabaseQueue(path: gym.databasePath).read { db in
      try Double.fetchAll(db, sql: "SELECT amount FROM stock_lot ORDER BY seq")
    }
    #expect(lots == [0, 0, 0])
    let more = try gym.run(["staples", "cook", "Toast"])
    #expect(more.status == 1 && more.stderr.contains("short of Bread 1 slices"), "\(more.stderr)")
  }

  /// Two processes adding and changing items at once: no error, no lost row.
  @Test func concurrentAddsAndSetsLoseNothing() throws {
    let gym = try GymProcess()
    try gym.run(["staples", "add", "Shared", "--category", "Pantry"])
    let workers = try ["A", "B"].map { prefix in
      try shell(
        """
        for i in $(seq 60); do
          "$GYM" staples add \(prefix)$i --category Pantry --staple 2>/dev/null || exit 1
          "$GYM" staples set \(prefix)$i --quantity $i 2>/dev/null || exit 1
          "$GYM" staples add Shared --quantity $i 2>/dev/null || exit 1
        done
        """, gym)
    }
    for worker in workers { worker.waitUntilExit() }
    #expect(workers.allSatisfy { $0.terminationStatus == 0 })
    #expect(try gym.run(["staples", "list", "--all", "--limit", "0", "--format", "ndjson"]).stdoutLines.count == 121)
  }

  @Test func aWriteThatCannotGetTheLockIs75() throws {
    let gym = try GymProcess()
    try gym.run(["staples", "recipe", "add", "Toast"])
    let holder = try DatabaseQueue(path: gym.databasePath)
    try holder.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      defer { try? db.execute(sql: "ROLLBACK") }
      let result = try gym.run(["staples", "cook", "Toast"], environment: ["GYM_DATABASE_BUSY_TIMEOUT": "100"])
      #expect(result.status == 75)
      #expect(result.stderr.contains("is busy: another process held its lock for over 100 ms"))
    }
  }

  private func shell(_ script: String, _ gym: GymProcess) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.environment = gym.environment.merging(["GYM": GymProcess.executable]) { $1 }
    try process.run()
    return process
  }
}
