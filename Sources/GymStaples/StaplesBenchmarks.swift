import GRDB
import GymCore

/// What `gym bench` times for staples (seed 004): a category's staples and the most-used recipes,
/// each with its compound index and with none (`NOT INDEXED`), with both query plans.
enum StaplesBenchmarks {
  static let definition = ModuleBenchmarks(generate: generate, workloads: workloads)

  /// `count` items over 40 categories (10% staples) and a tenth as many recipes.
  static func generate(_ db: Database, count: Int) throws {
    var random = UInt64(7)
    func next(_ n: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(n))
    }
    let start = Timestamp.now().adding(milliseconds: -Int64(count) * 60_000)
    let items = try db.makeStatement(
      sql:
        "INSERT INTO grocery_item (name, category, isStaple, unit, dateCreated) VALUES (?, ?, ?, 'pcs', ?)"
    )
    let lots = try db.makeStatement(sql: "INSERT INTO stock_lot (itemSeq, amount, added) VALUES (?, ?, ?)")
    for i in 0..<count {
      let created = start.adding(milliseconds: Int64(i) * 60_000).canonical
      try items.execute(arguments: ["Item \(i)", "Category \(next(40))", next(10) == 0, created])
      try lots.execute(arguments: [db.lastInsertedRowID, Double(next(5)), created])
    }
    let recipes = try db.makeStatement(
      sql: "INSERT INTO recipe (name, usageCount, lastUsed, isFavorite, servings) VALUES (?, ?, ?, ?, ?)")
    for i in 0..<max(1, count / 10) {
      let uses = next(500)
      try recipes.execute(arguments: [
        "Recipe \(i)", uses, uses == 0 ? nil : start.adding(milliseconds: Int64(next(count)) * 60_000).canonical,
        next(10) == 0, 1 + next(6),
      ])
    }
  }

  static func workloads(_ db: Database) throws -> [BenchWorkload] {
    let category =
      try String.fetchOne(db, sql: "SELECT category FROM grocery_item ORDER BY seq LIMIT 1") ?? "Category 0"
    let staples = Query(
      table: StaplesSchema.items, filter: Predicate.all(StaplesQueries.itemFilters(category: category, all: false)),
      limit: 20)
    let mostUsed = Query(
      table: StaplesSchema.recipes, sort: StaplesSchema.mostUsed,
      limit: 20)
    return try [
      workload("staples --category (index)", staples, indexed: true, id: "staples.category", db: db),
      workload("staples --category (no index)", staples, indexed: false, db: db),
      workload("recipes --most-used (index)", mostUsed, indexed: true, id: "staples.most_used", db: db),
      workload("recipes --most-used (no index)", mostUsed, indexed: false, db: db),
    ]
  }

  /// The query as `gym staples` runs it; `indexed: false` adds `NOT INDEXED`, what the query costs
  /// without the compound index. Either way the plan is shown beside the time.
  static func workload(_ name: String, _ query: Query, indexed: Bool, id: String? = nil, db: Database) throws
    -> BenchWorkload
  {
    var (sql, arguments) = try query.selectSQL()
    if !indexed {
      let table = SQL.quote(query.table.name)
      sql = sql.replacingOccurrences(of: "FROM \(table)", with: "FROM \(table) NOT INDEXED")
    }
    let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
      .map { $0["detail"] as String }.joined(separator: "; ")
    let statementSQL = sql
    let statementArguments = arguments
    return BenchWorkload(name, id: id, targetMilliseconds: indexed ? 5 : nil, plan: plan) { db in
      try Row.fetchAll(db, sql: statementSQL, arguments: statementArguments).count
    }
  }
}
