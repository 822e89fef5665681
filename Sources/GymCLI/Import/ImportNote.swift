import ArgumentParser
import GymCore

/// `--dry-run` for every import: the whole import runs in a transaction that is rolled back.
public struct ImportDryRunOption: ParsableArguments {
  @Flag(help: "Run the import and roll it back: report what would be inserted, updated and left unchanged.")
  public var dryRun = false

  public init() {}
}

/// The one line an import ends with: what it did, or, in a dry run, what it would do.
public enum ImportNote {
  /// `imported` or `would import`.
  public static func verb(dryRun: Bool) -> String { dryRun ? "would import" : "imported" }

  /// What follows the counts in a dry run.
  public static func suffix(dryRun: Bool) -> String { dryRun ? "; nothing written (--dry-run)" : "" }

  /// A dry run with no database yet validates every record; each would be new.
  public static func validatedOnly(_ read: Int, _ noun: String) -> String {
    "validated \(read) \(noun); no database yet, so each would be inserted; nothing written (--dry-run)"
  }

  /// `imported 3 records: 3 inserted, 0 updated, 0 unchanged`, in a dry run `would import …`;
  /// `more` (what else it imported) follows the counts.
  public static func line(
    _ counts: ImportCounts, _ noun: String, dryRun: Bool, counted: Bool, more: String = ""
  ) -> String {
    guard counted else { return validatedOnly(counts.read, noun) }
    return "\(verb(dryRun: dryRun)) \(counts.read) \(noun): \(counts.inserted) inserted, \(counts.updated) updated, "
      + "\(counts.unchanged) unchanged" + more + suffix(dryRun: dryRun)
  }
}
