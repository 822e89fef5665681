import Foundation
import Testing

/// Every configuration key with every kind of wrong value, through the real binary: exit 78, one line
/// naming file:line:column, and nothing written — not a new database, not a byte of an existing one.
@Suite struct ConfigFileTests {
  /// A YAML file (after `version: 1`) and the line its error must name.
  struct Case: CustomStringConvertible, Sendable {
    let yaml: String
    let line: Int
    var description: String { yaml.replacingOccurrences(of: "\n", with: " ⏎ ") }
  }

  /// `section.key: value` written as nested block mappings; the error is on the value's line.
  static func key(_ dotted: String, _ value: String) -> Case {
    let parts = dotted.split(separator: ".")
    var yaml = "version: 1\n"
    for (depth, part) in parts.enumerated() {
      let indent = String(repeating: "  ", count: depth)
      yaml += depth == parts.count - 1 ? "\(indent)\(part): \(value)\n" : "\(indent)\(part):\n"
    }
    return Case(yaml: yaml, line: parts.count + 1)
  }

  /// A `bench.targets` entry: its name is a workload id, dots included.
  static func target(_ id: String, _ value: String) -> Case {
    Case(yaml: "version: 1\nbench:\n  targets:\n    \(id): \(value)\n", line: 4)
  }

  static let wrongValues: [Case] =
    [
      // The format version.
      Case(yaml: "version: 2\n", line: 1), Case(yaml: "version: one\n", line: 1),
      Case(yaml: "version: [1]\n", line: 1), Case(yaml: "database:\n  busy_timeout: 10\n", line: 1),
      // A base-60 number too large for Int: Yams' conversion trapped on it (found by make fuzz).
      Case(yaml: "version: 7990071992547409932:758\n", line: 1),
      // Sections that are not mappings, unknown sections and keys, a key twice, broken YAML.
      Case(yaml: "version: 1\ndatabase: 5\n", line: 2), Case(yaml: "version: 1\noutput: [table]\n", line: 2),
      Case(yaml: "version: 1\ncolour: red\n", line: 2), Case(yaml: "version: 1\ndatabase:\n  colour: red\n", line: 3),
      Case(yaml: "version: 1\ndatabase:\n  busy_timeout: 1\n  busy_timeout: 2\n", line: 3),
      Case(yaml: "version: 1\ndatabase: [\n", line: 3), Case(yaml: "- version\n- 1\n", line: 1),
    ]
    // Strings: no value, a list, a mapping.
    + ["database.path", "export.directory"].flatMap { name in
      ["", "~", "null", "[a, b]", "{a: b}"].map { key(name, $0) }
    }
    // Integers: text, a fraction, out of range, beyond 64 bits, a boolean, a list, a mapping, no value.
    + ["abc", "1.5", "-1", "600001", "99999999999999999999", "true", "[1]", "{a: 1}", "~"].map {
      key("database.busy_timeout", $0)
    }
    + ["0", "1001", "many", "[5]", "{a: 1}"].map { key("database.backups.keep", $0) }
    + ["-1", "1000001", "ten", "2.5"].map { key("output.page_size", $0) }
    // A mapping given a scalar or a list.
    + ["5", "[keep]"].map { key("database.backups", $0) }
    // Booleans and choices.
    + ["maybe", "2", "[true]", "~"].map { key("database.auto_migrate", $0) }
    + ["xml", "TABLE", "1", "[csv]"].map { key("output.format", $0) }
    // The bench targets: not a mapping, or a target that is not a positive number.
    + ["5", "[1]"].map { key("bench.targets", $0) }
    + ["-1", "0", "fast", "[1]", ".inf", "~"].map { target("history.list_newest", $0) }
    // A time zone the system does not know, or a path; a list of sources that is empty or nested.
    + ["Mars/Olympus", "../../etc/passwd", "/usr/share/zoneinfo/UTC", "[Europe/Paris]", "~"].map {
      key("time.zone", $0)
    }
    + ["[]", "[[a]]", "{a: b}", "~", "[~]"].map { key("health.sources", $0) }

