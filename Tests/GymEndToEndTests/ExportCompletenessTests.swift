import Foundation
import Testing

/// What a user decided survives every export format: an exercise renamed and another merged come
/// back after `export` → `import` as NDJSON, CSV and an SQLite snapshot. Retention judges only
/// complete exports as backups: a newer partial one never takes a full one's place.
@Suite struct ExportCompletenessTests {
  func exports(_ gym: GymProcess, _ directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: gym.directory + "/" + directory)
      .filter { $0.hasPrefix("gym-export-") }.sorted()
  }

  @Test func renamesAndMergesSurviveEveryFormat() throws {
    let gym = try GymProcess()
    let workouts = [("Bench Press (Barbell)", 1), ("Squat", 2), ("Back Squat", 3)].map { exercise, day in
      #"{"id":"00000000-0000-4000-8000-00000000000\#(day)","completedAt":"2026-01-0\#(day)T10:00:00Z","planTitle":"Lift","sets":[{"position":1,"exercise":"\#(exercise)","kind":"normal","weightKg":100,"reps":5}]}"#
    }
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: workouts.joined(separator: "\n")).status == 0)
    #expect(try gym.run(["history", "exercises", "rename", "Bench Press (Barbell)", "Bench Press", "-q"]).status == 0)
    #expect(try gym.run(["history", "exercises", "merge", "Squat", "Back Squat", "-q"]).status == 0)
    let expected = try gym.run(["history", "exercises", "list", "--fields", "exercise,sets", "--format", "csv"])
    // Three sets under two names: the bench press renamed, the two squats one exercise of two sets.
    #expect(Set(expected.stdoutLines.dropFirst()) == ["Bench Press,1", "Back Squat,2"], "\(expected.stdout)")
    for format in ["ndjson", "csv", "sqlite"] {
      let made = try gym.run(["export", "--out", "out-\(format)", "--format", format, "-q"])
      #expect(made.status == 0, "\(made.stderr)")
      let path = gym.directory + "/out-\(format)/" + (try #require(try exports(gym, "out-\(format)").first))
      let restored = ["GYM_DATABASE": gym.directory + "/\(format).sqlite"]
      let imported = try gym.run(["import", path, "-q"], environment: restored)
      #expect(imported.status == 0, "\(format): \(imported.stderr)")
      let listed = try gym.run(
        ["history", "exercises", "list", "--fields", "exercise,sets", "--format", "csv"], environment: restored)
      #expect(listed.stdout == expected.stdout, "\(format): \(listed.stdout)")
    }
  }

  @Test func aPartialExportNeverReplacesAFullOne() throws {
    let gym = try GymProcess()
    try gym.seed(10)
    #expect(try gym.run(["library", "add", "Emma", "-q"]).status == 0)
    #expect(try gym.run(["export", "--out", "b", "-q"]).status == 0)
    let full = try #require(try exports(gym, "b").first)
    sleep(1)  // export names are to the second
    #expect(try gym.run(["export", "--out", "b", "--modules", "library", "-q"]).status == 0)
    let partial = try #require(try exports(gym, "b").last)
    #expect(partial != full)
    // --keep 1: the full export is the newest complete one, the partial the newest of its kind.
    let pruned = try gym.run(["export", "prune", "--out", "b", "--keep", "1"])
    #expect(pruned.status == 0 && pruned.stdout.isEmpty, "\(pruned.stdout)")
    #expect(try exports(gym, "b") == [full, partial])
    sleep(1)
    #expect(try gym.run(["export", "--out", "b", "--modules", "library", "-q"]).status == 0)
    let newer = try #require(try exports(gym, "b").last)
    #expect(try gym.run(["export", "prune", "--out", "b", "--keep", "1"]).stdoutLines == [Substring(partial)])
    #expect(try exports(gym, "b") == [full, newer])
    // Restored or checked, it says what it is: one picked as the newest in the directory
    // (`ls -d b/*/ | tail -1`) holds the library only.
    let restored = try gym.run(
      ["import", gym.directory + "/b/" + newer], environment: ["GYM_DATABASE": gym.directory + "/r.sqlite"])
    #expect(restored.status == 0)
    #expect(
      restored.stderr.hasSuffix("; a partial export: library only, not a backup of everything\n"), "\(restored.stderr)")
    let checked = try gym.run(["export", "verify", gym.directory + "/b/" + newer])
    #expect(
      checked.stderr.contains("every row loads into its schema; a partial export: library only"), "\(checked.stderr)")
    let whole = try gym.run(["export", "verify", gym.directory + "/b/" + full])
    #expect(whole.status == 0 && !whole.stderr.contains("partial"), "\(whole.stderr)")
    // The healthcheck looks at complete exports only.
    let path = gym.directory + "/only-partial"
    #expect(try gym.run(["export", "--out", path, "--tables", "work", "-q"]).status == 0)
    let health = try gym.run(["export", "status", "--out", path, "--max-age", "1h", "--format", "csv"])
    #expect(health.status == 1 && health.stderr.contains("no complete, intact export"), "\(health.stderr)")
    #expect(try gym.run(["export", "status", "--out", "b", "--max-age", "1h", "--format", "csv"]).status == 0)
    // A snapshot is every table: narrowing one is refused.
    #expect(try gym.run(["export", "--out", "s", "--format", "sqlite", "--modules", "library"]).status == 64)
    // An export of no table would be one gym calls damaged: refused before it is made.
    for (option, value) in [("--tables", ""), ("--tables", ", ,"), ("--modules", "")] {
      let empty = try gym.run(["export", "--out", "none", option, value])
      #expect(empty.status == 64 && empty.stderr.contains("\(option) needs at least one name"), "\(empty.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: gym.directory + "/none"))
  }
}
