import GRDB
import GymCore

/// One night of sleep as the Health app shows it: named by the local date it ends, it holds the
/// sleep that starts from 18:00 the evening before to 18:00 that day.
struct SleepNight: Sendable, Equatable {
  /// `YYYY-MM-DD`, the local date the night ends.
  let night: String
  /// When the night began: its first in-bed record, else its first stage.
  var bedtime: Timestamp?
  /// When the sleeper woke: the end of its last asleep stage, else of its in-bed time.
  var wake: Timestamp?
  /// Minutes in bed, from the highest-ranked source that recorded in-bed time; nil when none did.
  var inBed: Double?
  /// Minutes asleep (core, deep, REM and unspecified sleep), from the highest-ranked source that
  /// recorded stages; awake time is not sleep. Nil when no source recorded stages.
  var asleep: Double?
  var awake: Double?
  var core: Double?
  var deep: Double?
  var rem: Double?
  /// Sleep a source recorded without a stage (`asleep`, older watches and apps).
  var unspecified: Double?
  /// The source of the stages, and of the in-bed time (they may differ: the phone's in-bed record
  /// and the watch's stages).
  var source: String?
  var inBedSource: String?
  /// The asleep records counted, kept only when asked for (hourly buckets place them).
  var asleepRecords: [SleepNights.Record] = []
}

enum SleepNights {
  /// The stages that are sleep; `awake` and `inBed` are not.
  static let asleepStages: Set<String> = ["asleep", "asleepCore", "asleepDeep", "asleepREM"]

  /// The nights from `first` to `last` (local dates), newest first, each listed even when empty.
  /// Within one source, overlapping records of a stage count once; with `.allSources` every
  /// source's records are added, as the option says.
  static func nights(
    _ db: Database, from first: String, to last: String, selection: SampleSelection, keepingRecords: Bool = false,
    until: Timestamp? = nil
  ) throws -> [SleepNight] {
    // `until`: only what was recorded by then, each record cut there (`summary --until`).
    let cut = until?.millisecondsSince1970 ?? .max
    let rows = try Row.fetchAll(
      db.cachedStatement(
        sql: """
          SELECT date(start, 'localtime', '+6 hours'), \(SampleBuckets.ms("start")), \(SampleBuckets.ms("\"end\"")),
            stage, source
          FROM sample
          WHERE type = 'sleep'
            AND start >= strftime('%Y-%m-%dT%H:%M:%fZ', :first, '-6 hours', 'utc')
            AND start < strftime('%Y-%m-%dT%H:%M:%fZ', :last, '+18 hours', 'utc')
            AND (:source IS NULL OR source = :source)
          """),
      arguments: ["first": first, "last": last, "source": selection.sourceName])
    var records: [String: [Record]] = [:]
    for row in rows {
      guard let night: String = row[0], let start: Int64 = row[1], let end: Int64 = row[2], start < cut else {
        continue
      }
      records[night, default: []].append(
        Record(start: start, end: min(max(start, end), cut), stage: row[3], source: row[4]))
    }
    return try labels(from: first, to: last, db).map { label in
      night(label, records[label] ?? [], selection: selection, keepingRecords: keepingRecords)
    }
  }

  /// The nights a range covers, newest first.
  static func labels(from first: String, to last: String, _ db: Database) throws -> [String] {
    try String.fetchAll(
      db,
      sql: """
        WITH RECURSIVE nights(label) AS (
          SELECT date(:last) UNION ALL SELECT date(label, '-1 day') FROM nights WHERE label > date(:first)
        )
        SELECT label FROM nights
        """, arguments: ["first": first, "last": last])
  }

  /// The night the summary calls last night: the one that ended today, until it is 06:00 tomorrow.
  static func lastNight(now: Timestamp) -> String { label(day: lastNightInstant(now: now).localDays) }

  /// An instant on last night's local date: six hours before now.
  static func lastNightInstant(now: Timestamp) -> Timestamp { now.adding(milliseconds: -6 * 3_600_000) }

