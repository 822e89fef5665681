import ArgumentParser
import GRDB
import GymCore

/// `--dry-run` and `--ignore-missing`: what every `remove` takes.
public struct RemoveOptions: ParsableArguments {
  @Flag(help: "Say what would be removed; remove nothing.")
  public var dryRun = false

  @Flag(help: "Skip identifiers that match nothing instead of removing none.")
  public var ignoreMissing = false

  public init() {}
}

/// The one way every module's `remove` works: the records the identifiers name go in one
/// transaction, all or none — an identifier that matches nothing stops them all unless
/// `--ignore-missing` — and `--dry-run` rolls the same transaction back after saying what it found.
public enum RecordRemoval {
  /// `remove` deletes the record `key` names inside the transaction and returns how to name it
  /// ("workout 6f96…", "work 3: 'Dune'"), or nil when there is none. Returns how many went.
  @discardableResult
  public static func run(
    store: Store, keys: [String], noun: String, options: RemoveOptions,
    remove: (Database, String) throws -> String?
  ) throws -> Int {
    struct DryRun: Error {}
    var removed: [String] = []
    var missing: [String] = []
    do {
      try store.write { db in
        for key in keys {
          if let name = try remove(db, key) { removed.append(name) } else { missing.append(key) }
        }
        if !missing.isEmpty && !options.ignoreMissing {
          throw GymError.noInput(
            "no \(noun) \(missing.map { "'\($0)'" }.joined(separator: ", ")); nothing was removed "
              + "(--ignore-missing removes the others)")
        }
        if options.dryRun { throw DryRun() }
      }
    } catch is DryRun {}
    for name in removed { printNote((options.dryRun ? "would remove " : "removed ") + name, isResult: options.dryRun) }
    if !missing.isEmpty {
      printNote("no \(noun) \(missing.map { "'\($0)'" }.joined(separator: ", ")) (skipped)", isResult: options.dryRun)
    }
    return options.dryRun ? 0 : removed.count
  }
}
