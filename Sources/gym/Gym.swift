import ArgumentParser
import GymBench
import GymCLI
import GymExport
import GymMigrate
import GymModules
import GymReport

/// The root command: the feature modules' commands (from the registered list), then the
/// cross-cutting ones.
struct Gym: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gym",
    abstract: "Personal records — training, health, reading, pantry — in one SQLite store.",
    discussion: HelpExamples.discussion(
      "An unknown command 'gym foo …' runs 'gym-foo' from PATH, with GYM_DATABASE set.",
      examples: [
        "gym history list --since 30d",
        "gym --database gym.sqlite history count",
        "gym help history list",
      ]),
    version: "0.1.0",
    subcommands: registeredFeatures.map(\.command) + [
      MigrateCommand.self, ExportCommand.self, ImportCommand.self, ReportCommand.self, BenchCommand.self,
      SyncCommand.self, ConfigCommand.self, VersionCommand.self, DoctorCommand.self, CompletionsCommand.self,
    ]
  )
}
