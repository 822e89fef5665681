import ArgumentParser
import GymCLI
import GymCore

/// `--keep-daily`, `--keep-weekly`, `--keep-monthly`, `--keep-within`: restic's thinning, beside
/// `--keep` (the newest N), shared by `export schedule` and `export prune`.
public struct RetentionOptions: ParsableArguments {
  @Option(help: "Also keep the newest export of each of the last N days that have one.") var keepDaily = 0
  @Option(help: "Also keep the newest export of each of the last N weeks (Monday to Sunday) that have one.")
  var keepWeekly = 0
  @Option(help: "Also keep the newest export of each of the last N months that have one.") var keepMonthly = 0
  @Option(
    help: ArgumentHelp(
      "Also keep every export made within this long of the newest (30d, 2w, 36h).", valueName: "duration"))
  var keepWithin: String?

  public init() {}

  public func validate() throws {
    for (name, value) in [("--keep-daily", keepDaily), ("--keep-weekly", keepWeekly), ("--keep-monthly", keepMonthly)]
    where value < 0 || value > 100_000 {
      throw ValidationError("\(name) must be from 0 to 100000")
    }
    if let keepWithin {
      do { _ = try WhereParser.parseSpan(keepWithin, option: "--keep-within") } catch { throw ValidationError(error) }
    }
  }

  func policy(last: Int) throws(GymError) -> RetentionPolicy {
    RetentionPolicy(
      last: last, daily: keepDaily, weekly: keepWeekly, monthly: keepMonthly,
      within: try keepWithin.map { text throws(GymError) in try WhereParser.parseSpan(text, option: "--keep-within") })
  }
}
