import GymCLI
import GymCore

/// The history module as the store and the cross-cutting commands see it: workouts and health
/// samples, their migrations in release order.
public let historyModule = GymModule(
  name: "history",
  migrations: WorkoutSchema.migrations + SampleSchema.migrations + WorkoutSetSchema.migrations
    + WorkoutEvolution.migrations + [
      TrainingSchema.migration, ExerciseAliases.migration, ExerciseAliases.bySpelling, TrainingSchema.dropKeyIndex,
      ExerciseAliases.asRowidTable, SampleSources.migration, TrainingSets.migration, HistoryKeys.migration,
      ExerciseAliases.completedOnly,
    ],
  tables: [
    WorkoutSchema.table, SampleSchema.table, WorkoutSetSchema.table, ExerciseAliases.table, SampleSources.table,
  ],
  benchmarks: WorkoutBenchmarks.definition, doctorChecks: [TrainingVolume.unmappedCheck, SampleSources.futureCheck],
  syncedTables: HistoryKeys.synced, assignSyncKeys: HistoryKeys.assignAll, rowKeyings: HistoryKeys.keyings)

/// The module as the executable registers it: the store's part, the `gym history` commands, the report.
public let historyFeature = FeatureModule(historyModule, command: HistoryCommand.self, report: historyReport)
