import Foundation
import GymCore
import Yams

/// Finds and reads the YAML configuration over the built-in defaults, then applies `GYM_*`
/// environment variables. YAML is parsed only when a file exists: most runs have none, and
/// start-up time is most of a small query's cost.
public struct ConfigLoader {
  public let environment: [String: String]
  public let workingDirectory: String

  public init(environment: [String: String], workingDirectory: String) {
    self.environment = environment
    self.workingDirectory = workingDirectory
  }

  /// The variables configuration reads, looked up one by one: building the whole environment
  /// as a dictionary (ProcessInfo) costs more than a small query does.
  public static func processEnvironment() -> [String: String] {
    let names =
      ["GYM_CONFIG", "GYM_DATABASE", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"] + ConfigKey.all.map(\.environmentName)
    var environment: [String: String] = [:]
    for name in names {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return environment
  }

  /// `--config`, `GYM_CONFIG`, `./gym.yaml`, `$XDG_CONFIG_HOME/gym/gym.yaml`: the first that
  /// exists (an explicit path must exist).
  public func locate(explicit: String?) throws(GymError) -> String? {
    if let path = explicit ?? environment["GYM_CONFIG"] {
      guard access(path, R_OK) == 0 else {
        throw GymError(.configuration, "configuration file '\(path)' does not exist or cannot be read")
      }
      return path
    }
    let candidates = [workingDirectory + "/gym.yaml", XDGDirectories.configHome(environment) + "/gym/gym.yaml"]
    return candidates.first { access($0, R_OK) == 0 }
  }

  public func load(explicit: String?) throws(GymError) -> Configuration {
    let file = try locate(explicit: explicit)
    var configuration = Configuration(file: file)
    for key in ConfigKey.all {
      if let value = key.defaultValue { configuration.set(key, value, source: "default") }
    }
    configuration.set(.databasePath, Store.defaultPath(environment: environment), source: "default")
    if let file { try YAMLConfigFile(path: file).apply(to: &configuration) }
    try applyEnvironment(to: &configuration)
    return configuration
  }

  private func applyEnvironment(to configuration: inout Configuration) throws(GymError) {
    // A mapping (bench.targets) has no single value for one variable to set.
    for key in ConfigKey.all where key.kind != .numbers {
      // GYM_DATABASE is the short, documented name for the database path (as plugins receive it).
      let names = key == .databasePath ? ["GYM_DATABASE", key.environmentName] : [key.environmentName]
      for name in names.reversed() {
        guard let raw = environment[name] else { continue }
        guard let value = key.normalise(raw) else {
          // A secret key pasted where a recipient goes is never repeated on the screen or in a log.
          let shown =
            raw.uppercased().contains("AGE-SECRET-KEY-") ? "(a value holding a secret key, not shown)" : "'\(raw)'"
          throw GymError(
            .configuration,
            ErrorReporting.oneLine(
              "environment variable \(name)=\(shown) is not \(key.kind.displayName); fix or unset it"))
        }
        configuration.set(key, value, source: "env \(name)")
      }
    }
  }
}

/// One YAML configuration file: `version: 1`, then sections of documented keys.
struct YAMLConfigFile {
  let path: String

  func apply(to configuration: inout Configuration) throws(GymError) {
    let text: String
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw GymError(.configuration, "\(path): is a directory; give the configuration file (gym.yaml) in it")
    }
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw GymError(.configuration, "\(path): cannot be read as UTF-8 text")
    }
    try apply(text: text, to: &configuration)
  }

