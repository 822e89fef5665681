import ArgumentParser
import GymCLI
import GymCore

/// `--status`, `--since`, `--until` and `--where`, shared by `list` and `count`.
struct WorkoutFilterOptions: ParsableArguments {
  @Option(help: "Only workouts with this status.")
  var status: WorkoutStatus?

  @Option(help: ArgumentHelp("Completed at or after this date (2026-11-01, 7d, 'now - 2w').", valueName: "date"))
  var since: String?

  @Option(help: ArgumentHelp("Completed before this date.", valueName: "date"))
  var until: String?

  @OptionGroup var filter: FilterOptions

  func predicates() throws -> [Predicate] {
    var result: [Predicate] = []
    if let status { result.append(.compare("status", .equal, .text(status.rawValue))) }
    if let since {
      result.append(
        .compare("completedAt", .greaterOrEqual, .timestamp(try WhereParser.parseDate(since, option: "--since"))))
    }
    if let until {
      result.append(.compare("completedAt", .less, .timestamp(try WhereParser.parseDate(until, option: "--until"))))
    }
    if let predicate = try filter.predicate(for: WorkoutSchema.table) { result.append(predicate) }
    return result
  }
}

enum WorkoutStatus: String, CaseIterable, ExpressibleByArgument {
  case completed, skipped
}

enum WorkoutFocus: String, CaseIterable, ExpressibleByArgument {
  case fullBody, upper, lower, push, pull, legs, core, cardio, mobility, sport
}

enum WorkoutIntensity: String, CaseIterable, ExpressibleByArgument {
  case low, moderate, high
}
