import Foundation
import Testing

/// One vocabulary in every module: `remove` (also `rm` and `delete`) takes several identifiers, all
/// or none; `--ignore-missing` removes the others; `--dry-run` says what would go and removes
/// nothing. Every `add` prints what it made; `set` changes only what it is given; every list sorts.
@Suite struct VocabularyTests {
  @Test func libraryRemovesSeveralAllOrNone() throws {
    let gym = try GymProcess()
    for title in ["Dune", "Emma", "Kim"] { #expect(try gym.run(["library", "add", title, "-q"]).status == 0) }
    // A work's id is its key: here from its title alone (RecordKeys).
    let (dune, emma, kim) = (
      RecordKeys.work("Dune", authors: []), RecordKeys.work("Emma", authors: []), RecordKeys.work("Kim", authors: [])
    )
    let refused = try gym.run(["library", "remove", "\(dune)", "99"])
    #expect(refused.status == 66)
    #expect(
      refused.stderr
        == "gym: error: no work '99'; nothing was removed (--ignore-missing removes the others)\n")
    #expect(try gym.run(["library", "count"]).stdout == "3\n")
    let dry = try gym.run(["library", "rm", "\(dune)", "\(emma)", "--dry-run"])
    #expect(dry.status == 0)
    #expect(dry.stderr == "would remove work \(dune): 'Dune'\nwould remove work \(emma): 'Emma'\n")
    #expect(try gym.run(["library", "count"]).stdout == "3\n")
    let skipping = try gym.run(["library", "delete", "\(dune)", "99", "\(emma)", "--ignore-missing"])
    #expect(skipping.status == 0)
    #expect(
      skipping.stderr == "removed work \(dune): 'Dune'\nremoved work \(emma): 'Emma'\nno work '99' (skipped)\n")
    #expect(try gym.run(["library", "list", "--ids"]).stdout == "\(kim)\n")
  }

  @Test func historyAndStaplesShareTheVocabulary() throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let ids = try gym.run(["history", "list", "--ids"]).stdoutLines.map(String.init)
    #expect(try gym.run(["history", "rm", ids[0], ids[1], "--dry-run", "-q"]).status == 0)
    #expect(try gym.run(["history", "count"]).stdout == "3\n")
    #expect(
      try gym.run(["history", "remove", ids[0], ids[1]]).stderr
        == "removed workout \(ids[0])\nremoved workout \(ids[1])\n")
    #expect(try gym.run(["history", "list", "--ids"]).stdoutLines.map(String.init) == [ids[2]])

    #expect(try gym.run(["staples", "add", "Kefir", "--category", "Dairy", "-q"]).status == 0)
    #expect(try gym.run(["staples", "add", "Rye", "--category", "Bakery", "-q"]).status == 0)
    let none = try gym.run(["staples", "rm", "Kefir", "Caviar"])
    #expect(none.status == 66)
    #expect(try gym.run(["staples", "list", "--all", "--ids"]).stdoutLines.sorted() == ["Kefir", "Rye"])
    #expect(try gym.run(["staples", "delete", "Kefir", "Rye"]).status == 0)
    #expect(try gym.run(["staples", "list", "--all", "--ids"]).stdout.isEmpty)
    // A name with a backslash comes out as stored, and `show` takes it back.
    #expect(try gym.run(["staples", "add", #"a\x:y"#, "--category", "X", "-q"]).status == 0)
    let id = try gym.run(["staples", "list", "--all", "--ids"]).stdout
    #expect(id == #"a\x:y"# + "\n")
    #expect(try gym.run(["staples", "show", String(id.dropLast())]).status == 0)
  }

  /// Every add prints what it made on stdout, for scripts; a book already there (same title and
  /// authors, any case) is refused unless --allow-duplicate.
  @Test func addsPrintTheIdAndRefuseObviousDuplicates() throws {
    let gym = try GymProcess()
    let first = try gym.run(["library", "add", "Dune", "--author", "Frank Herbert"])
    let dune = RecordKeys.work("Dune", authors: ["Frank Herbert"])
    #expect(first.stdout == "\(dune)\n")
    let again = try gym.run(["library", "add", "dune", "--author", "frank herbert"])
    #expect(again.status == 65)
    #expect(again.stderr.contains("already in the library as work \(dune)"))
    #expect(again.stdout.isEmpty)
    // Another author, or none: another work. A duplicate allowed takes the ordinal 1 (its parts are the first's).
    #expect(
      try gym.run(["library", "add", "Dune", "--author", "Brian Herbert"]).stdout
        == "\(RecordKeys.work("Dune", authors: ["Brian Herbert"]))\n")
    #expect(
      try gym.run(["library", "add", "Dune", "--author", "Frank Herbert", "--allow-duplicate"]).stdout
        == "\(RecordKeys.work("Dune", authors: ["Frank Herbert"], ordinal: 1))\n")
    #expect(try gym.run(["staples", "add", "Kefir", "--category", "Dairy"]).stdout == "Kefir\n")
    #expect(try gym.run(["staples", "recipe", "add", "Lassi", "--ingredient", "Kefir:200 ml"]).stdout == "Lassi\n")
    let workout = try gym.run(["history", "add", "--plan-title", "Push", "--focus", "push", "--duration", "30"])
    #expect(workout.stdoutLines.count == 1 && workout.stdout.count == 37)
  }

  /// `history set` changes only the fields it is given.
  @Test func historySetChangesOnlyTheFieldsGiven() throws {
    let gym = try GymProcess()
    let id = try gym.run([
      "history", "add", "--plan-title", "Push", "--focus", "push", "--duration", "30", "--intensity", "high",
      "--completed-at", "2026-11-20T18:00:00Z",
    ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    func shown() throws -> [String: Any] {
      try #require(
        try JSONSerialization.jsonObject(with: Data(gym.run(["history", "show", id, "-f", "json"]).stdout.utf8))
          as? [String: Any])
    }
    #expect(try gym.run(["history", "set", id, "--notes", "felt strong", "--focus", "pull"]).status == 0)
    var record = try shown()
    #expect(record["notes"] as? String == "felt strong")
    #expect(record["focus"] as? String == "pull")
    #expect(record["planTitle"] as? String == "Push")
    #expect(record["durationMinutes"] as? Double == 30)
    #expect(record["intensity"] as? String == "high")
    #expect(record["completedAt"] as? String == "2026-11-20T18:00:00.000Z")
    #expect(try gym.run(["history", "set", id, "--notes", ""]).status == 0)
    record = try shown()
    #expect(record["notes"] is NSNull)
    #expect(try gym.run(["history", "set", id]).status == 64)
    #expect(try gym.run(["history", "set", "00000000-0000-0000-0000-000000000000", "--notes", "x"]).status == 66)
  }

  @Test func staplesSetChangesOnlyTheFieldsGiven() throws {
    let gym = try GymProcess()
    let added = try gym.run([
      "staples", "add", "Milk", "--category", "Dairy", "--staple", "--unit", "l", "--min-stock", "2", "--notes",
      "whole",
      "-q",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    func shown() throws -> [String: Any] {
      try #require(
        try JSONSerialization.jsonObject(with: Data(gym.run(["staples", "show", "milk", "-f", "json"]).stdout.utf8))
          as? [String: Any])
    }
    let before = try shown()
    #expect(try gym.run(["staples", "set", "Milk", "--notes", "oat milk now"]).status == 0)
    var item = try shown()
    #expect(item["notes"] as? String == "oat milk now")
    // Every other field as it was.
    for key in before.keys where key != "notes" {
      #expect("\(item[key] ?? "nil")" == "\(before[key] ?? "nil")", "\(key)")
    }
    #expect(item["category"] as? String == "Dairy" && item["unit"] as? String == "l")
    #expect(item["isStaple"] as? Bool == true && item["minStock"] as? Double == 2)
    #expect(try gym.run(["staples", "set", "Milk", "--category", "Drinks"]).status == 0)
    item = try shown()
    #expect(item["category"] as? String == "Drinks" && item["notes"] as? String == "oat milk now")
    #expect(try gym.run(["staples", "set", "Nothing", "--notes", "x"]).status == 66)
  }

  /// staples has show and count; every list takes --sort.
  @Test func staplesShowCountAndSortEverywhere() throws {
    let gym = try GymProcess()
    for (name, category) in [("Milk", "Dairy"), ("Kefir", "Dairy"), ("Rye", "Bakery")] {
      #expect(try gym.run(["staples", "add", name, "--category", category, "--staple", "-q"]).status == 0)
    }
    #expect(try gym.run(["staples", "count"]).stdout == "3\n")
    #expect(try gym.run(["staples", "count", "--category", "dairy"]).stdout == "2\n")
    // count takes --format too; without it the bare number, whatever output.format says.
    #expect(try gym.run(["staples", "count", "-f", "json"]).stdout == "{\"count\":3}\n")
    #expect(try gym.run(["staples", "count", "-f", "csv"]).stdout == "count\r\n3\r\n")
    #expect(try gym.run(["staples", "count"], environment: ["GYM_OUTPUT_FORMAT": "json"]).stdout == "3\n")
    let shown = try gym.run(["staples", "show", "kefir", "-f", "csv", "--quiet"])
    #expect(shown.stdoutLines.first == "name,category,isStaple,quantity,unit,minStock,bestBefore,dateCreated,notes")
    #expect(shown.stdoutLines.last?.hasPrefix("Kefir,Dairy,true,,,,,") == true)
    #expect(try gym.run(["staples", "show", "Caviar"]).status == 66)
    #expect(try gym.run(["staples", "list", "--ids", "--sort", "name:desc"]).stdout == "Rye\nMilk\nKefir\n")
    try gym.seed(3)
    let titles = try gym.run(["history", "list", "-f", "csv", "--fields", "planTitle", "--sort", "planTitle"])
    let names = titles.stdoutLines.dropFirst().map(String.init)
    #expect(names == names.sorted())
    #expect(try gym.run(["history", "samples", "list", "--sort", "value"]).status == 0)
  }

  /// Search and the recipe list take the list options too: --where, --sort, --fields, --ids.
  @Test func searchAndRecipesTakeTheListOptions() throws {
    let gym = try GymProcess()
    let path = try gym.write("goodreads.csv", LibraryCommandTests.goodreads)
    #expect(try gym.run(["library", "import", "goodreads", path, "-q"]).status == 0)
    let rated = try gym.run([
      "library", "search", "the", "-w", "rating >= 4", "--fields", "id,title,rating", "-f", "csv",
    ])
    let (gideon, odyssey) = ("\(RecordKeys.work(goodreadsId: 42_944_564))", "\(RecordKeys.work(goodreadsId: 1381))")
    #expect(rated.stdoutLines == ["id,title,rating", "\(gideon),Gideon the Ninth (The Locked Tomb #1),5"])
    #expect(
      try gym.run(["library", "search", "the", "--sort", "title", "--ids"]).stdoutLines.map(String.init)
        == [gideon, odyssey])
    #expect(
      try gym.run(["library", "search", "the", "--sort", "title:desc", "--ids"]).stdoutLines.map(String.init)
        == [odyssey, gideon])
    #expect(try gym.run(["library", "search", "the", "-n", "1", "--ids"]).stdoutLines.count == 1)
    let wrong = try gym.run(["library", "search", "the", "--sort", "colour"])
    #expect(wrong.status == 64 && wrong.stderr.contains("unknown field 'colour'"))

    for (name, servings) in [("Apple pie", 4), ("Bun", 2), ("Curry", 6)] {
      let added = try gym.run([
        "staples", "recipe", "add", name, "--servings", String(servings), "--ingredient", "Flour:100 g",
        "--create-missing", "-q",
      ])
      #expect(added.status == 0, "\(added.stderr)")
    }
    let big = try gym.run([
      "staples", "recipes", "-w", "servings >= 4", "--sort", "name:desc", "--fields", "name,servings", "-f", "csv",
    ])
    #expect(big.stdoutLines == ["name,servings", "Curry,6", "Apple pie,4"])
    #expect(try gym.run(["staples", "recipes", "--most-used", "--sort", "name"]).status == 64)
  }
}
