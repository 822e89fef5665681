import GRDB
import GymCore

/// What `gym bench` times for the library (seed 001): the projected list against the full graph,
/// a page of the list, full-text search for a common word, and the author counts.
enum LibraryBenchmarks {
  static let definition = ModuleBenchmarks(generate: generate, workloads: workloads)

  static let words = [
    "night", "river", "house", "stone", "winter", "garden", "shadow", "light", "city", "sea", "fire", "glass",
    "silver", "ninth", "crown", "wolf", "letters", "empire", "island", "memory", "storm", "orchard", "bridge",
    "mirror", "harvest", "lantern", "forest", "tower", "salt", "iron",
  ]
  static let givenNames = ["Ann", "Tamsyn", "Ursula", "Ken", "Mary", "Octavia", "Jorge", "Italo", "Toni", "Haruki"]

  /// `count` works by count×0.3 authors (one to three each), 1.5 editions and one entry per work.
  static func generate(_ db: Database, count: Int) throws {
    // Into an empty library: the derived tables filled once after the rows, as an import does.
    let deferrals = try libraryModule.derivedIndexes.compactMap { try DerivedIndexDeferral(db, $0) }
    try generateRows(db, count: count)
    for deferral in deferrals { try deferral.finish(db) }
  }

  private static func generateRows(_ db: Database, count: Int) throws {
    var random = UInt64(11)
    func next(_ n: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(n))
    }
    let authorCount = max(1, count * 3 / 10)
    let authors = try db.makeStatement(sql: "INSERT INTO author (id, name, sortName) VALUES (?, ?, ?)")
    for i in 1...authorCount {
      let given = givenNames[i % givenNames.count]
      try authors.execute(arguments: [i, "\(given) Author\(i)", "Author\(i), \(given)"])
    }
    let start = Timestamp.now().adding(milliseconds: -Int64(count) * 60_000)
    let works = try db.makeStatement(
      sql: """
        INSERT INTO work (id, title, series, coverImageURL, firstPublished, lastModified)
        VALUES (?, ?, ?, ?, ?, ?)
        """)
    let links = try db.makeStatement(sql: "INSERT INTO work_author (workId, authorId, position) VALUES (?, ?, ?)")
    let editions = try db.makeStatement(
      sql: "INSERT INTO edition (workId, isbn13, publisher, binding, pageCount, year) VALUES (?, ?, ?, ?, ?, ?)")
    let entries = try db.makeStatement(
      sql: """
        INSERT INTO library_entry (workId, readingStatus, rating, dateAdded, review, ownedCopies)
        VALUES (?, ?, ?, ?, ?, ?)
        """)
    let readings = try db.makeStatement(
      sql: "INSERT INTO reading (workId, started, finished, status, pages) VALUES (?, ?, ?, ?, ?)")
    func day(_ offset: Int) -> String {
      String(Timestamp(millisecondsSince1970: 1_451_606_400_000 + Int64(offset) * 86_400_000).canonical.prefix(10))
    }
    for id in 1...count {
      let title = (0..<(2 + next(3))).map { _ in words[next(words.count)] }.joined(separator: " ").capitalized
      try works.execute(arguments: [
        id, title, next(5) == 0 ? "The \(words[next(words.count)].capitalized) Cycle" : nil,
        "https://covers.example.org/\(id).jpg", 1900 + next(125),
        start.adding(milliseconds: Int64(id) * 60_000).canonical,
      ])
      var named: Set<Int> = []
      for position in 0..<(1 + next(3) / 2 + next(2) * next(2)) {
        let author = 1 + next(authorCount)
        guard named.insert(author).inserted else { continue }
        try links.execute(arguments: [id, author, position])
      }
      for edition in 0..<(1 + next(2)) {
        try editions.execute(arguments: [
          id, isbn13(id * 2 + edition), "Publisher \(next(200))",
          ["Paperback", "Hardcover", "Kindle Edition"][next(3)],
          100 + next(700), 1950 + next(75),
        ])
      }
      let status = LibrarySchema.statuses[next(4)]
      try entries.execute(arguments: [
        id, status, status == "read" ? 1 + next(5) : nil, "2020-01-01",
        next(4) == 0 ? String(repeating: "A thoughtful review of \(title). ", count: 1 + next(8)) : nil, next(2),
      ])
      // Two readings a work on average over ten years from 2016: the last one as the shelf says.
      let count = status == "toRead" ? next(2) : 1 + next(4)
      for n in 0..<count {
        let finished = next(3650)
        let last = n == count - 1
        let kind = last && status != "toRead" ? status : "read"
        try readings.execute(arguments: [
          id, day(finished - 5 - next(40)), kind == "reading" ? nil : day(finished), kind,
          kind == "reading" ? next(300) : nil,
        ])
      }
    }
  }

  /// A valid ISBN-13 (978 prefix) made from a number.
  static func isbn13(_ n: Int) -> String {
    let body = "978" + String(String(n).suffix(9)).leftPadded(to: 9)
    return body + String(ISBN.checkDigit13(body))
  }

  static func workloads(_ db: Database) throws -> [BenchWorkload] {
    let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM work") ?? 0
    let page = Query(table: LibrarySchema.list, limit: 20, projection: LibrarySchema.listFields)
    let everything = Query(table: LibrarySchema.list, projection: LibrarySchema.listFields)
    let (pageSQL, pageArguments) = try page.selectSQL()
    let (allSQL, _) = try everything.selectSQL()
    // A word in about one title in ten: thousands of matches to rank.
    let common = words[0]
    let (readingsSQL, readingsArguments) = try Query(table: ReadingSchema.list, limit: 20).selectSQL()
    let (workSQL, workArguments) = try Query(
      table: ReadingSchema.list, filter: .compare("workId", .equal, .integer(Int64(total / 2))), limit: 20
    ).selectSQL()
    let match = LibraryQueries.matchExpression(common)!
    return [
      BenchWorkload("library list (page of 20)", id: "library.list_page", targetMilliseconds: 5) { db in
        try Row.fetchAll(db, sql: pageSQL, arguments: pageArguments).count
      },
      BenchWorkload("library list, every work (projected)") { db in
        var rows = 0
        let cursor = try Row.fetchCursor(db, sql: allSQL)
        while try cursor.next() != nil { rows += 1 }
        return rows
      },
      BenchWorkload("library show --all (full graph)") { db in
        var works = 0
        try LibraryGraph.forEachWork(db, ids: 1...Int64.max) { _, _ in works += 1 }
        return works
      },
      BenchWorkload("library search '\(common)'", id: "library.search", targetMilliseconds: 20) { db in
        try Row.fetchAll(db, sql: LibraryQueries.searchSQL, arguments: [match, 20]).count
      },
      BenchWorkload("library authors (work counts)") { db in
        try Row.fetchAll(db, sql: LibraryQueries.authorsSQL).count
      },
      BenchWorkload("library readings (page of 20)", id: "library.readings", targetMilliseconds: 20) { db in
        try Row.fetchAll(db, sql: readingsSQL, arguments: readingsArguments).count
      },
      BenchWorkload("library readings of one work", id: "library.readings_work", targetMilliseconds: 20) { db in
        try Row.fetchAll(db, sql: workSQL, arguments: workArguments).count
      },
      BenchWorkload("library stats --year 2024", id: "library.stats", targetMilliseconds: 20) { db in
        try ReadingYear.compute(db, year: 2024, goal: 50, today: "2026-11-23").books.count
      },
    ]
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
