import Foundation
import GymCLI
import GymCore
import Yams

/// Which muscle groups an exercise works: `Config/muscles.yaml`, shipped inside the executable, with
/// `$XDG_CONFIG_HOME/gym/muscles.yaml` (the same layout) adding exercises and replacing shipped ones.
/// Names are matched by their exercise key, as everywhere in training.
struct MuscleMap: Sendable {
  struct Groups: Equatable, Sendable {
    var primary: [String]
    var secondary: [String]
  }

  let exercises: [String: Groups]
  /// Each name without its equipment in parentheses (`squat` for `squat (barbell)`), as its barbell
  /// form, else its first form by name: Strong's older files and renames say `Squat`, `Bench Press`.
  let byBase: [String: Groups]

  init(exercises: [String: Groups]) {
    self.exercises = exercises
    var byBase: [String: Groups] = [:]
    for key in exercises.keys.sorted() {
      let base = Self.base(key)
      if byBase[base] == nil || key == base + " (barbell)" { byBase[base] = exercises[key] }
    }
    for (key, groups) in exercises where Self.base(key) == key { byBase[key] = groups }  // the name itself first
    self.byBase = byBase
  }

  /// A key without a trailing ` (equipment)`.
  static func base(_ key: String) -> String {
    guard key.hasSuffix(")"), let open = key.range(of: " (", options: .backwards) else { return key }
    return String(key[..<open.lowerBound])
  }

  /// The key of a name, exactly as `ExerciseKey.sql` makes it in SQL (the stored keys come from
  /// there, and released migrations index that expression): the same replacements in the same order.
  static func key(_ name: String) -> String { ExerciseKey.swift(name) }

  /// The groups of a key: its own entry, else the entry of its name without equipment.
  func groups(_ key: String) -> Groups? { exercises[key] ?? byBase[Self.base(key)] }

  /// The groups of a spelling as the sets know it: the name it goes by now, else the name it was
  /// written with (a rename to a name of one's own keeps the muscles of what it renamed).
  func groups(key: String, rawKey: String) -> Groups? { groups(key) ?? groups(rawKey) }

  /// The shipped mapping, then the user's file when there is one.
  static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> MuscleMap {
    var exercises = try parse(MuscleMapText.shipped, file: "Config/muscles.yaml")
    let user = XDGDirectories.configHome(environment) + "/gym/muscles.yaml"
    if FileManager.default.fileExists(atPath: user) {
      let text = try String(contentsOfFile: user, encoding: .utf8)
      exercises.merge(try parse(text, file: user)) { _, mine in mine }
    }
    return MuscleMap(exercises: exercises)
  }

  static func parse(_ text: String, file: String) throws -> [String: Groups] {
    func refuse(_ what: String) -> GymError {
      GymError(.configuration, "\(file): \(what); see Config/muscles.yaml for the layout")
    }
    // The limits gym.yaml has: a user's file is read by every training command.
    if let (message, line) = YAMLLimits.violation(in: text) {
      throw GymError(.configuration, "\(file):\(line): \(message)")
    }
    // Composed, never loaded: loading converts every scalar, and a YAML 1.1 base-60 number
    // (`7990071992547409932:30`) traps as it is read. Scalars are read as text, as gym.yaml's are.
    guard let root = try? Yams.compose(yaml: text), case .mapping(let top) = root else {
      throw refuse("not a YAML mapping")
    }
    func value(_ mapping: Node.Mapping, _ key: String) -> Node? { mapping.first { $0.key.string == key }?.value }
    func strings(_ node: Node?) -> [String]? {
      guard case .sequence(let items)? = node else { return nil }
      let texts = items.compactMap { node -> String? in
        guard case .scalar(let scalar) = node else { return nil }
        return scalar.string
      }
      return texts.count == items.count ? texts : nil
    }
    guard value(top, "version")?.string == "1" else { throw refuse("'version: 1' is missing") }
    guard case .mapping(let entries)? = value(top, "exercises") else { throw refuse("'exercises' is missing") }
    var result: [String: Groups] = [:]
    for (nameNode, groupsNode) in entries {
      let name = nameNode.string ?? ""
      guard case .mapping(let groups) = groupsNode, let primary = strings(value(groups, "primary")), !primary.isEmpty
      else { throw refuse("'\(name)' needs 'primary: [group, …]'") }
      let secondary = strings(value(groups, "secondary")) ?? []
      result[key(name)] = Groups(primary: primary, secondary: secondary)
    }
    return result
  }
}
