import GRDB

extension Database {
  /// Runs `body` with the main database's page cache at `mebibytes`, the connection's own size
  /// restored after. For writes that touch pages all over their tables (a merge, a sync, a bulk
  /// load's rows), which with SQLite's default 2 MB read most pages again from the file.
  public func withPageCache<T>(mebibytes: Int, _ body: () throws -> T) throws -> T {
    let cache = try Int.fetchOne(self, sql: "PRAGMA cache_size") ?? -2000
    try execute(sql: "PRAGMA cache_size = -\(mebibytes * 1024)")
    defer { try? execute(sql: "PRAGMA cache_size = \(cache)") }
    return try body()
  }
}
