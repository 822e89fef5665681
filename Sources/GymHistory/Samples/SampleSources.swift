import GRDB
import GymCore

/// What each source of samples is, as an export says it: the device model (`Watch`, `iPhone`) of
/// its records, and whether its records were entered by hand (`HKWasUserEntered`). Sources rank by
/// what they are, not by what they are called (`SourcePriority`): a phone renamed "Zed Phone" is
/// still an iPhone.
enum SampleSources {
  static let table = TableSchema(
    name: "sample_source",
    fields: [Field("name", .text), Field("model", .text, nullable: true), Field("manual", .bool)],
    indexes: [IndexSchema("sample_source_name", on: ["name"], unique: true)], defaultSort: [SortKey("name")])

  /// `history/014`: the table, empty until the next Apple Health import fills it.
  static let migration = Migration(
    "history/014-sample-source", .additive,
    sql: """
      CREATE TABLE sample_source (
        name TEXT NOT NULL, model TEXT, manual INTEGER NOT NULL DEFAULT 0 CHECK (manual IN (0, 1))
      );
      CREATE UNIQUE INDEX sample_source_name ON sample_source(name);
      """)

  /// What the sources are: their models, and those whose records were entered by hand.
  struct Kinds: Sendable, Equatable {
    var models: [String: String] = [:]
    var manual: Set<String> = []
  }

  static func kinds(_ db: Database) throws -> Kinds {
    var kinds = Kinds()
    for row in try Row.fetchAll(db, sql: "SELECT name, model, manual FROM sample_source") {
      let name: String = row[0]
      if let model: String = row[1] { kinds.models[name] = model }
      if row[2] as Bool { kinds.manual.insert(name) }
    }
    return kinds
  }

  /// Records what an import met; a source's model is kept once known (a later record without one does
  /// not erase it), and a source once seen entered by hand stays so.
  static func record(_ kinds: Kinds, _ db: Database) throws {
    let upsert = try db.cachedStatement(
      sql: """
        INSERT INTO sample_source (name, model, manual) VALUES (?1, ?2, ?3)
        ON CONFLICT(name) DO UPDATE SET model = coalesce(excluded.model, model), manual = max(manual, excluded.manual)
        WHERE (sample_source.model, sample_source.manual)
          IS NOT (coalesce(excluded.model, sample_source.model), max(sample_source.manual, excluded.manual))
        """)
    for name in Set(kinds.models.keys).union(kinds.manual).sorted() {
      try upsert.execute(arguments: [name, kinds.models[name], kinds.manual.contains(name)])
    }
  }

  /// `<<HKDevice: 0x…>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, …>`
  /// → `Watch`; nil when the text names no model.
  static func model(inDevice text: String) -> String? {
    guard let range = text.range(of: "model:") else { return nil }
    let model = String(text[range.upperBound...].prefix { $0 != "," && $0 != ">" }).trimmed
    return model.isEmpty || model.count > 100 ? nil : model
  }
}

extension SampleSources {
  /// `gym doctor`: samples dated more than a day ahead (a device whose clock was wrong, a file's
  /// zone misread) make today's figures wrong and are otherwise never noticed.
  static let futureCheck = DoctorCheck(name: "future samples") { db in
    let limit = Timestamp.now().adding(milliseconds: 86_400_000).canonical
    // Along `sample_key` (type, start, …): the types held by a skip scan, one seek each (as the
    // completion of types does), then each type's samples past the limit; never a pass over them all.
    let rows = try Row.fetchAll(
      db,
      sql: """
        WITH RECURSIVE held(type) AS (
          SELECT MIN(type) FROM sample
          UNION ALL SELECT (SELECT MIN(type) FROM sample WHERE type > held.type) FROM held WHERE held.type IS NOT NULL
        )
        SELECT source, COUNT(*), MIN(start) FROM sample
        WHERE type IN (SELECT type FROM held WHERE type IS NOT NULL) AND start > ?
        GROUP BY source ORDER BY source
        """,
      arguments: [limit])
    guard !rows.isEmpty else { return (true, "no sample starts more than a day from now") }
    let total = rows.reduce(0) { $0 + ($1[1] as Int) }
    let sources = rows.prefix(5).map { "'\($0[0] as String)' \($0[1] as Int) from \($0[2] as String)" }
      .joined(separator: ", ")
    return (
      false,
      "\(total) sample\(total == 1 ? "" : "s") start more than a day from now (\(sources)): a device's clock was "
        + "wrong; 'gym history samples list --since now' shows them"
    )
  }
}
