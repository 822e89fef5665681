import Foundation
import GRDB
import Testing

/// The `gym` executable itself: version, help, completions, configuration, external plugins.
@Suite struct CommandLineTests {
  @Test func versionAndHelpDoNotTouchTheDatabase() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["--version"]).stdout == "0.1.0\n")
    let help = try gym.run(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("history"))
    #expect(try gym.run(["history", "list", "--help"]).stdout.contains("--after"))
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
  }

  /// `gym <group> <command>` is parsed as the command alone (LeafCommandParsing), which is the same
  /// parse only while no command with subcommands has options of its own: here, help and version.
  @Test func groupsHaveNoOptionsOfTheirOwn() throws {
    let dump = try GymProcess().run(["--experimental-dump-help"])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
    var groups: [[String: Any]] = [try #require(root["command"] as? [String: Any])]
    var checked = 0
    while let group = groups.popLast() {
      guard let subcommands = group["subcommands"] as? [[String: Any]], !subcommands.isEmpty else { continue }
      let options = (group["arguments"] as? [[String: Any]] ?? []).compactMap { $0["valueName"] as? String }
      #expect(Set(options).isSubset(of: ["help", "version"]), "\(group["commandName"] ?? "?"): \(options)")
      groups += subcommands
      checked += 1
    }
    #expect(checked >= 8, "every module is a group: gym, history, library, staples, migrate, export, …")
  }

  @Test func completionsForEachShell() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["completions", "bash"]).stdout.contains("complete -o filenames -F _gym gym"))
    #expect(try gym.run(["completions", "zsh"]).stdout.contains("#compdef gym"))
    #expect(try gym.run(["completions", "fish"]).stdout.contains("complete -c 'gym' -f"))
    #expect(try gym.run(["completions", "tcsh"]).status == 64)
  }

  @Test func configShowNamesEverySource() throws {
    let gym = try GymProcess()
    _ = try gym.write("gym.yaml", "version: 1\noutput:\n  page_size: 5\n")
    let shown = try gym.run(["config", "show", "--format", "csv"], environment: ["GYM_OUTPUT_FORMAT": "json"])
    #expect(shown.stdout.contains("output.page_size,5,\(gym.directory)/gym.yaml:3:14"))
    #expect(shown.stdout.contains("output.format,json,env GYM_OUTPUT_FORMAT"))
    #expect(shown.stdout.contains("database.busy_timeout,5000,default"))
    #expect(shown.stdout.contains("database.path,\(gym.databasePath),env GYM_DATABASE"))
  }

  @Test func pageSizeFromConfigurationApplies() throws {
    let gym = try GymProcess()
    try gym.seed(8)
    _ = try gym.write("gym.yaml", "version: 1\noutput:\n  page_size: 5\n  format: table\n")
    // A table pages (a header and 5 rows); a machine format returns every row unless --limit says.
    #expect(try gym.run(["history", "list"]).stdoutLines.count == 6)
    #expect(try gym.run(["history", "list", "--format", "ndjson"]).stdoutLines.count == 8)
    #expect(try gym.run(["history", "list", "--format", "ndjson", "--limit", "3"]).stdoutLines.count == 3)
  }

  @Test func externalCommandRunsWithTheDatabasePath() throws {
    var gym = try GymProcess()
    let bin = gym.directory + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let plugin = bin + "/gym-hello"
    try Data("#!/bin/sh\necho \"hello $* db=$GYM_DATABASE\"\n".utf8).write(to: URL(fileURLWithPath: plugin))
    chmod(plugin, 0o755)
    gym.environment["PATH"] = bin + ":/usr/bin:/bin"
    let result = try gym.run(["hello", "a b", "c"])
    #expect(result.status == 0)
    #expect(result.stdout == "hello a b c db=\(gym.databasePath)\n")
    // A --database on the line, before the command's name or after it, is the one GYM_DATABASE names.
    let other = gym.directory + "/other.sqlite"
    let before = try gym.run(["--database", other, "hello", "x"])
    #expect(before.status == 0 && before.stdout.hasSuffix("db=\(other)\n"), "\(before.stdout)")
    let after = try gym.run(["hello", "x", "--database=\(other)"])
    #expect(after.status == 0 && after.stdout.hasSuffix("db=\(other)\n"), "\(after.stdout)")
  }

  @Test func unknownCommandSuggestsTheNearest() throws {
    let gym = try GymProcess()
    let result = try gym.run(["histroy", "list"])
    #expect(result.status == 64)
    #expect(result.stderr == "gym: error: unknown command 'histroy'; did you mean 'history'? (see 'gym --help')\n")
  }

  /// Reads never create: a mistyped path in a cron job fails with 66 instead of counting 0. The
  /// first command that writes creates the database under XDG_DATA_HOME and says so once.
  @Test func readsNeverCreateAndTheFirstWriteSaysItCreated() throws {
    var gym = try GymProcess()
    gym.environment["GYM_DATABASE"] = nil
    let path = gym.directory + "/data/gym/gym.sqlite"
    for read in [
      ["history", "count"], ["library", "list"], ["staples", "list"], ["export", "--out", gym.directory],
    ] {
      let result = try gym.run(read)
      #expect(result.status == 66, "\(read): \(result.stderr)")
      #expect(
        result.stderr
          == "gym: error: no database at '\(path)' (nothing was created); check --database or database.path, or add or import something to create it\n"
      )
      #expect(!FileManager.default.fileExists(atPath: gym.directory + "/data"), "\(read)")
    }
    let added = try gym.run(["library", "add", "Dune"])
    // A work's id is its key (RecordKeys).
    #expect(
      added.stderr
        == "added work \(RecordKeys.work("Dune", authors: [])): 'Dune'\ngym: created database '\(path)'\n")
    #expect(FileManager.default.fileExists(atPath: path))
    let again = try gym.run(["library", "add", "Emma"])
    #expect(again.stderr == "added work \(RecordKeys.work("Emma", authors: [])): 'Emma'\n")
    #expect(try gym.run(["library", "count"]).stdout == "2\n")
    // --quiet: no notes, errors still.
    #expect(try gym.run(["library", "add", "Kim", "-q"]).stderr.isEmpty)
    #expect(try gym.run(["library", "show", "99", "--quiet"]).stderr.hasPrefix("gym: error: "))
  }

  /// `--format tsv` keeps every record on one line (a tab, a line break or a backslash in a value is
  /// escaped); `--ids` prints only what show, set and remove take, one per line, every one.
  @Test func tsvAndIds() throws {
    let gym = try GymProcess()
    for title in ["Dune", "Tab\there", "Back\\slash\nand line"] {
      #expect(try gym.run(["library", "add", title]).status == 0)
    }
    let tsv = try gym.run(["library", "list", "--format", "tsv", "--fields", "id,title,rating", "--sort", "id"])
    // Each work's id is its key (RecordKeys), in their order.
    let rows = [
      ("Dune", "Dune"), ("Tab\there", "Tab\\there"), ("Back\\slash\nand line", "Back\\\\slash\\nand line"),
    ].map { (RecordKeys.work($0.0, authors: []), $0.1) }.sorted { $0.0 < $1.0 }
    #expect(tsv.stdout == "id\ttitle\trating\n" + rows.map { "\($0.0)\t\($0.1)\t\n" }.joined())
    #expect(
      try gym.run(["library", "list", "--ids", "--sort", "id"]).stdout == rows.map { "\($0.0)\n" }.joined())
    try gym.seed(30)
    let ids = try gym.run(["history", "list", "--ids"])
    #expect(ids.stdoutLines.count == 30)
    #expect(ids.stdoutLines.allSatisfy { $0.count == 36 && $0.split(separator: "-").count == 5 })
    #expect(try gym.run(["history", "list", "--ids", "-q", "--limit", "2"]).stdoutLines.count == 2)
    // Into a pipe, as `$(gym history list --ids -n 1)` reads it: the id alone, and nothing on stderr,
    // though 29 more are there (a table to a pipe still names the next page).
    let one = try gym.run(["history", "list", "--ids", "-n", "1"])
    #expect(one.stdoutLines.count == 1 && one.stderr.isEmpty, "\(one.stderr)")
    #expect(try gym.run(["history", "list", "-n", "1"]).stderr.hasPrefix("next page: --after "))
    #expect(try gym.run(["history", "list", "--ids", "--fields", "id"]).status == 64)
  }

  /// As git and kubectl: common options before the subcommand, -C DIR, short flags, suggestions at
  /// every level, and `gym help <command>`.
  @Test func optionsBeforeTheCommandShortFlagsHelpAndSuggestions() throws {
    let gym = try GymProcess()
    for title in ["Dune", "Emma", "Kim"] { #expect(try gym.run(["library", "add", title, "-q"]).status == 0) }
    let elsewhere = gym.directory + "/elsewhere"
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    #expect(try gym.run(["--database", gym.databasePath, "library", "count"]).stdout == "3\n")
    #expect(try gym.run(["-q", "--database=\(gym.databasePath)", "library", "count"]).stdout == "3\n")
    // -C: a relative --database is read from there.
    var bare = gym
    bare.environment["GYM_DATABASE"] = nil
    #expect(try bare.run(["-C", gym.directory, "--database", "gym.sqlite", "library", "count"]).stdout == "3\n")
    let missing = try gym.run(["-C", gym.directory + "/none", "library", "count"])
    #expect(missing.status == 66 && missing.stderr.contains("-C '\(gym.directory)/none'"))
    let short = try gym.run(["library", "list", "-f", "csv", "-n", "2", "-w", "title != \"Emma\"", "--sort", "id"])
    let others = ["Dune", "Kim"].map { (RecordKeys.work($0, authors: []), $0) }.sorted { $0.0 < $1.0 }
    #expect(
      short.stdoutLines.map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
        == ["id,title"] + others.map { "\($0.0),\($0.1)" })
    let typo = try gym.run(["history", "lsit"])
    #expect(typo.status == 64)
    #expect(
      typo.stderr
        == "gym: error: 'gym history' has no command 'lsit'; did you mean 'list'? (see 'gym history --help')\n")
    let helpTypo = try gym.run(["help", "libary"])
    #expect(helpTypo.status == 64)
    #expect(
      helpTypo.stderr == "gym: error: 'gym' has no command 'libary'; did you mean 'library'? (see 'gym --help')\n")
    let help = try gym.run(["help", "library", "list"])
    #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: ") && help.stdout.contains("USAGE: gym library list"))
  }

  /// `gym version`: gym's version as --version says it, the schema version as `migrate status` counts
  /// it, and the SQLite the test process links (the same Debian package); a missing database is
  /// reported as null and not created.
  @Test func versionShowsSchemaAndSQLite() throws {
    let gym = try GymProcess()
    try gym.seed(1)
    let version = try gym.run(["version", "--format", "json"])
    #expect(version.status == 0, "\(version.stderr)")
    let fields = try #require(try JSONSerialization.jsonObject(with: Data(version.stdout.utf8)) as? [String: Any])
    #expect(
      fields["gym"] as? String == (try gym.run(["--version"])).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    let status = try gym.run(["migrate", "status", "--format", "json"])
    let migrations = try #require(
      (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["migrations"] as? [Any])
    #expect(fields["schema"] as? Int == migrations.count)
    #expect(fields["databaseSchema"] as? Int == migrations.count)
    let linked = try DatabaseQueue().read { try String.fetchOne($0, sql: "SELECT sqlite_version()") }
    #expect(fields["sqlite"] as? String == linked)
    #expect(fields["sqliteFTS5"] as? Bool == true)
    // The commit it was built from: this checkout's, when the tests run in one.
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    let head = try gym.run(["-C", checkout, "rev-parse", "--short=12", "HEAD"], executable: "/usr/bin/git")
    if head.status == 0 {
      let commit = try #require(fields["commit"] as? String)
      #expect(commit.hasPrefix(head.stdout.trimmingCharacters(in: .newlines)), "\(commit)")
    }
    #expect(try gym.run(["--version", "--verbose"]).stdout == gym.run(["version"]).stdout)
    #expect(fields["databaseUnknownMigrations"] is NSNull)
    // A newer gym's migration (history/099) is counted, as `migrate status` counts it, and named.
    try DatabaseQueue(path: gym.databasePath).write {
      try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('history/099-future')")
    }
    let newer = try gym.run(["version", "--format", "json"])
    let newerFields = try #require(try JSONSerialization.jsonObject(with: Data(newer.stdout.utf8)) as? [String: Any])
    #expect(newerFields["databaseSchema"] as? Int == migrations.count + 1)
    #expect(newerFields["databaseUnknownMigrations"] as? String == "history/099-future")
    #expect(newer.stderr.contains("written by a newer gym (history/099-future)"))
    let missing = gym.directory + "/none.sqlite"
    let none = try gym.run(["version", "--format", "json", "--database", missing])
    #expect(none.stdout.contains("\"databaseSchema\":null"))
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  /// `--database` names a file, whatever SQLite would read in it: `:memory:` (no file at all) and a
  /// `file:` URI (its own parameters, another file) are files of those names in the working directory.
  @Test(arguments: [":memory:", "file:data.sqlite?mode=rwc"])
  func aDatabasePathIsAFileName(path: String) throws {
    let gym = try GymProcess()
    let added = try gym.run([
      "history", "add", "--plan-title", "x", "--focus", "legs", "--duration", "1", "--database", path,
    ])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(FileManager.default.fileExists(atPath: gym.directory + "/" + path))
    #expect(!FileManager.default.fileExists(atPath: gym.directory + "/data.sqlite"))
    let counted = try gym.run(["history", "count", "--database", path])
    #expect(counted.status == 0 && counted.stdout == "1\n", "\(counted.stderr)")
  }
}
