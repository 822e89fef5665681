import ArgumentParser
import GymCLI
import GymCore

/// `gym migrate repair`: indexes that no longer match their tables, made again (`IndexRepair`).
struct MigrateRepair: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "repair",
    abstract: "Make again the indexes that no longer match their tables, removing rows a key repeats.",
    discussion: HelpExamples.discussion(
      "gym 0.1.0 could leave a unique index half-made when an import into a new database met a key twice; "
        + "importing again then repeated its rows. This rebuilds every index 'gym migrate verify' finds damaged. "
        + "Rows that repeat a unique key go only when they are the same row and nothing points at them; "
        + "otherwise nothing changes and the rows are named. All or nothing.",
      examples: ["gym migrate verify || gym migrate repair"]))

  @OptionGroup(title: "Common options") var global: GlobalOptions

  func run(context: CommandContext) throws {
    let store = try context.openStoreAsItIs()
    let outcome = try store.write { try IndexRepair.run($0) }
    guard !outcome.rebuilt.isEmpty else {
      printNote("nothing to repair: integrity_check ok")
      return
    }
    let told = outcome.rebuilt.sorted { $0.key < $1.key }.map { name, removed in
      name + (removed > 0 ? " (\(removed) repeated row\(removed == 1 ? "" : "s") removed)" : "")
    }
    printNote("made again: \(told.joined(separator: ", ")); integrity_check ok")
  }
}
