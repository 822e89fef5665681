import ArgumentParser
import Foundation
import GRDB
import GymCore

/// `gym version`: what is running and on what: gym's version, the database's schema version against
/// the one this gym writes, and the SQLite it runs with and the features gym needs from it.
public struct VersionCommand: GymCommand {
  public static let configuration = CommandConfiguration(
    commandName: "version",
    abstract: "Show gym's version and commit, the database's schema version, and SQLite's version and features.",
    discussion: HelpExamples.discussion(examples: [
      "gym version",
      "gym version -f json",
    ]))

  /// The executable's version, set once in `main`.
  nonisolated(unsafe) public static var gymVersion = ""
  /// The git commit it was built from (`-modified` with uncommitted changes), set once in `main`.
  nonisolated(unsafe) public static var gymCommit = ""

  @OptionGroup(title: "Common options") public var global: GlobalOptions
  @OptionGroup var formatting: FormatOptions

  public init() {}

  public func run(context: CommandContext) throws {
    let known = ModuleRegistry.modules.flatMap { $0.migrations.map(\.identifier) }
    var rows: [(String, Cell)] = [
      ("gym", .text(Self.gymVersion)), ("commit", .text(Self.gymCommit)), ("schema", .integer(Int64(known.count))),
    ]
    let path = context.databasePath
    rows.append(("database", .text(path)))
    let sqlite: (version: String, options: [String])
    if access(path, F_OK) == 0 {
      // Read as it is (read-only): looking at a version never migrates or creates.
      let reader = try StoreReader(
        path: path, busyTimeoutMilliseconds: context.configuration.storeOptions.busyTimeoutMilliseconds, ofStore: true)
      let applied =
        (try? reader.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }) ?? []
      // Counted as `migrate status` counts it: a newer gym's migrations too, named.
      let unknown = applied.filter { !known.contains($0) }.sorted()
      rows.append(("databaseSchema", .integer(Int64(applied.count))))
      rows.append(("databaseUnknownMigrations", unknown.isEmpty ? .null : .text(unknown.joined(separator: ", "))))
      if !unknown.isEmpty {
        printNote(
          "the database was written by a newer gym (\(unknown.joined(separator: ", "))): commands that open it "
            + "refuse it; upgrade gym to use it")
      }
      sqlite = try reader.read(Self.sqlite)
    } else {
      rows.append(("databaseSchema", .null))
      rows.append(("databaseUnknownMigrations", .null))
      sqlite = try DatabaseQueue().read(Self.sqlite)
    }
    rows.append(("sqlite", .text(sqlite.version)))
    rows.append(("sqliteFTS5", .bool(sqlite.options.contains("ENABLE_FTS5"))))
    rows.append(
      ("sqliteJSON", .bool(sqlite.options.contains("ENABLE_JSON1") || !sqlite.options.contains("OMIT_JSON"))))
    let format = context.format(formatting)
    if format == .json {
      var bytes: [UInt8] = []
      JSONText.appendObject(rows.map(\.1), names: rows.map(\.0), to: &bytes)
      bytes.append(10)
      let out = BufferedOutput.standardOutput()
      out.write(bytes: bytes)
      out.flush()
      return
    }
    let writer = RecordWriter(format: format, columns: ["key", "value"])
    for (key, value) in rows { writer.write([.text(key), value]) }
    writer.finish(next: nil)
  }

  static func sqlite(_ db: Database) throws -> (version: String, options: [String]) {
    (
      try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "",
      try String.fetchAll(db, sql: "PRAGMA compile_options")
    )
  }
}
