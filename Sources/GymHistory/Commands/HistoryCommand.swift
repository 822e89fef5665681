import ArgumentParser
import GymCLI

/// `gym history`: workout history.
public struct HistoryCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Workout history and health samples: list, count, import, statistics, the daily summary.",
    discussion: HelpExamples.discussion(examples: [
      "gym history list -n 5",
      "gym history sample --count 20 | gym history import -",
      "gym history stats --weeks 4",
    ]),
    subcommands: [
      HistoryList.self, HistoryCount.self, HistoryShow.self, HistoryAdd.self, HistorySet.self, HistoryRemove.self,
      HistoryImport.self, HistoryImportHealth.self, HistoryStats.self, HistorySample.self, SamplesCommand.self,
      HistoryDaily.self,
      HistorySleep.self, HistoryRecent.self, HistoryTrend.self, HistorySummary.self, HistoryExercises.self,
      HistorySets.self,
      HistoryPRs.self,
      HistoryProgress.self, HistoryVolume.self,
    ]
  )

  public init() {}
}
