import GRDB
import GymCore

/// What `gym bench` times for staples (seed 004): a category's staples and the most-used recipes,
/// each with its compound index and with none (`NOT INDEXED`), with both query plans.
enum StaplesBenchmarks {
  static let definition = ModuleBenchmarks(generate: generate, workloads: workloads, change: change)

  /// The `i`-th item a device adds, for the sync benchmark: one change of one row, keyed by its name.
  static func change(_ db: Database, _ i: Int) throws {
    let name = "Bench item \(i)"
    try db.execute(
      sql:
        "INSERT INTO grocery_item (seq, name, category, isStaple, unit, dateCreated) VALUES (?, ?, 'Bench', 0, 'pcs', ?)",
      arguments: [StaplesKeys.item(name), name, Timestamp.now().canonical])
  }

  /// `count` items over 40 categories (10% staples) and a tenth as many recipes. The pantry the stock
  /// workloads read is the same size at any scale: 2,000 items stocked with ten lots each (20,000
  /// lots), dated from five days past to sixty ahead, and 2,000 recipes using three to ten of them.
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
    for i in 0..<count {
      try items.execute(arguments: [
        "Item \(i)", "Category \(next(40))", next(10) == 0, start.adding(milliseconds: Int64(i) * 60_000).canonical,
      ])
    }
    let stocked = min(max(1, count / 10), 2000)
    let today = Timestamp.now().localDays
    let lots = try db.makeStatement(
      sql: "INSERT INTO stock_lot (itemSeq, amount, bestBefore, location, added) VALUES (?, ?, ?, ?, ?)")
    for item in 1...stocked {
      for lot in 0..<10 {
        // Each added a minute apart, as purchases are: no two lots are the same row.
        try lots.execute(arguments: [
          item, Double(next(10)), CalendarDay(days: today - 5 + Int64(next(66))).text,
          ["fridge", "freezer", "pantry"][next(3)],
          start.adding(milliseconds: Int64(item * 10 + lot) * 60_000).canonical,
        ])
      }
    }
    let recipes = try db.makeStatement(
      sql: "INSERT INTO recipe (name, usageCount, lastUsed, isFavorite, servings) VALUES (?, ?, ?, ?, ?)")
    for i in 0..<max(1, count / 10) {
      let uses = next(500)
      try recipes.execute(arguments: [
        "Recipe \(i)", uses, uses == 0 ? nil : start.adding(milliseconds: Int64(next(count)) * 60_000).canonical,
        next(10) == 0, 1 + next(6),
      ])
      let recipe = db.lastInsertedRowID
      guard i < 2000 else { continue }
      let ingredients = try db.makeStatement(
        sql: "INSERT OR IGNORE INTO recipe_ingredient (recipeSeq, itemSeq, amount, unit) VALUES (?, ?, ?, 'pcs')")
      for _ in 0..<(3 + next(8)) {
        try ingredients.execute(arguments: [recipe, 1 + next(stocked), Double(1 + next(3))])
      }
    }
  }

  static func workloads(_ db: Database) throws -> [BenchWorkload] {
    let category =
      try String.fetchOne(db, sql: "SELECT category FROM grocery_item ORDER BY seq LIMIT 1") ?? "Category 0"
    let staples = Query(
      table: StaplesSchema.items, filter: RecordFilter.all(StaplesQueries.itemFilters(category: category, all: false)),
      limit: 20)
    let mostUsed = Query(
      table: StaplesSchema.recipes, sort: StaplesSchema.mostUsed,
      limit: 20)
    let expiringBy = CalendarDay(days: Timestamp.now().localDays + 3).text
    // On a database of someone's own (`gym bench --database`) there may be no recipe to cook.
    let cooked = try String.fetchOne(
      db,
      sql: """
        SELECT r.name FROM recipe r WHERE EXISTS (SELECT 1 FROM recipe_ingredient ri WHERE ri.recipeSeq = r.seq)
        ORDER BY r.seq LIMIT 1
        """)
    let cook = cooked.map { recipe in
      BenchWorkload("staples cook (rolled back)", id: "staples.cook", targetMilliseconds: 5, writes: true) { db in
        try Cooking.cook(db, recipe: recipe, servings: nil, force: true, now: .now()).count
      }
    }
    return try [
      BenchWorkload("staples stock (every stocked item)", id: "staples.stock", targetMilliseconds: 10) { db in
        try StockQueries.stock(db, location: nil).count
      },
      BenchWorkload("staples expiring --days 3", id: "staples.expiring", targetMilliseconds: 10) { db in
        try StockQueries.expiring(db, by: expiringBy, location: nil).count
      },
      BenchWorkload("staples cookable (every recipe)", id: "staples.cookable", targetMilliseconds: 50) { db in
        try Cookable.rank(db, expiringBy: expiringBy, today: CalendarDay.today().text).count
      },
      workload("staples --category (index)", staples, indexed: true, id: "staples.category", db: db),
      workload("staples --category (no index)", staples, indexed: false, db: db),
      workload("recipes --most-used (index)", mostUsed, indexed: true, id: "staples.most_used", db: db),
      workload("recipes --most-used (no index)", mostUsed, indexed: false, db: db),
    ] + (cook.map { [$0] } ?? [])
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
