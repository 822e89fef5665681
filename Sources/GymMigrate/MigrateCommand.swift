import ArgumentParser
import Foundation
import GymCLI
import GymCore

/// `gym migrate`: the schema history of every registered module — see it, plan it, apply it,
/// verify it, and restore a backup. Works from the registry; imports no feature module.
public struct MigrateCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "migrate",
    abstract: "Schema migrations: status, plan, up, verify, backups, restore.",
    discussion: HelpExamples.discussion(
      """
      Other commands migrate on their own when database.auto_migrate is true (the default), with \
      the same backup and checks. A migration either completes and is verified, or the database \
      is left exactly as it was; a backup is taken first whenever the database holds rows.
      """,
      examples: [
        "gym migrate status",
        "gym migrate plan",
      ]),
    subcommands: [
      MigrateStatus.self, MigratePlan.self, MigrateUp.self, MigrateVerify.self, MigrateRepair.self, MigrateBackups.self,
      MigrateRestore.self,
    ],
    defaultSubcommand: MigrateStatus.self)

  public init() {}
}

extension CommandContext {
  /// The store as it is — pending or unknown migrations included — for `gym migrate` to report on.
  /// A database that does not exist is an error here: `migrate` never creates one by looking.
  func openStoreAsItIs(creating: Bool = false) throws -> Store {
    if !creating && databaseIsNew {
      throw GymError.noInput("no database at '\(databasePath)'; it is created by the first command that uses it")
    }
    var options = configuration.storeOptions
    options.inspectOnly = true
    let (isNew, noFile) = (databaseIsNew, noFileAtPath)
    let store = try Store(path: databasePath, modules: ModuleRegistry.modules, options: options)
    if isNew && creating { noteCreatedDatabase(whereNoFileWas: noFile) }
    return store
  }
}
