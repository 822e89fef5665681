import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// `gym history set ID --notes … --focus …`: changes only the fields given; the rest stay.
struct HistorySet: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "set", abstract: "Change fields of a workout; the fields not given stay as they are.",
    discussion: HelpExamples.discussion(examples: [
      "gym history set \"$(gym history list --ids -n 1)\" --notes 'felt strong'",
      "gym history set \"$(gym history list --ids -n 1)\" --intensity high",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The workout's id.", completion: .custom(HistoryCompletion.workoutIDs)) var id: String
  @Option(help: "The plan's title.") var planTitle: String?
  @Option(help: "What the session trained.") var focus: WorkoutFocus?
  @Option(name: .customLong("duration"), help: "Duration in minutes.") var durationMinutes: Int?
  @Option(help: "How hard it was.") var intensity: WorkoutIntensity?
  @Option(help: "Whether it was done or skipped.") var status: WorkoutStatus?
  @Option(help: ArgumentHelp("When it ended.", valueName: "date")) var completedAt: String?
  @Option(help: "Free text about the session; '' clears it.") var notes: String?

  func validate() throws {
    if let durationMinutes, !PlausibleRange.minutes.contains(Double(durationMinutes)) {
      throw ValidationError("--duration must be \(PlausibleRange.describe(PlausibleRange.minutes)) minutes")
    }
    if let planTitle, planTitle.allSatisfy(\.isWhitespace) { throw ValidationError("--plan-title must not be empty") }
    if [
      planTitle, focus?.rawValue, durationMinutes.map(String.init), intensity?.rawValue, status?.rawValue,
      completedAt, notes,
    ].allSatisfy({ $0 == nil }) {
      throw ValidationError("nothing to change; give --notes, --focus or another field")
    }
  }

  func run(context: CommandContext) throws {
    var changes: [(String, (any DatabaseValueConvertible)?)] = []
    if let planTitle { changes.append(("planTitle", planTitle)) }
    if let focus { changes.append(("focus", focus.rawValue)) }
    if let durationMinutes { changes.append(("durationMinutes", durationMinutes)) }
    if let intensity { changes.append(("intensity", intensity.rawValue)) }
    if let status { changes.append(("status", status.rawValue)) }
    if let completedAt {
      changes.append(("completedAt", try WhereParser.parseDate(completedAt, option: "--completed-at").canonical))
    }
    if let notes { changes.append(("notes", notes.trimmed.isEmpty ? nil : notes)) }
    let key = id.lowercased()
    try context.openStore().write { db in
      try db.execute(
        sql: "UPDATE workout SET " + changes.map { "\(SQL.quote($0.0)) = ?" }.joined(separator: ", ") + " WHERE id = ?",
        arguments: StatementArguments(changes.map(\.1) + [key]))
      if db.changesCount == 0 { throw StoreError.notFound(table: "workout", key: id) }
    }
    printNote("updated workout \(key)")
  }
}