  @Test(arguments: wrongValues)
  func wrongValueIsExit78NamingTheLineAndWritingNothing(_ bad: Case) throws {
    let gym = try GymProcess()
    let config = try gym.write("gym config.yaml", bad.yaml)
    for arguments in [
      ["history", "count"], ["history", "add", "--plan-title", "Push", "--focus", "push", "--duration", "30"],
      ["library", "add", "Dune"], ["staples", "list"],
      ["config", "show"],
    ] {
      let result = try gym.run(arguments + ["--config", config])
      #expect(result.status == 78, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix("gym: error: \(config):\(bad.line):"), "\(result.stderr)")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath), "a database was created")
  }

  /// The control: each key with a right value is accepted, so the cases above fail for their value.
  @Test(arguments: [
    key("database.busy_timeout", "250"), key("database.backups.keep", "3"), key("output.page_size", "0"),
    key("database.auto_migrate", "false"), key("output.format", "csv"), key("export.directory", "exports"),
    target("history.list_newest", "2.5"), key("database.path", "'my data/gym.sqlite'"),
    key("time.zone", "America/Argentina/Buenos_Aires"), key("health.sources", "[\"Jane’s Apple Watch\", \"*iPhone*\"]"),
    key("health.sources", "Withings"),
  ])
  func rightValueIsAccepted(_ good: Case) throws {
    var gym = try GymProcess()
    gym.environment["GYM_DATABASE"] = nil  // or it would be database.path's source
    let config = try gym.write("gym config.yaml", good.yaml)
    let result = try gym.run(["config", "show", "--config", config])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\(config):\(good.line):"), "the value's source is named")
  }

  @Test func anExistingDatabaseIsLeftByteForByte() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    let before = try Data(contentsOf: URL(fileURLWithPath: gym.databasePath))
    let config = try gym.write("bad.yaml", Self.key("database.busy_timeout", "soon").yaml)
    for arguments in [
      ["history", "add", "--plan-title", "Push", "--focus", "push", "--duration", "30"],
      ["history", "delete", "00000000-0000-0000-0000-000000000000"], ["history", "import", "-"], ["migrate", "up"],
      ["export", "--out", gym.directory + "/exports"],
    ] {
      let result = try gym.run(arguments + ["--config", config], stdin: "")
      #expect(result.status == 78, "\(arguments): \(result.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: gym.databasePath)) == before)
    let count = try gym.run(["history", "count"])
    #expect(count.stdout == "5\n", "\(count.stderr)")
  }

  @Test(arguments: [
    ("GYM_DATABASE_BUSY_TIMEOUT", "soon"), ("GYM_DATABASE_AUTO_MIGRATE", "maybe"), ("GYM_OUTPUT_FORMAT", "xml"),
    ("GYM_OUTPUT_PAGE_SIZE", "-3"), ("GYM_DATABASE_BACKUPS_KEEP", "0"), ("GYM_EXPORT_DIRECTORY", ""),
  ])
  func wrongEnvironmentValueNamesTheVariable(_ name: String, _ value: String) throws {
    let gym = try GymProcess()
    let result = try gym.run(["history", "count"], environment: [name: value])
    #expect(result.status == 78, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("gym: error: environment variable \(name)='\(value)'"), "\(result.stderr)")
    #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
  }

  @Test func aFileThatCannotBeReadAsAConfigurationIs78() throws {
    let gym = try GymProcess()
    let binary = gym.directory + "/binary.yaml"
    try Data([0x76, 0x65, 0x72, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: binary))
    for path in [binary, gym.directory, gym.directory + "/missing.yaml"] {
      let result = try gym.run(["history", "count", "--config", path])
      #expect(result.status == 78, "\(path): \(result.stderr)")
      #expect(result.stderr.contains(path), "\(result.stderr)")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
  }

  @Test func aBenchTargetForAnUnknownWorkloadIs78() throws {
    let gym = try GymProcess()
    let config = try gym.write("gym.yaml", Self.target("history.list_newset", "5").yaml)
    let result = try gym.run(["bench", "--scale", "100", "--repeat", "1", "--config", config])
    #expect(result.status == 78, "\(result.stderr)")
    #expect(result.stderr.contains("\(config):4:"), "\(result.stderr)")
    #expect(result.stderr.contains("unknown workload 'history.list_newset'"), "\(result.stderr)")
  }

  /// Aliases that expand exponentially (as mapping keys, they took 83 s at 460 bytes), a huge file and
  /// deep nesting are refused before the YAML parser sees them: exit 78, promptly, in one line.
  @Test func hostileYAMLIsRefusedBeforeParsing() throws {
    var bomb = "version: 1\nl0: &l0 [x, x, x, x, x, x, x, x, x]\n"
    for level in 1...9 {
      bomb += "l\(level): &l\(level) {" + (0..<9).map { "*l\(level - 1) : \($0)" }.joined(separator: ", ") + "}\n"
    }
    let cases = [
      (bomb, "more than 16 aliases"),
      ("version: 1\n# " + String(repeating: "x", count: 70_000) + "\n", "a configuration is at most 65536"),
      (
        "version: 1\nx: " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n",
        "deeper than 32"
      ),
    ]
    for (yaml, message) in cases {
      let gym = try GymProcess()
      let config = try gym.write("gym.yaml", yaml)
      let started = Date()
      let result = try gym.run(["history", "count", "--config", config])
      #expect(Date().timeIntervalSince(started) < 5)
      #expect(result.status == 78)
      #expect(result.stderr.contains(message), "\(result.stderr)")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }
    // One alias, as a person might write, still loads.
    let gym = try GymProcess()
    let config = try gym.write(
      "gym.yaml", "version: 1\noutput:\n  page_size: &n 7\nbench:\n  targets:\n    history.list_newest: *n\n")
    #expect(try gym.run(["config", "show", "--config", config]).status == 0)
  }
}
