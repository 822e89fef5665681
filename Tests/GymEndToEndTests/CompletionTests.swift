import Foundation
import Testing

/// Dynamic completion through the binary, as the shell scripts call it (`gym ---completion …`):
/// ids, names, categories and sample types from the database the command line names, and a list's
/// fields; nothing, and no database created, where there is none.
@Suite struct CompletionTests {
  /// What bash passes for the last word, `prefix`, of `words`.
  func complete(_ gym: GymProcess, _ command: [String], _ argument: String, _ words: [String]) throws -> [String] {
    let last = words.last ?? ""
    let result = try gym.run(
      ["---completion"] + command + ["--", argument, String(words.count - 1), String(last.count)] + words)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdoutLines.map(String.init)
  }

  @Test func valuesComeFromTheDatabase() throws {
    let gym = try GymProcess()
    let ids = [
      "00000000-0000-4000-8000-00000000000a", "0a000000-0000-4000-8000-000000000000",
      "0b000000-0000-4000-8000-000000000000",
    ]
    let workouts = zip(ids, ["2026-01-03", "2026-01-01", "2026-01-02"]).map {
      #"{"id":"\#($0)","completedAt":"\#($1)T10:00:00Z","planTitle":"W"}"#
    }
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: workouts.joined(separator: "\n")).status == 0)
    // Nothing typed: the newest first; a prefix: the ids that start with it, in order.
    #expect(
      try complete(gym, ["history", "show"], "positional@0", ["gym", "history", "show", ""]) == [
        ids[0], ids[2], ids[1],
      ])
    #expect(try complete(gym, ["history", "rm"], "positional@0", ["gym", "history", "rm", "0A"]) == [ids[1]])
    #expect(try complete(gym, ["history", "set"], "positional@0", ["gym", "history", "set", "0"]) == ids.sorted())

    for (name, category) in [("Milk", "Dairy"), ("mint", "Herbs"), ("Bread", "Bakery")] {
      #expect(try gym.run(["staples", "add", name, "--category", category, "-q"]).status == 0)
    }
    #expect(
      try complete(gym, ["staples", "show"], "positional@0", ["gym", "staples", "show", "mi"]) == ["Milk", "mint"])
    #expect(
      try complete(gym, ["staples", "list"], "--category", ["gym", "staples", "list", "--category", "d"]) == ["Dairy"])

    let samples = """
      {"type":"steps","start":"2026-01-01T10:00:00Z","end":"2026-01-01T10:10:00Z","value":5,"unit":"count","stage":"none","source":"P"}
      {"type":"sleep","start":"2026-01-01T00:00:00Z","end":"2026-01-01T01:00:00Z","value":60,"unit":"min","stage":"asleepCore","source":"P"}
      {"type":"uvExposure","start":"2026-01-01T12:00:00Z","end":"2026-01-01T12:00:00Z","value":3,"unit":"count","stage":"none","source":"P"}
      """
    #expect(try gym.run(["history", "samples", "import", "-", "-q"], stdin: samples).status == 0)
    #expect(
      try complete(gym, ["history", "daily"], "--type", ["gym", "history", "daily", "--type", ""]) == [
        "sleep", "steps", "uvExposure",
      ])
    #expect(
      try complete(gym, ["history", "daily"], "--type", ["gym", "history", "daily", "--type", "s"]) == [
        "sleep", "steps",
      ])
  }

  @Test func exerciseNamesComplete() throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", TrainingCommandTests.strong)
    #expect(try gym.run(["history", "import", path, "--from", "strong", "--weight-unit", "kg", "-q"]).status == 0)
    // The names the sets go by, starting with what is typed in any case: both spellings of the squat.
    #expect(
      try complete(gym, ["history", "prs"], "--exercise", ["gym", "history", "prs", "--exercise", "SQ"]) == [
        "Squat (Barbell)", "squat  (barbell)",
      ])
    #expect(
      try complete(gym, ["history", "sets"], "--exercise", ["gym", "history", "sets", "--exercise", "p"]) == ["Push Up"]
    )
  }

  @Test func fieldsAndTheDatabaseNamed() throws {
    let gym = try GymProcess()
    #expect(
      try complete(gym, ["history", "list"], "--fields", ["gym", "history", "list", "--fields", "id,d"]) == [
        "id,durationMinutes", "id,distanceKm",
      ])
    #expect(
      try complete(gym, ["library", "list"], "--sort", ["gym", "library", "list", "--sort", "-ra"]) == ["-rating"])
    // No database: no values, and none created.
    #expect(try complete(gym, ["history", "show"], "positional@0", ["gym", "history", "show", ""]) == [])
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
    // `--database` on the command line is the one read.
    let other = gym.directory + "/other.sqlite"
    #expect(try gym.run(["--database", other, "library", "add", "Emma", "-q"]).status == 0)
    #expect(
      try complete(gym, ["library", "show"], "positional@0", ["gym", "--database", other, "library", "show", ""]) == [
        "\(RecordKeys.work("Emma", authors: []))"
      ])
  }
}
