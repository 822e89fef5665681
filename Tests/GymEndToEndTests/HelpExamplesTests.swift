import Foundation
import Testing

/// Every command's help has examples, and every example works: each command's examples run in
/// order, in a shell, in a fresh copy of a directory with a sample database (workouts with sets,
/// health samples, a pantry, a library, a migration backup, an export) and the files they name.
@Suite(.serialized) struct HelpExamplesTests {
  struct Command {
    let name: String
    /// The name with each alias in place of the last word (`gym history rm`).
    let spellings: [String]
    let examples: [String]
    let own: [String]
    let common: [String]
  }

  /// Every command gym shows, from its own help dump.
  static func commands() throws -> [Command] {
    let dump = try GymProcess().run(["--experimental-dump-help"])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
    var found: [Command] = []
    func walk(_ command: [String: Any], _ path: [String]) {
      let name = (path + [command["commandName"] as? String ?? ""]).joined(separator: " ")
      let discussion = command["discussion"] as? String ?? ""
      let lines = discussion.split(separator: "\n", omittingEmptySubsequences: false)
      let examples =
        lines.firstIndex(of: "Examples:").map { start in
          lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
        } ?? []
      let arguments = (command["arguments"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool ?? true }
      let names = { (list: [[String: Any]]) in
        list.compactMap { ($0["preferredName"] as? [String: Any])?["name"] as? String }
      }
      let aliases = (command["aliases"] as? [String] ?? []).map { (path + [$0]).joined(separator: " ") }
      found.append(
        Command(
          name: name, spellings: [name] + aliases, examples: examples,
          own: names(arguments.filter { $0["sectionTitle"] == nil }),
          common: names(arguments.filter { $0["sectionTitle"] != nil })))
      for sub in command["subcommands"] as? [[String: Any]] ?? [] where sub["commandName"] as? String != "help" {
        walk(sub, path + [command["commandName"] as? String ?? ""])
      }
    }
    walk(try #require(root["command"] as? [String: Any]), [])
    return found
  }

  @Test func everyCommandHasExamplesOfItsOwn() throws {
    let commands = try Self.commands()
    #expect(commands.count > 60)
    for command in commands {
      #expect(!command.examples.isEmpty, "\(command.name) has no examples")
      for example in command.examples {
        #expect(
          command.spellings.contains(where: example.contains), "\(command.name): '\(example)' does not run the command")
      }
    }
  }

  /// The command's own options first, then the common ones under their heading, then the examples;
  /// a list of values is printed once.
  @Test func helpShowsOwnOptionsFirstAndValuesOnce() throws {
    let gym = try GymProcess()
    let help = try gym.run(["history", "list", "--help"]).stdout
    let options = try #require(help.range(of: "\nOPTIONS:\n"))
    let common = try #require(help.range(of: "\nCOMMON OPTIONS:\n  --database <path>"))
    let examples = try #require(help.range(of: "\nEXAMPLES:\n  gym history list --since 30d --status completed\n"))
    #expect(options.lowerBound < common.lowerBound && common.lowerBound < examples.lowerBound)
    #expect(help.components(separatedBy: "skipped").count == 2)  // once: "(values: completed, skipped)"
    #expect(!help.contains("\n\n\n"))
    let viaHelp = try gym.run(["help", "history", "list"])
    #expect(viaHelp.status == 0 && viaHelp.stdout == help)
  }

  /// An example longer than the help's width, which swift-argument-parser wraps, is one line under
  /// EXAMPLES, and nothing of it is left above USAGE.
  @Test func aLongExampleStaysWhole() throws {
    let gym = try GymProcess()
    let help = try gym.run(["staples", "list", "--help"]).stdout
    let usage = try #require(help.range(of: "\nUSAGE:"))
    #expect(!help[..<usage.lowerBound].contains("bestBefore\n"), "\(help)")
    let examples = try #require(help.range(of: "\nEXAMPLES:\n"))
    #expect(usage.lowerBound < examples.lowerBound)
    #expect(
      help.contains(
        "\n  gym staples list --all -w 'bestBefore != nil' --sort bestBefore --fields name,quantity,unit,bestBefore\n"),
      "\(help)")
  }

