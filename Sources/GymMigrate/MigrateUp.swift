import ArgumentParser
import GymCLI
import GymCore

/// `gym migrate up`: applies pending migrations — backup first, verified after, all or nothing.
struct MigrateUp: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "up", abstract: "Apply pending migrations (backup first, checks after, all or nothing).",
    discussion: HelpExamples.discussion(examples: [
      "gym migrate plan && gym migrate up"
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "Stop after this migration.") var to: String?
  @Flag(help: "Do not back up first (the database is still rolled back on any failure).") var noBackup = false

  func run(context: CommandContext) throws {
    var runner = MigrationRunner(store: try context.openStoreAsItIs(creating: true))
    runner.keepBackups = context.configuration.integer(.keepBackups)
    let report = try runner.up(to: to, backup: !noBackup)
    guard !report.applied.isEmpty else {
      printNote("nothing to do: schema v\(report.toVersion) is up to date")
      return
    }
    printNote(
      "applied \(report.applied.count) migration(s): \(report.applied.joined(separator: ", ")); "
        + "schema v\(report.fromVersion) → v\(report.toVersion), verified in \(seconds(report.migrationSeconds))"
        + (report.backup.map { "; backup: \($0.path) (\(seconds(report.backupSeconds)))" } ?? ""))
  }

  func seconds(_ value: Double) -> String {
    value < 10 ? String(format: "%.2f s", value) : String(format: "%.1f s", value)
  }
}

/// `gym migrate verify`: integrity, relationships, indexes, schema history, row counts.
struct MigrateVerify: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check integrity, foreign keys, declared indexes and the schema history; count rows per table.",
    discussion: HelpExamples.discussion(examples: [
      "gym migrate verify",
      "gym migrate verify -f json",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func run(context: CommandContext) throws {
    let store = try context.openStoreAsItIs()
    let report = try store.read { try StoreVerification.run($0, modules: store.modules) }
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat, columns: ["check", "result", "detail"])
    for check in report.checks {
      writer.write([
        .text(check.name), .text(check.passed ? "ok" : "FAILED"),
        check.passed ? .null : .text(check.problems.prefix(5).joined(separator: "; ")),
      ])
    }
    for (table, rows) in report.rowCounts { writer.write([.text("rows: \(table)"), .integer(Int64(rows)), .null]) }
    writer.finish(next: nil)
    if let failed = report.checks.first(where: { !$0.passed }) {
      throw GymError.data(
        "verification failed: \(failed.name): \(failed.problems[0])"
          + (failed.problems.count > 1 ? " (and \(failed.problems.count - 1) more)" : ""))
    }
  }
}
