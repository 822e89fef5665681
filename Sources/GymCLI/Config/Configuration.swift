import GymCore

/// The effective configuration: every key's value and where it came from.
public struct Configuration: Sendable {
  public struct Entry: Sendable {
    public let value: String
    /// `default`, `path/gym.yaml:3:9`, `env GYM_OUTPUT_FORMAT`, or `--database`.
    public let source: String
  }

  public private(set) var entries: [String: Entry] = [:]
  /// The entries of mapping keys (`bench.targets`), by key and name.
  public private(set) var mappings: [String: [String: Entry]] = [:]
  /// The file the values came from, if any.
  public let file: String?

  init(file: String?) { self.file = file }

  mutating func set(_ key: ConfigKey, _ value: String, source: String) {
    entries[key.name] = Entry(value: value, source: source)
  }

  mutating func set(_ key: ConfigKey, name: String, _ value: String, source: String) {
    mappings[key.name, default: [:]][name] = Entry(value: value, source: source)
  }

  public func entry(_ key: ConfigKey) -> Entry? { entries[key.name] }

  /// A mapping key's entries as numbers (`bench.targets`).
  public func numbers(_ key: ConfigKey) -> [String: Double] {
    (mappings[key.name] ?? [:]).compactMapValues { Double($0.value) }
  }

  public func string(_ key: ConfigKey) -> String? { entries[key.name]?.value }

  /// A list key's names, in order (`health.sources`).
  public func list(_ key: ConfigKey) -> [String] {
    string(key).map { $0.split(separator: "\n").map(String.init) } ?? []
  }

  public func integer(_ key: ConfigKey) -> Int { Int(string(key) ?? key.defaultValue ?? "0") ?? 0 }

  public func bool(_ key: ConfigKey) -> Bool { (string(key) ?? key.defaultValue) == "true" }

  public var outputFormat: OutputFormat {
    OutputFormat(rawValue: string(.outputFormat) ?? "table") ?? .table
  }

  public var storeOptions: Store.Options {
    Store.Options(
      busyTimeoutMilliseconds: integer(.busyTimeout), autoMigrate: bool(.autoMigrate),
      keepBackups: integer(.keepBackups), announce: { printNote($0) })
  }
}
