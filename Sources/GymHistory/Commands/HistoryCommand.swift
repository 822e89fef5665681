import ArgumentParser
import GymCLI

/// `gym history`: workout history.
public struct HistoryCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Workout history and health samples: list, count, import, statistics, the daily summary.",
    subcommands: [
      HistoryList.self, HistoryCount.self, HistoryShow.self, HistoryAdd.self, HistorySet.self, HistoryRemove.self,
      HistoryImport.self, HistoryImportHealth.self, HistoryStats.self, HistorySample.self, SamplesCommand.self,
      HistoryDaily.self,
      HistoryRecent.self, HistoryTrend.self, HistorySummary.self,
    ]
  )

  public init() {}
}
