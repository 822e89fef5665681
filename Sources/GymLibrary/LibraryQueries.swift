import ArgumentParser
import GRDB
import GymCLI
import GymCore

/// The library's reads: each one statement (or a fixed few), whatever the number of rows.
enum LibraryQueries {
  /// `--status` and `--author` as predicates over the list view. The author filter scans the
  /// authors (a substring cannot use an index; there are fewer authors than links) and reads each
  /// match's works through `work_author_author`: CROSS JOIN keeps SQLite to that order.
  static func listFilters(status: ReadingStatus?, author: String?) -> [RecordFilter] {
    var filters: [RecordFilter] = []
    if let status { filters.append(.compare("status", .equal, .text(status.rawValue))) }
    if let author {
      filters.append(
        .sql(
          """
          "id" IN (SELECT wa.workId FROM author a CROSS JOIN work_author wa ON wa.authorId = a.id
            WHERE a.name LIKE ? ESCAPE '\\')
          """, [.text("%" + SQL.likeEscaped(author.trimmed) + "%")]))
    }
    return filters
  }

  /// The work a command names: a work id (its key, a number below 2^53) when a work has it, else an
  /// ISBN-10 or -13 (hyphens allowed) of one of its editions. A key is 16 digits but for one in a
  /// thousand, so a number that is both a key and an ISBN almost never is; the work whose key it is wins.
  static func workId(_ db: Database, _ key: String) throws -> Int64 {
    let text = key.trimmed
    if let id = Int64(text), id > 0,
      try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM work WHERE id = ?)", arguments: [id])!
    {
      return id
    }
    if let isbn = ISBN.cleaned(text), isbn.count == 10 || isbn.count == 13 {
      let ids = try works(db, isbn: isbn)
      if ids.count == 1 { return ids[0] }
      if ids.count > 1 {
        throw GymError.usage(
          "ISBN \(isbn) belongs to \(ids.count) works (\(ids.map(String.init).joined(separator: ", "))); give the work id"
        )
      }
    }
    throw GymError.noInput("no such work: '\(key)' is not a work id or an ISBN in the library; see 'gym library list'")
  }

  /// The works with an edition of this ISBN, in either form, whichever one it was saved with.
  static func works(_ db: Database, isbn: String) throws -> [Int64] {
    try Int64.fetchAll(db, sql: isbnSQL, arguments: [isbn, ISBN.otherForm(isbn) ?? isbn])
  }

  static let isbnSQL = """
    SELECT workId FROM edition WHERE isbn13 IN (?1, ?2) UNION SELECT workId FROM edition WHERE isbn10 IN (?1, ?2)
    ORDER BY workId
    """

  /// Authors with how many works name them, counted in SQL (one pass over `work_author_author`).
  /// The full-text query for what the user typed: every word must appear (prefix match for the
  /// last, so results come while typing), each quoted so FTS5 syntax in the text is just text.
  static func matchExpression(_ text: String) -> String? {
    let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).map(String.init)
    guard !words.isEmpty else { return nil }
    return words.enumerated().map { i, word in
      "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (i == words.count - 1 ? "*" : "")
    }.joined(separator: " ")
  }

  /// Ranked matches: bm25 with titles weighted over series and authors, best first, the `?` for
  /// the match first and the limit last. The match's own columns are named apart (matchId, score),
  /// so a `--where` condition's names are the list's. Without a condition or an order of the list's
  /// own, the best matches are chosen from the index alone, before the list's columns (the authors
  /// subquery) are computed for the rows kept: `night` matches 10,278 of the bench's 100,000 works,
  /// and computing them for every match took 18 ms instead of 9 (Docs/PerformanceNotes.md).
  static func searchSQL(fields: [Field], condition: String?, order: [String]) -> String {
    let ranksFirst = condition == nil && order.isEmpty
    return """
      SELECT \(fields.map { "l." + SQL.quote($0.name) }.joined(separator: ", "))
      FROM (SELECT rowid AS matchId, bm25(work_search, 10.0, 5.0, 3.0) AS score FROM work_search
        WHERE work_search MATCH ?\(ranksFirst ? " ORDER BY score, matchId LIMIT ?" : "")) s
      JOIN library_list l ON l.id = s.matchId
      \(condition.map { "WHERE " + $0 } ?? "")
      ORDER BY \((order + ["s.score", "s.matchId"]).joined(separator: ", "))
      \(ranksFirst ? "" : "LIMIT ?")
      """
  }

  /// The plain search, as `library search TEXT` runs it.
  static let searchSQL = searchSQL(fields: searchFields, condition: nil, order: [])

  /// The authors list as `library authors` reads it.
  static let authorsSQL = "SELECT id, name, sortName, works FROM library_authors ORDER BY sortName, id"

  static let searchFields: [Field] = ["id", "title", "authors", "status", "rating", "series"].map {
    LibrarySchema.list.field(named: $0)!
  }
}

/// `--status`: the reading statuses.
enum ReadingStatus: String, CaseIterable, ExpressibleByArgument {
  case toRead, reading, read, abandoned
}
