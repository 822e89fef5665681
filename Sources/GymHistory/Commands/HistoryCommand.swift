import ArgumentParser
import GymCLI

/// `gym history`: workout history.
public struct HistoryCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Workout history: list, count, add, import and statistics.",
    subcommands: [
      HistoryList.self, HistoryCount.self, HistoryShow.self, HistoryAdd.self, HistoryDelete.self,
      HistoryImport.self, HistoryStats.self, HistorySample.self,
    ]
  )

  public init() {}
}
