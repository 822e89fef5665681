import Foundation
import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymLibrary

@Suite struct LibraryQueryTests {
  static func store(works: Int = 0) throws -> Store {
    let store = try GoodreadsImportTests.store()
    if works > 0 { try store.write { try LibraryBenchmarks.generate($0, count: works) } }
    return store
  }

  func plan(_ store: Store, _ sql: String, _ arguments: StatementArguments = []) throws -> String {
    try store.read { db in
      try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        .joined(separator: "; ")
    }
  }

  func listQuery(
    _ filters: [GymCore.RecordFilter] = [], projection: [String] = LibrarySchema.listFields, limit: Int? = 20
  )
    -> Query
  {
    Query(table: LibrarySchema.list, filter: GymCore.RecordFilter.all(filters), limit: limit, projection: projection)
  }

  @Test func everyListAndFilterHasItsIndex() throws {
    let store = try Self.store(works: 50)
    let newest = try listQuery().selectSQL()
    let newestPlan = try plan(store, newest.0, newest.1)
    #expect(newestPlan.contains("SCAN w USING INDEX work_lastModified"))
    #expect(!newestPlan.contains("TEMP B-TREE"))
    #expect(newestPlan.contains("SEARCH wa USING COVERING INDEX work_author_position (workId=?)"))

    let status = try listQuery(LibraryQueries.listFilters(status: .reading, author: nil)).selectSQL()
    #expect(try plan(store, status.0, status.1).contains("USING INDEX library_entry_status (readingStatus=?)"))

    let author = try listQuery(LibraryQueries.listFilters(status: nil, author: "Author1")).selectSQL()
    let authorPlan = try plan(store, author.0, author.1)
    #expect(authorPlan.contains("SCAN a"))
    #expect(authorPlan.contains("USING COVERING INDEX work_author_author (authorId=?)"))
    #expect(authorPlan.contains("SEARCH w USING INTEGER PRIMARY KEY"))

    var page = listQuery()
    page.after = PageCursor(sort: page.sort, values: ["2026-01-01T00:00:00.000Z".databaseValue, 5.databaseValue])
    let next = try page.selectSQL()
    #expect(try plan(store, next.0, next.1).contains("SEARCH w USING INDEX work_lastModified (lastModified<?)"))

    #expect(
      try plan(store, LibraryQueries.isbnSQL, ["0441013597", "9780441013593"])
        .contains("INDEX edition_isbn13 (isbn13=?)"))
    #expect(
      try plan(store, LibraryQueries.isbnSQL, ["0441013597", "9780441013593"])
        .contains("INDEX edition_isbn10 (isbn10=?)"))
    #expect(
      try plan(store, LibraryQueries.searchSQL, ["night", 20]).contains("VIRTUAL TABLE INDEX"))
    #expect(
      try plan(store, LibraryQueries.authorsSQL).contains("COVERING INDEX work_author_author (authorId=?)"))
  }

  /// The plain search chooses its best matches from the index before it computes the list's columns,
  /// and returns what ranking every joined match would: the same works in the same order, at every
  /// limit, as many as the limit allows. (`WHERE 1 = 1` takes the path that joins every match first.)
  @Test func thePlainSearchRanksBeforeItJoins() throws {
    let store = try Self.store(works: 400)
    let fields = LibraryQueries.searchFields
    let match = LibraryQueries.matchExpression("night")!
    let ranked = LibraryQueries.searchSQL(fields: fields, condition: nil, order: [])
    let joinedFirst = LibraryQueries.searchSQL(fields: fields, condition: "1 = 1", order: [])
    let rankedPlan = try plan(store, ranked, [match, 20])
    #expect(rankedPlan.contains("MATERIALIZE s") || rankedPlan.contains("CO-ROUTINE s"))
    #expect(!(try plan(store, joinedFirst, [match, 20])).contains("MATERIALIZE s"))
    let total = try store.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM work_search WHERE work_search MATCH ?", arguments: [match])!
    }
    #expect(total > 20)
    for limit in [1, 5, 20, total, Int.max] {
      let (first, joined) = try store.read { db in
        (
          try Row.fetchAll(db, sql: ranked, arguments: [match, limit]),
          try Row.fetchAll(db, sql: joinedFirst, arguments: [match, limit])
        )
      }
      #expect(first == joined)
      #expect(first.count == min(limit, total))
    }
  }

  /// The list reads only what it shows: the statement's columns are the projection and the
  /// order's keys, and what is not shown (the entry, the authors, the editions) is not joined.
  @Test func theListReadsOnlyTheProjectedColumns() throws {
    let store = try Self.store(works: 20)
    let titles = try listQuery(projection: ["id", "title"]).selectSQL()
    let titleColumns = try store.read { db in try db.makeStatement(sql: titles.0).columnNames }
    #expect(titleColumns == ["id", "title", "lastModified", "id"])
    let titlesPlan = try plan(store, titles.0, titles.1)
    #expect(!titlesPlan.contains("library_entry") && !titlesPlan.contains(" e ") && !titlesPlan.contains("SUBQUERY"))
    let defaultList = try listQuery().selectSQL()
    let columns = try store.read { db in try db.makeStatement(sql: defaultList.0).columnNames }
    #expect(columns == LibrarySchema.listFields + ["lastModified", "id"])
    let defaultPlan = try plan(store, defaultList.0, defaultList.1)
    #expect(!defaultPlan.contains("edition"))
  }

  /// The number of statements for a list with authors, or for every work's full graph, does not
  /// grow with the number of works: no N+1.
  @Test func statementCountIsConstant() throws {
    func statements(works: Int) throws -> (list: Int, graph: Int, rows: Int) {
      let store = try Self.store(works: works)
      var count = 0
      var rows = 0
      var graphs = 0
      try store.read { db in
        db.trace(options: .statement) { _ in count += 1 }
        let query = listQuery(limit: nil)
        let fields = try query.projectedFields()
        try query.forEachRow(db) { row in
          let cells = RecordListing.cells(row, fields)
          if case .text = cells[2] { rows += 1 }  // the authors are there, in the same row
        }
        db.trace(options: .statement, nil)
      }
      let list = count
      count = 0
      try store.read { db in
        db.trace(options: .statement) { _ in count += 1 }
        try LibraryGraph.forEachWork(db, ids: 1...Int64.max) { _, related in
          if !related[0].isEmpty && !related[1].isEmpty && related[2].count == 1 { graphs += 1 }
        }
        db.trace(options: .statement, nil)
      }
      #expect(graphs == works)
      return (list, count, rows)
    }
    let small = try statements(works: 10)
    let large = try statements(works: 1000)
    #expect(small.rows == 10 && large.rows == 1000)
    #expect(large.list == small.list && large.list == 1)
    #expect(large.graph == small.graph && large.graph == 5)
  }

  @Test func deleteRules() throws {
    let store = try Self.store()
    try store.write { db in
      let writer = LibraryWriter(db, now: .now())
      var shared = LibraryBook(title: "Good Omens")
      shared.authors = [.init(name: "Terry Pratchett"), .init(name: "Neil Gaiman")]
      shared.edition = .init(isbn13: "9780060853983")
      var alone = LibraryBook(title: "Mort")
      alone.authors = [.init(name: "Terry Pratchett")]
      var other = LibraryBook(title: "Coraline")
      other.authors = [.init(name: "Neil Gaiman")]
      let omens = try writer.save(shared).id
      _ = try writer.save(alone)
      _ = try writer.save(other)
      // An author a work names cannot be deleted.
      #expect(throws: DatabaseError.self) { try db.execute(sql: "DELETE FROM author WHERE name = 'Neil Gaiman'") }
      try db.execute(sql: "DELETE FROM work WHERE id = ?", arguments: [omens])
      for table in ["edition", "library_entry", "work_author"] {
        #expect(
          try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE workId = ?", arguments: [omens]) == 0)
      }
      // Both authors still have a work: both stay.
      #expect(
        try String.fetchAll(db, sql: "SELECT name FROM author ORDER BY name") == ["Neil Gaiman", "Terry Pratchett"])
      try db.execute(sql: "DELETE FROM work WHERE title = 'Mort'")
      // Terry Pratchett's last work is gone, and so is he.
      #expect(try String.fetchAll(db, sql: "SELECT name FROM author ORDER BY name") == ["Neil Gaiman"])
    }
  }

  /// The search index follows every write through triggers, whoever writes.
  @Test func searchStaysInStepWithTheTables() throws {
    let store = try Self.store()
    func search(_ text: String) throws -> [String] {
      try store.read { db in
        try String.fetchAll(
          db,
          sql: LibraryQueries.searchSQL(
            fields: [LibrarySchema.list.field(named: "title")!], condition: nil, order: []),
          arguments: [LibraryQueries.matchExpression(text)!, 20])
      }
    }
    try store.write { db in
      let writer = LibraryWriter(db, now: .now())
      var book = LibraryBook(title: "Cien años de soledad", series: nil)
      book.authors = [.init(name: "Gabriel García Márquez")]
      _ = try writer.save(book)
      var ninth = LibraryBook(title: "Gideon the Ninth", series: "The Locked Tomb")
      ninth.authors = [.init(name: "Tamsyn Muir")]
      _ = try writer.save(ninth)
      _ = try writer.save(LibraryBook(title: "The Ninth House"))
    }
    #expect(try search("anos") == ["Cien años de soledad"])  // diacritics folded
    #expect(try search("garcia marq") == ["Cien años de soledad"])  // prefix of the last word
    #expect(try search("locked tomb") == ["Gideon the Ninth"])
    #expect(try Set(search("ninth")) == ["Gideon the Ninth", "The Ninth House"])
    #expect(try search("\"unbalanced AND (") == [])  // FTS syntax in the text is just words
    try store.write { db in
      try db.execute(sql: "UPDATE author SET name = 'Tamsyn M.' WHERE name = 'Tamsyn Muir'")
      try db.execute(sql: "UPDATE work SET title = 'Nona the Ninth' WHERE title = 'Gideon the Ninth'")
      try db.execute(sql: "DELETE FROM work WHERE title = 'The Ninth House'")
    }
    #expect(try search("muir") == [])
    #expect(try search("tamsyn") == ["Nona the Ninth"])
    #expect(try search("ninth") == ["Nona the Ninth"])
    try store.write { db in try db.execute(sql: "INSERT INTO work_search(work_search) VALUES ('integrity-check')") }
  }
}
