import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// The exercise a user names on the command line, found forgivingly: any case and runs of spaces,
/// any of its names through renames and merges; failing that, the one exercise that is the name
/// with its equipment in parentheses (`bench press` for `Bench Press (Barbell)`); failing that, an
/// error naming the nearest exercise.
enum ExerciseNames {
  /// The name the exercise goes by, which `ExerciseAliases.spellings(_:of:)` finds every spelling of.
  static func resolve(_ name: String, _ db: Database) throws -> String {
    try spellings(named: name, db)[0].name
  }

  /// Every spelling of the exercise `name` means (never empty), read once.
  static func spellings(named name: String, _ db: Database) throws
    -> [(spelled: String, rawKey: String, key: String, name: String)]
  {
    let all = try ExerciseAliases.spellings(db)
    func of(_ key: String) -> [(spelled: String, rawKey: String, key: String, name: String)] {
      all.filter { $0.key == key }
    }
    let wanted = ExerciseKey.swift(name)
    let resolved = try String.fetchOne(db, sql: "SELECT \(ExerciseAliases.resolvedKey("?1"))", arguments: [name])
    if let resolved, case let exact = of(resolved), !exact.isEmpty { return exact }
    // The keys of the exercises that are `name` with equipment after it: `bench press (…)`.
    var withEquipment: [String: String] = [:]
    for spelling in all where withoutEquipment(spelling.key) == wanted && spelling.key != wanted {
      withEquipment[spelling.key] = withEquipment[spelling.key] ?? spelling.name
    }
    if withEquipment.count == 1 { return of(withEquipment.keys.first!) }
    let shown = { (text: String) in "'\(ErrorReporting.oneLine(text))'" }
    if withEquipment.count > 1 {
      let choices = withEquipment.keys.sorted().map { shown(withEquipment[$0]!) }
      throw GymError.usage("\(shown(name)) is \(choices.joined(separator: " or ")); name one")
    }
    let names = Array(Set(all.map(\.name))).sorted()
    let hint = Suggestions.nearest(to: name, in: names).first.map { "; did you mean \(shown($0))?" }
    throw GymError.noInput("no sets of \(shown(name))\(hint ?? "; see 'gym history exercises'")")
  }

  /// A key without a last parenthesised part: `bench press (barbell)` → `bench press`.
  static func withoutEquipment(_ key: String) -> String {
    guard key.hasSuffix(")"), let open = key.lastIndex(of: "(") else { return key }
    return String(key[..<open]).trimmingCharacters(in: .whitespaces)
  }

  /// The names the sets go by, for the shell to complete `--exercise` (the typed start, any case).
  @Sendable static func completions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    DynamicCompletion.values(
      words,
      sql: """
        \(ExerciseAliases.distinctSpellings)
        SELECT DISTINCT coalesce(al.name, raw.exercise) AS name FROM spelled raw
        LEFT JOIN exercise_alias al ON al.aliasKey = \(ExerciseKey.sql("raw.exercise"))
        WHERE raw.exercise IS NOT NULL AND lower(substr(coalesce(al.name, raw.exercise), 1, length(?1))) = lower(?1)
        ORDER BY name LIMIT ?2
        """, prefix: prefix)
  }
}

/// `--exercise NAME`, as the training lists take it: optional, found by `ExerciseNames.resolve`,
/// completed from the names the sets go by.
struct ExerciseOption: ParsableArguments {
  @Option(
    help: ArgumentHelp("Only this exercise (any case, any of its names).", valueName: "name"),
    completion: .custom(ExerciseNames.completions))
  var exercise: String?

  /// The name the exercise goes by; nil without `--exercise`.
  func resolved(_ db: Database) throws -> String? { try exercise.map { try ExerciseNames.resolve($0, db) } }

  /// Every spelling of the exercise named; nil without `--exercise`.
  func spellings(_ db: Database) throws -> [String]? {
    try exercise.map { try ExerciseNames.spellings(named: $0, db).map(\.spelled) }
  }
}
