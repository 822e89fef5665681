import Foundation
import Testing
import ZIPFoundation

/// The README's examples, every line of every `sh` block after the set-up one, run in order in a
/// shell on a fresh database, with the files they name where a user would have them. Left out:
/// `make`, `docker` and `./scripts` lines (the build, the container) and `gym export schedule`, which
/// runs until stopped (`ComposeExporterTests` runs it).
@Suite struct ReadmeExamplesTests {
  static let readme: String = {
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("README.md").path) {
      directory.deleteLastPathComponent()
    }
    return try! String(contentsOf: directory.appendingPathComponent("README.md"), encoding: .utf8)
  }()

  static func examples() -> [String] {
    var lines: [String] = []
    var inBlock = false
    var blocks = 0
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inBlock = !inBlock && line == "```sh"
        if inBlock { blocks += 1 }
        continue
      }
      guard inBlock, blocks > 1, !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
      let words = line.split(separator: " ")
      if ["make", "docker"].contains(words[0]) || words[0].hasPrefix("./scripts") { continue }
      if line.hasPrefix("gym export schedule") { continue }
      lines.append(String(line))
    }
    return lines
  }

  static let strong = """
    Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration
    2026-11-02 18:30:00;Push Day;Bench Press (Barbell);1;135;lbs;8;7;;;0;;;50m
    2026-11-02 18:30:00;Push Day;Bench Press (Barbell);2;155;lbs;5;9;;;0;;;50m

    """

  static let hevy = """
    "title","start_time","end_time","exercise_title","set_type","weight_kg","reps"
    "Pull","3 Nov 2026, 07:15","3 Nov 2026, 08:05","Pull Up","normal","","10"

    """

  static let goodreads =
    LibraryCommandTests.goodreads + """
      43238210,Harrow the Ninth (The Locked Tomb #2),Tamsyn Muir,"Muir, Tamsyn",,,,0,4.2,Tor.com,Hardcover,512,2020,2020,,2026/10/01,currently-reading,currently-reading (#1),currently-reading,,,,0,1

      """

  /// Writes the files the README's examples read, where it says they are.
  func prepare(_ gym: GymProcess) throws {
    let workouts = try gym.run(["history", "sample", "--count", "25", "--seed", "11"]).stdout
    _ = try gym.write("workouts.ndjson", workouts)
    _ = try gym.write(
      "workouts.csv", try gym.run(["history", "sample", "--count", "5", "--seed", "12", "-f", "csv"]).stdout)
    _ = try gym.write("strong_workouts.csv", Self.strong)
    _ = try gym.write("workout_data.csv", Self.hevy)
    _ = try gym.write("goodreads_library_export.csv", Self.goodreads)
    _ = try gym.write(
      "storygraph_export.csv",
      ([StoryGraphImportTests.header] + StoryGraphImportTests.rows).joined(separator: "\n") + "\n")
    for directory in ["Downloads", ".local/share/bash-completion/completions", ".zfunc", ".config/fish/completions"] {
      try FileManager.default.createDirectory(
        atPath: gym.directory + "/" + directory, withIntermediateDirectories: true)
    }
    let archive = try Archive(url: URL(fileURLWithPath: gym.directory + "/Downloads/export.zip"), accessMode: .create)
    let xml = Data(HealthTypesTests.export.utf8)
    try archive.addEntry(
      with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(xml.count),
      compressionMethod: .deflate
    ) { position, size in xml.subdata(in: Int(position)..<Int(position) + size) }
  }

  @Test func theExamplesRunInOrderOnAFreshDatabase() throws {
    let examples = Self.examples()
    #expect(examples.count > 60)
    let gym = try GymProcess()
    try prepare(gym)
    let binDirectory = URL(fileURLWithPath: GymProcess.executable).deletingLastPathComponent().path
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
    for example in examples {
      let result = try gym.run(
        // The configuration where a user has it, ~/.config/gym/gym.yaml, as the backup example writes it.
        ["-c", "set -o pipefail; " + example],
        environment: ["PATH": binDirectory + ":/usr/bin:/bin", "XDG_CONFIG_HOME": gym.directory + "/.config"],
        executable: "/bin/bash")
      #expect(result.status == 0, "\(example)\n\(result.stderr)")
      #expect(!result.stderr.contains("error"), "\(example)\n\(result.stderr)")
      // A filter or a search in the README finds something: examples that print nothing teach nothing.
      if example.contains("--where") || example.contains(" search ") || example.contains("--author") {
        #expect(!result.stdout.isEmpty, "\(example) found nothing")
      }
    }
    // The made-up data went to the scratch database only: the user's pantry is the four items the
    // examples bought, the seed's 40-odd (Oats among them) are in demo.sqlite with its 100 workouts.
    let items = try gym.run(["staples", "list", "--all", "-f", "tsv"]).stdoutLines.dropFirst().map {
      String($0.split(separator: "\t")[0])
    }
    #expect(items.sorted() == ["Butter", "Eggs", "Milk", "Sourdough"])
    let demo = ["--database", gym.directory + "/demo.sqlite"]
    #expect(try gym.run(demo + ["staples", "show", "Oats"]).status == 0)
    #expect(try gym.run(demo + ["history", "count"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "100")
    #expect(try gym.run(["staples", "show", "Oats"]).status == 66)
  }
}
