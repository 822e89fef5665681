import ArgumentParser
import GymCLI

/// `--remote REMOTE` / `--no-remote`: where exports are copied after they are written, for
/// `export create`, `schedule` and `prune`; by default `export.remote` from the configuration.
struct RemoteOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Copy exports to this rclone remote and path (default: export.remote), such as nas:gym.", valueName: "remote"))
  var remote: String?
  @Flag(help: "Do not copy to export.remote this time.") var noRemote = false

  func validate() throws {
    if remote != nil && noRemote { throw ValidationError("--remote and --no-remote contradict each other") }
    if let remote, remote.isEmpty || remote.hasPrefix("-") {
      throw ValidationError("--remote '\(remote)' is not an rclone remote; write nas:gym or b2:bucket/gym")
    }
  }

  /// The remote to copy to; nil: none.
  func remote(_ context: CommandContext) -> String? {
    noRemote ? nil : remote ?? context.configuration.string(.exportRemote)
  }
}