  /// The directory every command's examples start from.
  static let fixture: String = {
    let gym = try! GymProcess()
    func run(_ arguments: [String], stdin: String? = nil) {
      let result = try! gym.run(arguments, stdin: stdin)
      precondition(result.status == 0, "\(arguments): \(result.stderr)")
    }
    // An older schema brought up to date, so that `migrate backups` has a backup to restore.
    _ = try! MigrateCrashTests.oldDatabase(gym, workouts: 5)
    run(["migrate", "up", "-q"])
    let workouts = try! gym.run(["history", "sample", "--count", "30", "--seed", "7", "--days", "60"]).stdout
    _ = try! gym.write("workouts.ndjson", workouts)
    run(["history", "import", "workouts.ndjson", "-q"])
    _ = try! gym.write("strong.csv", RoundTripTests.strong)
    run(["history", "import", "strong.csv", "--from", "strong", "--weight-unit", "kg", "-q"])
    // Another app's names for the same lifts, for the exercises examples.
    _ = try! gym.write(
      "strong-older.csv", TrainingCommandTests.strong.replacingOccurrences(of: "Push Up", with: "Bench Press"))
    run(["history", "import", "strong-older.csv", "--from", "strong", "--weight-unit", "kg", "-q"])
    let first = String(workouts.split(separator: "\n")[0].split(separator: "\"")[3])
    _ = try! gym.write("edits.ndjson", #"{"id":"\#(first)","notes":"new shoes"}"# + "\n")
    _ = try! gym.write("export.xml", HealthTypesTests.export)
    let samples = try! gym.run(["history", "samples", "generate", "--days", "14", "--seed", "3"]).stdout
    _ = try! gym.write("samples.ndjson", samples)
    run(["history", "samples", "import", "samples.ndjson", "-q"])
    _ = try! gym.write(
      "goodreads_library_export.csv",
      LibraryCommandTests.goodreads + """
        18423,The Left Hand of Darkness,Ursula K. Le Guin,"Le Guin, Ursula K.",,,,4,4.09,Ace,Paperback,304,2000,1969,2023/05/02,2023/04/01,,,read,,,,1,1
        234225,Dune,Frank Herbert,"Herbert, Frank",,,,5,4.27,Ace,Paperback,604,2005,1965,2022/08/10,2022/07/01,,,read,,,,1,0

        """)
    run(["library", "import", "goodreads", "goodreads_library_export.csv", "-q"])
    _ = try! gym.write(
      "storygraph_export.csv",
      ([StoryGraphImportTests.header] + StoryGraphImportTests.rows).joined(separator: "\n") + "\n")
    run(["staples", "seed", "-q"])
    run(["export", "create", "--out", "backups", "-q"])
    // A remote for the remote examples: `nas`, rclone's local backend, so `nas:gym` is ./gym; then
    // export.remote names it, and one export there has the name the examples fetch.
    try! FileManager.default.createDirectory(
      atPath: gym.directory + "/config/rclone", withIntermediateDirectories: true)
    _ = try! gym.write("config/rclone/rclone.conf", "[nas]\ntype = local\n")
    try! FileManager.default.createDirectory(atPath: gym.directory + "/config/gym", withIntermediateDirectories: true)
    _ = try! gym.write("config/gym/gym.yaml", "version: 1\nexport:\n  remote: nas:gym\n")
    run(["export", "create", "--out", "backups", "-q"])
    // The key the sync examples share, as age-keygen writes one.
    let keygen = try! Process.run(
      URL(fileURLWithPath: "/usr/bin/age-keygen"), arguments: ["-o", gym.directory + "/sync.key"])
    keygen.waitUntilExit()
    let copied = try! FileManager.default.contentsOfDirectory(atPath: gym.directory + "/gym")
    precondition(copied.count == 1, "\(copied)")
    try! FileManager.default.moveItem(
      atPath: gym.directory + "/gym/" + copied[0], toPath: gym.directory + "/gym/gym-export-20261123T040000.000Z")
    return gym.directory
  }()

  @Test func everyExampleRuns() throws {
    let binDirectory = URL(fileURLWithPath: GymProcess.executable).deletingLastPathComponent().path
    for command in try Self.commands() where !command.examples.isEmpty {
      let gym = try GymProcess()
      let copy = Process()
      copy.executableURL = URL(fileURLWithPath: "/bin/cp")
      copy.arguments = ["-a", Self.fixture + "/.", gym.directory]
      try copy.run()
      copy.waitUntilExit()
      #expect(copy.terminationStatus == 0)
      for example in command.examples {
        let result = try gym.run(
          ["-c", example], environment: ["PATH": binDirectory + ":/usr/bin:/bin"], executable: "/bin/sh")
        #expect(result.status == 0, "\(command.name): \(example)\n\(result.stderr)")
        #expect(!result.stderr.contains("gym: error"), "\(command.name): \(example)\n\(result.stderr)")
      }
    }
  }

  /// A list's help names its fields, and each one it names works with `--fields` (and nothing else
  /// does): the line comes from the table itself.
  @Test func listsNameTheirFields() throws {
    var checked = 0
    for command in try Self.commands() where command.own.contains("fields") {
      let words = Array(command.name.split(separator: " ").dropFirst().map(String.init))
      let gym = try GymProcess()
      let help = try gym.run(words + ["--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
      guard let named = help.range(of: "Fields (for --fields"), let start = help[named.upperBound...].range(of: "): ")
      else {
        if words != ["staples", "recipe", "show"] && words != ["history", "show"] {
          Issue.record("\(command.name) names no fields")
        }
        continue
      }
      let fields = help[start.upperBound...].prefix { $0 != "." }.split(separator: ",").map {
        $0.split(whereSeparator: \.isWhitespace).joined()
      }
      #expect(fields.count >= 4, "\(command.name): \(fields)")
      let extra =
        switch words.last {
        case "show": ["x"]
        case "search": ["the", "-n", "1"]
        case "progress": ["--exercise", "Bench Press (Barbell)", "-n", "1"]
        default: ["-n", "1"]
        }
      for field in fields {
        let result = try gym.run(
          words + extra + ["--fields", field], environment: ["GYM_DATABASE": Self.fixture + "/gym.sqlite"])
        #expect(result.status == 0 || result.status == 66, "\(command.name) --fields \(field): \(result.stderr)")
        #expect(!result.stderr.contains("unknown field"), "\(command.name) --fields \(field): \(result.stderr)")
      }
      let wrong = try gym.run(
        words + extra + ["--fields", "nosuchfield"], environment: ["GYM_DATABASE": Self.fixture + "/gym.sqlite"])
      #expect(wrong.status == 64 && wrong.stderr.contains("nosuchfield"), "\(command.name): \(wrong.stderr)")
      checked += 1
    }
    #expect(checked >= 6)
  }

  /// `-q` on every command, as the common options say.
  @Test func everyCommandTakesTheCommonOptions() throws {
    for command in try Self.commands() where command.own.contains(where: { $0 != "help" && $0 != "version" }) {
      if command.name.hasPrefix("gym help") { continue }
      #expect(
        Set(["database", "config", "verbose", "quiet"]).isSubset(of: command.common),
        "\(command.name) \(command.common)")
    }
  }
}