  /// The file's text, already read (the fuzzer feeds it directly).
  func apply(text: String, to configuration: inout Configuration) throws(GymError) {
    if let (message, line) = YAMLLimits.violation(in: text) {
      throw GymError(.configuration, "\(path):\(line): \(message)")
    }
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw Self.describe(error, path: path)
    } catch {
      throw GymError(.configuration, "\(path): \(error)")
    }
    guard let root else { return }  // an empty file sets nothing
    guard case .mapping(let top) = root else {
      throw fail(root, "the top level must be a mapping of sections, starting with 'version: 1'")
    }
    let version = top.first { $0.key.string == "version" }
    guard let version else {
      throw fail(root, "missing 'version: 1' (the configuration format version)")
    }
    // Compared as text: Yams' `int` reads YAML 1.1's base-60 numbers (`1:30`) and traps when one
    // overflows (found by make fuzz: `version: 7990071992547409932:758`).
    guard case .scalar(let versionScalar) = version.value, versionScalar.string == "1" else {
      throw fail(version.value, "unsupported version '\(version.value.string ?? "")'; this gym reads version 1")
    }
    for (sectionKey, sectionValue) in top where sectionKey.string != "version" {
      let section = sectionKey.string ?? ""
      let keys = ConfigKey.all.filter { $0.name.hasPrefix(section + ".") }
      guard !keys.isEmpty else {
        throw fail(sectionKey, "unknown section '\(section)'; known sections: \(Self.sections.joined(separator: ", "))")
      }
      // A section whose keys are all commented out is empty, not wrong.
      if case .scalar(let scalar) = sectionValue, ["", "~", "null"].contains(scalar.string) { continue }
      guard case .mapping(let entries) = sectionValue else {
        throw fail(sectionValue, "section '\(section)' must be a mapping of keys")
      }
      try readKeys(entries, prefix: section, keys: keys, into: &configuration)
    }
  }

  /// The keys of a section, and of mappings within it (`database.backups.keep`).
  private func readKeys(
    _ entries: Node.Mapping, prefix: String, keys: [ConfigKey], into configuration: inout Configuration
  ) throws(GymError) {
    for (keyNode, valueNode) in entries {
      let name = prefix + "." + (keyNode.string ?? "")
      if let key = keys.first(where: { $0.name == name }), key.kind == .numbers {
        guard case .mapping(let map) = valueNode else {
          throw fail(valueNode, "'\(name)' must be \(key.kind.displayName)")
        }
        for (entryName, entryValue) in map {
          guard case .scalar(let scalar) = entryValue, let value = key.normalise(scalar.string) else {
            throw fail(entryValue, "'\(name).\(entryName.string ?? "")' must be a positive number")
          }
          configuration.set(key, name: entryName.string ?? "", value, source: location(entryValue))
        }
        continue
      }
      let nestedKeys = keys.filter { $0.name.hasPrefix(name + ".") }
      if !nestedKeys.isEmpty {
        guard case .mapping(let nested) = valueNode else {
          let names = nestedKeys.map { String($0.name.dropFirst(name.count + 1)) }.joined(separator: ", ")
          throw fail(valueNode, "'\(name)' must be a mapping of its keys (\(names))")
        }
        try readKeys(nested, prefix: name, keys: keys, into: &configuration)
        continue
      }
      guard let key = keys.first(where: { $0.name == name }) else {
        let valid = keys.map(\.name).joined(separator: ", ")
        throw fail(keyNode, "unknown key '\(name)'; valid keys in '\(prefix)': \(valid)")
      }
      if key.kind == .list, case .scalar(let scalar) = valueNode, !Self.nulls.contains(scalar.string),
        !scalar.string.contains("\n")
      {
        configuration.set(key, scalar.string, source: location(valueNode))  // one name, commas and all
        continue
      }
      if key.kind == .list, case .sequence(let items) = valueNode {
        var names: [String] = []
        for item in items {
          guard case .scalar(let scalar) = item, !Self.nulls.contains(scalar.string) || scalar.style != .plain,
            !scalar.string.isEmpty, !scalar.string.contains("\n")
          else { throw fail(item, "'\(name)' must be \(key.kind.displayName)") }
          names.append(scalar.string)
        }
        guard !names.isEmpty else { throw fail(valueNode, "'\(name)' must be \(key.kind.displayName)") }
        configuration.set(key, names.joined(separator: "\n"), source: location(valueNode))
        continue
      }
      // `path:` or `path: ~` is YAML's null, not a file named "~": say so rather than use it.
      if case .scalar(let scalar) = valueNode, scalar.style == .plain, Self.nulls.contains(scalar.string) {
        throw fail(valueNode, "'\(name)' has no value; give \(key.kind.displayName) or remove the line")
      }
      guard case .scalar(let scalar) = valueNode, let value = key.normalise(scalar.string) else {
        throw fail(valueNode, "'\(name)' must be \(key.kind.displayName)")
      }
      configuration.set(key, value, source: location(valueNode))
    }
  }

  /// Plain scalars YAML reads as null.
  static let nulls: Set<String> = ["", "~", "null", "Null", "NULL"]

  static var sections: [String] {
    var seen: [String] = []
    for key in ConfigKey.all {
      let section = String(key.name.prefix { $0 != "." })
      if !seen.contains(section) { seen.append(section) }
    }
    return seen
  }

  func location(_ node: Node) -> String {
    guard let mark = node.mark else { return path }
    return "\(path):\(mark.line):\(mark.column)"
  }

  func fail(_ node: Node, _ message: String) -> GymError {
    GymError(.configuration, "\(location(node)): \(message)")
  }

  static func describe(_ error: YamlError, path: String) -> GymError {
    switch error {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      return GymError(.configuration, "\(path):\(mark.line):\(mark.column): invalid YAML: \(problem)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
      return GymError(
        .configuration,
        "\(path):\(context.mark.line):\(context.mark.column): \(names) appears more than once in one mapping; keep one")
    default:
      return GymError(.configuration, "\(path): invalid YAML: \(error)")
    }
  }
}
