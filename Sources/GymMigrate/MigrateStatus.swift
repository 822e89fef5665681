import ArgumentParser
import GymCLI
import GymCore

/// `gym migrate status`: every migration, applied or pending, and what this binary does not know.
struct MigrateStatus: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", abstract: "Applied, pending and unknown migrations; the schema version per module.",
    discussion: HelpExamples.discussion(examples: [
      "gym migrate status",
      "gym migrate status -f json",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func run(context: CommandContext) throws {
    let runner = MigrationRunner(store: try context.openStoreAsItIs())
    let state = try runner.state()
    let format = format ?? context.configuration.outputFormat
    let applied = Set(state.applied)
    let rows: [[Cell]] =
      runner.migrations.map { migration in
        [
          .text(migration.module), .text(migration.identifier), .text(migration.kind.rawValue),
          .text(applied.contains(migration.identifier) ? "applied" : "pending"),
        ]
      } + state.unknown.map { [.text(String($0.prefix { $0 != "/" })), .text($0), .null, .text("unknown")] }
    if format == .json {
      let modules = runner.store.modules.map { module -> JSONValue in
        let done = module.migrations.filter { applied.contains($0.identifier) }.count
        return ["name": .text(module.name), "version": .integer(done), "latest": .integer(module.migrations.count)]
      }
      let document: JSONValue = [
        "database": .text(runner.store.path), "version": .integer(state.version), "modules": .array(modules),
        "migrations": .array(rows.map { .record($0, names: ["module", "identifier", "kind", "state"]) }),
      ]
      document.writeLine(to: BufferedOutput.standardOutput())
      return
    }
    let writer = RecordWriter(format: format, columns: ["module", "identifier", "kind", "state"])
    for row in rows { writer.write(row) }
    writer.finish(next: nil)
    guard format == .table else { return }
    let pending = state.pending.count
    printNote(
      "schema v\(state.version): \(state.applied.count) applied, \(pending) pending"
        + (state.unknown.isEmpty ? "" : ", \(state.unknown.count) unknown to this gym (a newer gym wrote it)")
        + (pending > 0 ? "; run 'gym migrate up'" : ""), isResult: true)
  }
}

/// `gym migrate plan`: what `up` would run, in order, and the backup it would take. Changes nothing.
struct MigratePlan: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan", abstract: "Show what 'migrate up' would run and the backup it would take; change nothing.",
    discussion: HelpExamples.discussion(examples: [
      "gym migrate plan"
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: "Stop after this migration.") var to: String?
  @Flag(help: "Plan without the backup.") var noBackup = false

  func run(context: CommandContext) throws {
    let runner = MigrationRunner(store: try context.openStoreAsItIs())
    let state = try runner.state()
    if !state.unknown.isEmpty { throw StoreError.newerSchema(path: runner.store.path, unknown: state.unknown) }
    let pending = try state.pending(upTo: to)
    let out = BufferedOutput.standardOutput()
    guard !pending.isEmpty else {
      out.write("nothing to do: schema v\(state.version) is up to date\n")
      out.flush()
      return
    }
    for (i, migration) in pending.enumerated() {
      let touches = migration.touches.isEmpty ? "" : " (touches \(migration.touches.joined(separator: ", ")))"
      out.write("\(i + 1). \(migration.identifier)  [\(migration.kind.rawValue)]\(touches)\n")
    }
    let rows = try runner.store.read { try MigrationRunner.rowCounts($0).values.reduce(0, +) }
    if noBackup {
      out.write("no backup (--no-backup)\n")
    } else if rows == 0 {
      out.write("no backup: the database holds no rows\n")
    } else {
      out.write("backup first: \(runner.store.path).backup-<time>-v\(state.version) (\(rows) rows), verified\n")
    }
    out.write("schema v\(state.version) → v\(state.version + pending.count), in one transaction\n")
    out.flush()
  }
}
