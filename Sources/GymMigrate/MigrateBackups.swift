import ArgumentParser
import Foundation
import GymCLI
import GymCore

/// `gym migrate backups`: the backups next to the database, newest first.
struct MigrateBackups: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "backups", abstract: "List the backups migrations took, newest first.",
    discussion: HelpExamples.discussion(examples: [
      "gym migrate backups",
      "gym migrate backups -f csv",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func run(context: CommandContext) throws {
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat, columns: ["backup", "created", "version", "bytes"])
    for backup in Backup.list(of: context.databasePath) {
      let size = (try? FileManager.default.attributesOfItem(atPath: backup.path)[.size] as? Int) ?? 0
      writer.write([.text(backup.path), .text(backup.created), .integer(Int64(backup.version)), .integer(Int64(size))])
    }
    writer.finish(next: nil)
  }
}

/// `gym migrate restore BACKUP`: the database becomes the backup; the current file is kept aside.
struct MigrateRestore: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "Replace the database with a backup (checked first); the current file is kept aside.",
    discussion: HelpExamples.discussion(
      "Stop other gym processes using the database first.",
      examples: [
        "gym migrate restore \"$(gym migrate backups -f tsv | sed -n 2p | cut -f1)\""
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The backup file (see 'gym migrate backups').") var backup: String

  func run(context: CommandContext) throws {
    guard FileManager.default.fileExists(atPath: backup) else {
      throw GymError.noInput("no backup at '\(backup)'; see 'gym migrate backups'")
    }
    let database = context.databasePath
    let parsed = Backup(path: backup, database: database) ?? Backup(unnamed: backup)
    let aside = try parsed.restore(
      to: database, migrations: ModuleRegistry.modules.flatMap(\.migrations),
      busyTimeoutMilliseconds: context.configuration.storeOptions.busyTimeoutMilliseconds)
    printNote(
      "restored '\(database)' from '\(backup)'"
        + (aside.map { "; the previous database is kept at '\($0)'" } ?? ""))
  }
}
