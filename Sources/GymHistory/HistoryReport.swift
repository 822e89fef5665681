import GRDB
import GymCLI
import GymCore

/// The history module's part of `gym report`: training and health, from `since` to now. Each chart
/// is what a command prints (`stats`, `volume`, `prs`, `daily`, `trend`), drawn; steps over a range
/// longer than `ReportChart.maximumPoints` days are shown by week, and the weekly and nightly charts
/// stop at that many points.
public enum HistoryReport {
  public static func training(_ db: Database, since: Timestamp, now: Timestamp = .now()) throws -> ReportSection? {
    let weeks = min(max(1, Int((now.millisecondsSince1970 - since.millisecondsSince1970) / 604_800_000) + 1), 520)
    let stats = try WorkoutStats.compute(db, weeks: weeks, now: now)
    var section = ReportSection(id: "training", title: "Training")
    section.charts += [
      ReportChart(
        title: "Sessions per week", kind: .bars, xLabel: "week (Monday)", yLabel: "sessions",
        points: stats.weeks.reversed().map { .init($0.week, Double($0.sessions)) }),
      ReportChart(
        title: "Minutes per focus", kind: .bars, xLabel: "focus", yLabel: "minutes",
        points: stats.byFocus.map { .init($0.focus ?? "unknown", Double($0.minutes)) }),
    ].compactMap { $0 }
    let map = try MuscleMap.load()
    var setsPerMuscle: [String: Double] = [:]
    for row in try TrainingVolume.fetch(db, by: .week, muscle: nil, since: since, map: map) {
      if case .text(let muscle) = row[1], case .real(let sets) = row[2] { setsPerMuscle[muscle, default: 0] += sets }
    }
    if let volume = ReportChart(
      title: "Hard sets per muscle group", kind: .bars, xLabel: "muscle group", yLabel: "hard sets",
      points: setsPerMuscle.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { .init($0.key, $0.value) })
    {
      section.charts.append(volume)
    }
    // Records (of all time) reached in the period, newest first.
    let records = try TrainingRecords.fetch(db, exercise: nil, since: nil, formula: .epley).filter {
      if case .timestamp(let at) = $0[5] { return at >= since.canonical }
      return false
    }
    let recent = records.sorted { $0[5].plainText(localTime: false) > $1[5].plainText(localTime: false) }.prefix(10)
    if let table = ReportTable(
      title: "Recent records", columns: ["date", "exercise", "record", "value"],
      rows: recent.map { row in
        [
          String(row[5].plainText(localTime: true).prefix(10)), row[0].plainText(localTime: false),
          row[1].plainText(localTime: false), row[2].plainText(localTime: false),
        ]
      })
    {
      section.tables.append(table)
    }
    return section.isEmpty ? nil : section
  }

  /// Each moment counted once, from the highest-priority source (`health.sources`), as `daily` does.
  public static func health(
    _ db: Database, since: Timestamp, now: Timestamp = .now(), sourcePriority: [String] = []
  ) throws -> ReportSection? {
    let selection = try SampleSelection.deduplicated(SourcePriority(patterns: sourcePriority)).knowingModels(db)
    let days = max(1, Int((now.millisecondsSince1970 - since.millisecondsSince1970) / 86_400_000) + 1)
    let weeks = min(days / 7 + 1, ReportChart.maximumPoints)
    var section = ReportSection(id: "health", title: "Health")
    let steps =
      days <= ReportChart.maximumPoints
      ? try SampleBuckets.daily(db, type: .steps, days: days, selection: selection, now: now)
      : try SampleBuckets.weekly(db, series: SampleSeries(.steps), weeks: weeks, selection: selection, now: now)
    let resting = try SampleBuckets.weekly(
      db, series: SampleSeries(.restingHeartRate), weeks: weeks, selection: selection, now: now)
    let sleep = try SampleBuckets.nightly(
      db, nights: min(days, ReportChart.maximumPoints), selection: selection, now: now)
    let daily = days <= ReportChart.maximumPoints
    let stepPoints: [ReportChart.Point] = steps.reversed().map { .init($0.label, ($0.sum ?? 0).rounded()) }
    let restingPoints: [ReportChart.Point] = resting.reversed().compactMap { bucket in
      bucket.avg.map { .init(bucket.label, ($0 * 10).rounded() / 10) }
    }
    let sleepPoints: [ReportChart.Point] = sleep.reversed().map {
      .init($0.label, (($0.sum ?? 0) / 60 * 10).rounded() / 10)
    }
    let charts: [ReportChart?] = [
      ReportChart(
        title: daily ? "Steps per day" : "Steps per week", kind: .bars, xLabel: daily ? "day" : "week (Monday)",
        yLabel: "steps", points: stepPoints),
      ReportChart(
        title: "Resting heart rate, weekly average", kind: .line, xLabel: "week (Monday)",
        yLabel: "beats per minute", points: restingPoints),
      ReportChart(
        title: "Sleep per night", kind: .bars, xLabel: "night ending", yLabel: "hours asleep", points: sleepPoints),
    ]
    section.charts = charts.compactMap { $0 }
    return section.isEmpty ? nil : section
  }
}

/// Training and health in `gym report`.
public let historyReport = ReportContribution(module: "history") { db, request in
  [
    try HistoryReport.training(db, since: request.since, now: request.now),
    try HistoryReport.health(
      db, since: request.since, now: request.now, sourcePriority: request.configuration.list(.healthSources)),
  ].compactMap { $0 }
}
