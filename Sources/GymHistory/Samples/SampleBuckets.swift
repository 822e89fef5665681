import GRDB
import GymCore

/// Samples of one type aggregated per local day or per hour, computed in SQL.
///
/// Every bucket in the range is listed, empty ones with a count of 0 and no values. Additive types
/// (steps, energy, distance, sleep minutes) report the sum; the others min, average and max.
struct SampleBucket: Sendable, Equatable {
  let label: String
  let count: Int
  let sum: Double?
  let min: Double?
  let avg: Double?
  let max: Double?
}

enum SampleBuckets {
  /// The last `days` local days up to today, newest first.
  static func daily(_ db: Database, type: SampleType, days: Int, now: Timestamp = .now()) throws -> [SampleBucket] {
    try fetch(
      db,
      sql: """
        WITH RECURSIVE buckets(label, n) AS (
          SELECT date(:now, 'localtime'), 1
          UNION ALL SELECT date(label, '-1 day'), n + 1 FROM buckets WHERE n < :count
        ),
        totals AS (
          SELECT date(start, 'localtime') AS label, COUNT(*) AS count, SUM(value) AS sum,
                 MIN(value) AS min, ROUND(AVG(value), 2) AS avg, MAX(value) AS max
          FROM sample
          WHERE type = :type
            AND start >= strftime('%Y-%m-%dT%H:%M:%fZ', date(:now, 'localtime', :back), 'utc')
          GROUP BY 1
        )
        SELECT buckets.label, COALESCE(totals.count, 0), totals.sum, totals.min, totals.avg, totals.max
        FROM buckets LEFT JOIN totals USING (label) ORDER BY buckets.label DESC
        """,
      arguments: ["now": now.canonical, "count": days, "type": type.rawValue, "back": "-\(days - 1) days"])
  }

  /// The last `hours` local clock hours up to the current one, newest first (`2026-11-21 14:00`).
  static func hourly(_ db: Database, type: SampleType, hours: Int, now: Timestamp = .now()) throws -> [SampleBucket] {
    try fetch(
      db,
      sql: """
        WITH RECURSIVE buckets(label, n) AS (
          SELECT strftime('%Y-%m-%d %H:00', :now, 'localtime'), 1
          UNION ALL SELECT strftime('%Y-%m-%d %H:00', label, '-1 hour'), n + 1 FROM buckets WHERE n < :count
        ),
        totals AS (
          SELECT strftime('%Y-%m-%d %H:00', start, 'localtime') AS label, COUNT(*) AS count,
                 SUM(value) AS sum, MIN(value) AS min, ROUND(AVG(value), 2) AS avg, MAX(value) AS max
          FROM sample
          WHERE type = :type
            AND start >= strftime('%Y-%m-%dT%H:%M:%fZ', strftime('%Y-%m-%d %H:00', :now, 'localtime', :back), 'utc')
          GROUP BY 1
        )
        SELECT buckets.label, COALESCE(totals.count, 0), totals.sum, totals.min, totals.avg, totals.max
        FROM buckets LEFT JOIN totals USING (label) ORDER BY buckets.label DESC
        """,
      arguments: ["now": now.canonical, "count": hours, "type": type.rawValue, "back": "-\(hours - 1) hours"])
  }

  private static func fetch(_ db: Database, sql: String, arguments: StatementArguments) throws -> [SampleBucket] {
    try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
      SampleBucket(label: row[0], count: row[1], sum: row[2], min: row[3], avg: row[4], max: row[5])
    }
  }
}
