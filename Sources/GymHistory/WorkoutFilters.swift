import ArgumentParser
import GymCLI
import GymCore

/// `--status`, `--since`, `--until` and `--where`, shared by `list` and `count`.
struct WorkoutFilterOptions: ParsableArguments {
  @Option(help: "Only workouts with this status.")
  var status: WorkoutStatus?

  @OptionGroup var dates: DateRangeOptions

  @OptionGroup var filter: FilterOptions

  func predicates() throws -> [RecordFilter] {
    var result: [RecordFilter] = []
    if let status { result.append(.compare("status", .equal, .text(status.rawValue))) }
    result += try dates.predicates(on: "completedAt")
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
