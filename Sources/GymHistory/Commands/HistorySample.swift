import ArgumentParser
import GymCLI
import GymCore

/// `gym history sample`: prints generated workouts (sample data only on request, never implicit);
/// pipe them into `gym history import -`.
struct HistorySample: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sample",
    abstract: "Print generated sample workouts (for demos and benchmarks).",
    discussion: HelpExamples.discussion(
      "For example: gym history sample --count 200 | gym history import -",
      examples: [
        "gym history sample --count 5 -f csv",
        "gym history sample --count 200 | gym history import -",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "How many workouts.") var count = 100
  @Option(help: "Spread over this many days up to now.") var days = 365
  @Option(help: "Random seed: the same seed gives the same workouts, ids included (default: a new one each run).")
  var seed: UInt64?
  @OptionGroup var formatting: FormatOptions
  /// Not `output.format`: this output is meant for a pipe or a person as it is.
  var format: OutputFormat { formatting.format ?? .ndjson }

  func validate() throws {
    if count < 0 { throw ValidationError("--count must be 0 or more") }
    // A hundred years back at most: what it writes stays within the years gym's importers read.
    if days < 1 || days > 36_500 { throw ValidationError("--days must be from 1 to 36500") }
  }

  func run() throws {
    // A new seed by default: a second run must add workouts, not silently rewrite the first run's.
    var sampler = WorkoutSampler(seed: seed ?? UInt64.random(in: 1...UInt64.max), end: .now(), days: days)
    let writer = RecordWriter(format: format, columns: WorkoutSampler.fields)
    for _ in 0..<count { writer.write(sampler.nextWorkout()) }
    writer.finish(next: nil)
  }
}