  /// A night's name from its day (days since 1970-01-01): `YYYY-MM-DD`.
  static func label(day: Int64) -> String {
    let (year, month, date) = Timestamp.civil(fromDays: day)
    func digits(_ n: Int64, _ width: Int) -> String {
      String(repeating: "0", count: max(0, width - "\(n)".count)) + "\(n)"
    }
    return "\(digits(year, 4))-\(digits(month, 2))-\(digits(date, 2))"
  }

  struct Record: Sendable, Equatable {
    let start: Int64
    let end: Int64
    let stage: String
    let source: String
  }

  static func night(_ label: String, _ records: [Record], selection: SampleSelection, keepingRecords: Bool = false)
    -> SleepNight
  {
    var night = SleepNight(night: label)
    let inBedRecords = records.filter { $0.stage == "inBed" }
    let stageRecords = records.filter { $0.stage == "awake" || asleepStages.contains($0.stage) }
    let plainSum = { if case .allSources = selection { true } else { false } }()
    func chosen(_ records: [Record]) -> (records: [Record], source: String?) {
      guard !plainSum, let best = selection.priority.ordered(records.map(\.source)).first else {
        return (records, Set(records.map(\.source)).count == 1 ? records.first?.source : nil)
      }
      return (records.filter { $0.source == best }, best)
    }
    func minutes(_ records: [Record]) -> Double? {
      guard !records.isEmpty else { return nil }
      let milliseconds = plainSum ? records.reduce(0) { $0 + ($1.end - $1.start) } : unionLength(records)
      return Double(milliseconds) / 60_000
    }
    let (inBed, inBedSource) = chosen(inBedRecords)
    let (stages, source) = chosen(stageRecords)
    night.inBed = minutes(inBed)
    night.inBedSource = inBedSource
    night.source = source
    let asleep = stages.filter { asleepStages.contains($0.stage) }
    // As counted: one source's overlapping records once (an hour's buckets then add up to the night).
    if keepingRecords { night.asleepRecords = plainSum ? asleep : merged(asleep) }
    if !stages.isEmpty {
      night.asleep = minutes(asleep) ?? 0
      night.awake = minutes(stages.filter { $0.stage == "awake" }) ?? 0
      night.core = minutes(stages.filter { $0.stage == "asleepCore" })
      night.deep = minutes(stages.filter { $0.stage == "asleepDeep" })
      night.rem = minutes(stages.filter { $0.stage == "asleepREM" })
      night.unspecified = minutes(stages.filter { $0.stage == "asleep" })
    }
    let bedStart = (inBed.isEmpty ? stages : inBed).map(\.start).min()
    night.bedtime = bedStart.map(Timestamp.init(millisecondsSince1970:))
    night.wake = (asleep.isEmpty ? inBed : asleep).map(\.end).max().map(Timestamp.init(millisecondsSince1970:))
    return night
  }

  /// The time `records` cover, as records that do not overlap (each starts where the first of those
  /// it overlaps starts), in time order. Records that only touch (deep sleep to 04:00, REM from 04:00)
  /// stay apart: each is an hour's sleep where it starts.
  static func merged(_ records: [Record]) -> [Record] {
    var joined: [Record] = []
    for record in records.sorted(by: { $0.start < $1.start }) {
      if let last = joined.last, record.start < last.end {
        joined[joined.count - 1] = Record(
          start: last.start, end: max(last.end, record.end), stage: last.stage, source: last.source)
      } else {
        joined.append(record)
      }
    }
    return joined
  }

  /// The time the records cover, each moment once.
  static func unionLength(_ records: [Record]) -> Int64 {
    var total: Int64 = 0
    var reached = Int64.min
    for record in records.sorted(by: { $0.start < $1.start }) {
      let start = max(record.start, reached)
      if record.end > start { total += record.end - start }
      reached = max(reached, record.end)
    }
    return total
  }
}
