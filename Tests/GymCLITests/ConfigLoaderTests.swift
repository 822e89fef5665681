import Foundation
import Testing

@testable import GymCLI

@Suite struct ConfigLoaderTests {
  func directory() throws -> String {
    let path = NSTemporaryDirectory() + "gym-config-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  func failure(_ yaml: String) throws -> GymError? {
    let dir = try directory()
    try write(yaml, to: dir + "/gym.yaml")
    do {
      _ = try ConfigLoader(environment: ["HOME": dir], workingDirectory: dir).load(explicit: nil)
      return nil
    } catch {
      #expect(error.status == .configuration)
      return error
    }
  }

  @Test func defaultsWithoutAnyFile() throws {
    let dir = try directory()
    let config = try ConfigLoader(environment: ["HOME": dir], workingDirectory: dir).load(explicit: nil)
    #expect(config.file == nil)
    #expect(config.string(.databasePath) == dir + "/.local/share/gym/gym.sqlite")
    #expect(config.integer(.busyTimeout) == 5000)
    #expect(config.outputFormat == .table)
    #expect(config.entry(.pageSize)?.source == "default")
  }

  @Test func searchOrderAndSources() throws {
    let dir = try directory()
    try FileManager.default.createDirectory(atPath: dir + "/xdg/gym", withIntermediateDirectories: true)
    try write("version: 1\noutput:\n  format: csv\n", to: dir + "/xdg/gym/gym.yaml")
    try write("version: 1\noutput:\n  format: json\n", to: dir + "/gym.yaml")
    try write("version: 1\noutput:\n  format: ndjson\n", to: dir + "/explicit.yaml")
    let env = ["HOME": dir, "XDG_CONFIG_HOME": dir + "/xdg"]
    let loader = ConfigLoader(environment: env, workingDirectory: dir)
    #expect(try loader.load(explicit: dir + "/explicit.yaml").outputFormat == .ndjson)
    #expect(try loader.load(explicit: nil).outputFormat == .json)
    #expect(try loader.load(explicit: nil).entry(.outputFormat)?.source == dir + "/gym.yaml:3:11")
    try FileManager.default.removeItem(atPath: dir + "/gym.yaml")
    #expect(try loader.load(explicit: nil).outputFormat == .csv)
    let viaEnv = ConfigLoader(
      environment: env.merging(["GYM_CONFIG": dir + "/explicit.yaml"]) { $1 }, workingDirectory: dir)
    #expect(try viaEnv.load(explicit: nil).outputFormat == .ndjson)
  }

  @Test func environmentOverridesSingleKeys() throws {
    let dir = try directory()
    try write("version: 1\ndatabase:\n  busy_timeout: 100\n  path: /from/file.sqlite\n", to: dir + "/gym.yaml")
    let env = ["HOME": dir, "GYM_DATABASE_BUSY_TIMEOUT": "250", "GYM_DATABASE": "/from/env.sqlite"]
    let config = try ConfigLoader(environment: env, workingDirectory: dir).load(explicit: nil)
    #expect(config.integer(.busyTimeout) == 250)
    #expect(config.entry(.busyTimeout)?.source == "env GYM_DATABASE_BUSY_TIMEOUT")
    #expect(config.string(.databasePath) == "/from/env.sqlite")
    let bad = ConfigLoader(environment: ["HOME": dir, "GYM_OUTPUT_FORMAT": "xml"], workingDirectory: dir)
    #expect(throws: GymError.self) { try bad.load(explicit: nil) }
  }

  @Test func unknownKeysAndWrongTypesNameLineAndColumn() throws {
    let unknown = try failure("version: 1\ndatabase:\n  pth: x\n")
    #expect(
      unknown?.message.contains("gym.yaml:3:3: unknown key 'database.pth'; valid keys in 'database': database.path")
        == true)
    let section = try failure("version: 1\ndatabse:\n  path: x\n")
    #expect(section?.message.contains("gym.yaml:2:1: unknown section 'databse'") == true)
    let type = try failure("version: 1\ndatabase:\n  busy_timeout: soon\n")
    #expect(type?.message.contains("gym.yaml:3:17: 'database.busy_timeout' must be an integer") == true)
    let choice = try failure("version: 1\noutput:\n  format: xml\n")
    #expect(choice?.message.contains("must be one of table, json, ndjson, csv") == true)
  }

  @Test func versionIsRequiredAndChecked() throws {
    #expect(try failure("output:\n  format: csv\n")?.message.contains("missing 'version: 1'") == true)
    #expect(try failure("version: 2\n")?.message.contains("unsupported version '2'") == true)
  }

  @Test func malformedYAMLNamesThePosition() throws {
    let error = try failure("version: 1\noutput:\n  format: [csv\n")
    #expect(error?.message.contains("gym.yaml:4:1: invalid YAML") == true)
  }

  @Test func explicitFileMustExist() throws {
    let dir = try directory()
    #expect(throws: GymError.self) {
      try ConfigLoader(environment: ["HOME": dir], workingDirectory: dir).load(explicit: dir + "/missing.yaml")
    }
  }

  /// `Config/gym.yaml` documents every key: it must load and name each one.
  @Test func documentedConfigurationCoversEveryKey() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let path = root.appendingPathComponent("Config/gym.yaml").path
    let config = try ConfigLoader(environment: ["HOME": "/nonexistent"], workingDirectory: "/").load(explicit: path)
    for key in ConfigKey.all where key.defaultValue != nil {
      #expect(config.entry(key)?.source.hasPrefix(path) == true, "\(key.name) is not set in Config/gym.yaml")
      #expect(config.string(key) == key.defaultValue, "Config/gym.yaml's \(key.name) differs from the default")
    }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("# path:"), "database.path is documented (commented out: its default is computed)")
    #expect(text.contains("# directory:"), "export.directory is documented (commented out: its default is computed)")
  }

  /// `health.sources`: a YAML list in order, or one name as written (commas and all); the
  /// environment's comma-separated form; and `time.zone` only as a zone the system knows.
  @Test func healthSourcesAndTimeZone() throws {
    let dir = try directory()
    try write(
      "version: 1\nhealth:\n  sources: \"Acme, Inc Tracker\"\ntime:\n  zone: Europe/Paris\n", to: dir + "/gym.yaml")
    let one = try ConfigLoader(environment: ["HOME": dir], workingDirectory: dir).load(explicit: nil)
    #expect(one.list(.healthSources) == ["Acme, Inc Tracker"])
    #expect(one.string(.timeZone) == "Europe/Paris")
    try write("version: 1\nhealth:\n  sources: [\"*Watch*\", Withings]\n", to: dir + "/gym.yaml")
    let listed = try ConfigLoader(environment: ["HOME": dir], workingDirectory: dir).load(explicit: nil)
    #expect(listed.list(.healthSources) == ["*Watch*", "Withings"])
    let environment = try ConfigLoader(
      environment: ["HOME": dir, "GYM_HEALTH_SOURCES": " iPhone , Oura "], workingDirectory: dir
    ).load(explicit: nil)
    #expect(environment.list(.healthSources) == ["iPhone", "Oura"])
    #expect(try failure("version: 1\ntime:\n  zone: Europe/Atlantis\n")?.message.contains("IANA time zone") == true)
  }
}
