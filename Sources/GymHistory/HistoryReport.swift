import GRDB
import GymCLI
import GymCore

/// The history module's part of `gym report`: training and health over the report's period. A long
/// period is drawn at a coarser grain (`ReportGrain`), never cut: sessions by week up to half a year,
/// by month up to five years, by quarter beyond; the grain is named on the axis.
public enum HistoryReport {
  /// The record kinds as a reader names them.
  static let recordNames = [
    "heaviest": "Heaviest", "e1RM": "Est. 1RM (Epley)", "setVolume": "Best set volume",
    "sessionVolume": "Best session volume", "mostReps": "Most reps",
  ]

  public static func training(
    _ db: Database, since: Timestamp, now: Timestamp = .now(),
    weight: WeightDisplay = WeightDisplay(unit: .kg, columns: [])
  ) throws -> ReportSection? {
    let range: StatementArguments = [since.canonical, now.canonical]
    var section = ReportSection(id: "training", title: "Training")
    let grain = ReportGrain.forSessions(since: since, end: now)
    var counts: [String: Int] = [:]
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT \(grain.sqlLabel("completedAt")), COUNT(*) FROM workout
        WHERE status = 'completed' AND completedAt >= ? AND completedAt <= ? GROUP BY 1
        """, arguments: range)
    {
      // A time SQLite cannot read (written by another program) has no period: it is not drawn.
      if let label = row[0] as String? { counts[label] = row[1] }
    }
    let focus = try Row.fetchAll(
      db,
      sql: """
        SELECT coalesce(focus, ?), SUM(durationMinutes) FROM workout
        WHERE status = 'completed' AND completedAt >= ? AND completedAt <= ? GROUP BY 1
        HAVING SUM(durationMinutes) IS NOT NULL
        """, arguments: [ReportChart.unknown] + range)
    section.charts += [
      ReportChart(
        title: "Sessions per \(grain.name)", kind: .bars, xLabel: grain.axis, yLabel: "sessions",
        points: grain.labels(since: since, end: now).map { .init($0, Double(counts[$0] ?? 0)) }),
      ReportChart(
        title: "Minutes per focus", kind: .categories, xLabel: "focus", yLabel: "minutes",
        points: focus.map { .init($0[0], ($0.number(at: 1) ?? 0).rounded()) }),
    ].compactMap { $0 }
    let map = try MuscleMap.load()
    var setsPerMuscle: [String: Double] = [:]
    for row in try TrainingVolume.fetch(
      db, by: .week, muscle: nil, since: since, until: now.adding(milliseconds: 1), map: map)
    {
      if case .text(let muscle) = row[1], case .real(let sets) = row[2] { setsPerMuscle[muscle, default: 0] += sets }
    }
    if let volume = ReportChart(
      title: "Hard sets per muscle group", kind: .categories, xLabel: "muscle group", yLabel: "hard sets",
      points: setsPerMuscle.map { .init($0.key, $0.value) })
    {
      section.charts.append(volume)
    }
    if let table = try recordsTable(db, since: since, until: now, weight: weight) { section.tables.append(table) }
    return section.isEmpty ? nil : section
  }

  /// How many of the period's records the report's table lists, newest first.
  static let recordsShown = 10

  /// A weight as `history prs` prints it: to 0.1 (9999.9 kg, not a chart label's 10000).
  static func tenths(_ value: Double) -> String {
    Cell.real((value * 10).rounded() / 10).plainText(localTime: false)
  }

  /// Records (of all time) set in the period, newest first: what, its value with its unit, the set
  /// (weight × reps) and the day.
  static func recordsTable(_ db: Database, since: Timestamp, until: Timestamp, weight: WeightDisplay) throws
    -> ReportTable?
  {
    let unit = weight.unit.rawValue
    // Records as they stood at the period's end: one set in it and beaten later still shows.
    let records = try TrainingRecords.fetch(
      db, exercise: nil, since: nil, until: until.adding(milliseconds: 1), formula: .epley,
      inPounds: weight.unit == .lb
    ).filter {
      if case .timestamp(let at) = $0[5] { return at >= since.canonical && at <= until.canonical }
      return false
    }
    let recent = records.sorted { $0[5].plainText(localTime: false) > $1[5].plainText(localTime: false) }
      .prefix(Self.recordsShown)
    // The table says when it holds only the newest: every record is in `gym history prs`.
    let title =
      records.count > recent.count
      ? "Records set: the newest \(recent.count) of \(records.count) (all: gym history prs)" : "Records set"
    return ReportTable(
      title: title, columns: ["date", "exercise", "record", "value", "set"],
      rows: recent.map { row in
        let kind = row[1].plainText(localTime: false)
        let value = row[2].numberValue ?? 0
        let reps = row[4].integerValue.map { Int($0) }
        let kilograms = row[3].numberValue
        let shown =
          kind == "mostReps"
          ? "\(Int(value)) reps" : "\(Self.tenths(weight.value(value))) \(unit)"
        let set =
          kind == "sessionVolume"
          ? reps.map { "\($0) reps in the session" } ?? ""
            // A heaviest set whose reps its export did not give shows its weight alone, never "× 0".
          : kilograms.map { "\(Self.tenths(weight.value($0))) \(unit)" + (reps.map { " × \($0)" } ?? "") }
            ?? reps.map { "\($0) reps" } ?? ""
        return [
          String(row[5].plainText(localTime: true).prefix(10)), row[0].plainText(localTime: false),
          recordNames[kind] ?? kind, shown, set,
        ]
      })
  }

  /// Each moment counted once, from the highest-priority source (`health.sources`), as `daily` does:
  /// steps by day up to three months, by week up to two years, by month beyond; resting heart rate by
  /// week, then by month; sleep per night (asleep: core, deep, REM and unspecified, never awake or in
  /// bed) up to three months, then the average night of each month.
  public static func health(
    _ db: Database, since: Timestamp, now: Timestamp = .now(), sourcePriority: [String] = []
  ) throws -> ReportSection? {
    let selection = try SampleSelection.deduplicated(SourcePriority(patterns: sourcePriority)).knowingModels(db)
    let days = max(1, Int((now.millisecondsSince1970 - since.millisecondsSince1970) / 86_400_000) + 1)
    let grain = ReportGrain.forSamples(days: days)
    let months = max(1, ReportGrain.month.labels(since: since, end: now).count)
    let weeks = max(1, ReportGrain.week.labels(since: since, end: now).count)
    var section = ReportSection(id: "health", title: "Health")
    let steps: [SampleBucket]
    switch grain {
    case .day: steps = try SampleBuckets.daily(db, type: .steps, days: days, selection: selection, now: now)
    case .week:
      steps = try SampleBuckets.weekly(db, series: SampleSeries(.steps), weeks: weeks, selection: selection, now: now)
    case .month, .quarter:
      steps = try SampleBuckets.monthly(
        db, series: SampleSeries(.steps), months: months, selection: selection, now: now)
    }
    let resting =
      grain == .month || grain == .quarter
      ? try SampleBuckets.monthly(
        db, series: SampleSeries(.restingHeartRate), months: months, selection: selection, now: now)
      : try SampleBuckets.weekly(
        db, series: SampleSeries(.restingHeartRate), weeks: weeks, selection: selection, now: now)
    let restingGrain: ReportGrain = grain == .day ? .week : grain == .quarter ? .month : grain
    // A day without steps recorded is not drawn as a day of none.
    let stepPoints: [ReportChart.Point] = steps.reversed().compactMap { bucket in
      bucket.sum.map { .init(bucket.label, $0.rounded()) }
    }
    let restingPoints: [ReportChart.Point] = resting.reversed().compactMap { bucket in
      bucket.avg.map { .init(bucket.label, ($0 * 10).rounded() / 10) }
    }
    let stepsGrain: ReportGrain = grain == .quarter ? .month : grain
    section.charts = [
      ReportChart(
        title: "Steps per \(stepsGrain.name)", kind: .bars, xLabel: stepsGrain.axis, yLabel: "steps",
        points: stepPoints),
      ReportChart(
        title: "Resting heart rate, \(restingGrain.name)ly average", kind: .line, xLabel: restingGrain.axis,
        yLabel: "beats per minute", points: restingPoints),
      try sleepChart(db, days: days, selection: selection, since: since, now: now),
    ].compactMap { $0 }
    if let nights = try lastNights(db, selection: selection, now: now) { section.tables.append(nights) }
    return section.isEmpty ? nil : section
  }

  /// How far past the period's last instant its last night reaches: a record belongs to the night
  /// of the date six hours after it starts (`SleepNights`), and `lastNight` takes the date six hours
  /// before the instant it is given, so a sleep that began that evening (the period's newest
  /// record, by default) is in the period.
  static let nightReach: Int64 = 12 * 3_600_000

  /// The period's last seven nights as `history sleep` shows them (those with any sleep): in bed,
  /// asleep and its stages, and awake, in hours and minutes; empty where no source recorded it.
  static func lastNights(_ db: Database, selection: SampleSelection, now: Timestamp) throws -> ReportTable? {
    let newest = SleepNights.lastNight(now: now.adding(milliseconds: Self.nightReach))
    // Eight back: when the period ends in an evening, its last night (tonight) may hold nothing yet.
    let oldest = try String.fetchOne(db, sql: "SELECT date(?, '-7 days')", arguments: [newest]) ?? newest
    let nights = try SleepNights.nights(db, from: oldest, to: newest, selection: selection).filter {
      $0.asleep != nil || $0.inBed != nil
    }.prefix(7)
    func time(_ minutes: Double?) -> String {
      guard let minutes, minutes.isFinite, minutes >= 0, minutes < 1e6 else { return "" }
      let whole = Int(minutes.rounded())
      return "\(whole / 60) h \(whole % 60 < 10 ? "0" : "")\(whole % 60)"
    }
    return ReportTable(
      title: "The last nights", columns: ["night", "in bed", "asleep", "deep", "REM", "core", "awake"],
      rows: nights.map { night in
        [
          night.night, time(night.inBed), time(night.asleep), time(night.deep), time(night.rem), time(night.core),
          time(night.awake),
        ]
      })
  }

  /// Hours asleep per night; over more than three months, the average of each month's nights that
  /// have sleep (a month without any is not drawn: no zero is made up).
  static func sleepChart(_ db: Database, days: Int, selection: SampleSelection, since: Timestamp, now: Timestamp) throws
    -> ReportChart?
  {
    // From the night the period's first instant falls in to the one its last does (a record's night
    // is the date six hours after it starts): as many nights as that, not the period's days.
    let span =
      try Int.fetchOne(
        db,
        sql: """
          SELECT CAST(julianday(date(?1, 'localtime', '+6 hours')) - julianday(date(?2, 'localtime', '+6 hours'))
            AS INTEGER) + 1
          """, arguments: [now.canonical, since.canonical]) ?? days
    let nights = try SampleBuckets.nightly(
      db, nights: max(1, span), selection: selection, now: now.adding(milliseconds: Self.nightReach))
    func hours(_ minutes: Double) -> Double { (minutes / 60 * 10).rounded() / 10 }
    if days <= ReportGrain.dailyDays {
      // A night no source recorded is not drawn: no zero is made up.
      return ReportChart(
        title: "Sleep per night", kind: .bars, xLabel: "night ending", yLabel: "hours asleep",
        points: nights.reversed().compactMap { night in night.sum.map { .init(night.label, hours($0)) } })
    }
    var byMonth: [String: (total: Double, nights: Int)] = [:]
    for night in nights {
      guard let asleep = night.sum else { continue }
      let month = String(night.label.prefix(7))
      byMonth[month, default: (0, 0)].total += asleep
      byMonth[month, default: (0, 0)].nights += 1
    }
    return ReportChart(
      title: "Sleep, the average night of each month", kind: .bars, xLabel: "month", yLabel: "hours asleep",
      points: ReportGrain.month.labels(since: since, end: now).compactMap { month in
        byMonth[month].map { .init(month, hours($0.total / Double($0.nights))) }
      }, summing: false)
  }
}

extension HistoryReport {
  /// Workouts by their completion, health samples by their start (each type's first and last, one
  /// index seek each: `sample_key` leads with the type).
  static func extents(_ db: Database) throws -> [DataExtent] {
    [
      try DataExtent.read(db, "workout", sql: "SELECT min(completedAt), max(completedAt) FROM workout"),
      try DataExtent.read(
        db, "health sample",
        sql: """
          WITH RECURSIVE types(type) AS (
            SELECT min(type) FROM sample
            UNION ALL SELECT (SELECT min(type) FROM sample WHERE type > types.type) FROM types WHERE type IS NOT NULL)
          SELECT min((SELECT min(start) FROM sample WHERE type = types.type)),
            max((SELECT max(start) FROM sample WHERE type = types.type))
          FROM types WHERE type IS NOT NULL
          """),
    ].compactMap { $0 }
  }
}

/// Training and health in `gym report`.
public let historyReport = ReportContribution(module: "history", extents: HistoryReport.extents) { db, request in
  let unit = WeightUnitOptions.Unit(rawValue: request.configuration.string(.weightUnit) ?? "kg") ?? .kg
  return [
    try HistoryReport.training(
      db, since: request.since, now: request.now, weight: WeightDisplay(unit: unit, columns: [])),
    try HistoryReport.health(
      db, since: request.since, now: request.now, sourcePriority: request.configuration.list(.healthSources)),
  ].compactMap { $0 }
}
