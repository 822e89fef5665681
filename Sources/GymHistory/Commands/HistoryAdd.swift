import ArgumentParser
import Foundation
import GRDB
import GymCLI
import GymCore

/// `gym history add`: records one workout and prints its id.
struct HistoryAdd: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Record a workout.",
    discussion: HelpExamples.discussion(examples: [
      "gym history add --plan-title 'Easy run' --focus cardio --duration 30",
      "gym history add --plan-title Legs --focus legs --duration 50 --intensity high",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "The plan's title.") var planTitle: String
  @Option(help: "What the session trained.") var focus: WorkoutFocus
  @Option(name: .customLong("duration"), help: "Duration in minutes.") var durationMinutes: Int
  // Unknown unless given: a default would store a value nobody said.
  @Option(help: "How hard it was (default: unknown).") var intensity: WorkoutIntensity?
  @Option(help: "Whether it was done or skipped.") var status: WorkoutStatus = .completed
  @Option(help: ArgumentHelp("When it ended (default: now).", valueName: "date")) var completedAt: String?
  @Option(help: "A UUID to use instead of a new one.") var id: String?
  @Option(help: "Free text about the session.") var notes: String?

  func validate() throws {
    if !PlausibleRange.minutes.contains(Double(durationMinutes)) {
      throw ValidationError("--duration must be \(PlausibleRange.describe(PlausibleRange.minutes)) minutes")
    }
    if planTitle.allSatisfy(\.isWhitespace) { throw ValidationError("--plan-title must not be empty") }
    if let id, UUID(uuidString: id) == nil { throw ValidationError("--id '\(id)' is not a UUID") }
  }

  func run(context: CommandContext) throws {
    let when = try completedAt.map { try WhereParser.parseDate($0, option: "--completed-at") } ?? .now()
    let key = (id ?? UUID().uuidString).lowercased()
    let store = try context.openStoreForWriting()
    try store.write { db in
      if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM workout WHERE id = ?)", arguments: [key])! {
        throw GymError.data(
          "--id: a workout with id \(key) is already recorded; change it with 'gym history set \(key) …', "
            + "or leave --id out for a new one")
      }
      try db.execute(
        sql: """
          INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity, notes)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          key, when.canonical, status.rawValue, planTitle, focus.rawValue, durationMinutes, intensity?.rawValue,
          notes.flatMap { $0.trimmed.isEmpty ? nil : $0 },
        ])
    }
    printIdentifier(key)
  }
}
