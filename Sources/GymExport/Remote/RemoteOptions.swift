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
    if let remote, let problem = Rclone.problem(with: remote) {
      throw ValidationError(
        "--remote '\(ErrorReporting.oneLine(remote))' \(problem); write an rclone remote such as nas:gym")
    }
  }

  /// The remote to copy to; nil: none. One from the configuration is checked as the flag is (78).
  func remote(_ context: CommandContext) throws -> String? {
    if noRemote { return nil }
    if let remote { return remote }
    return try Self.configured(context)
  }

  /// `export.remote` (or `GYM_EXPORT_REMOTE`), checked: nil when not set.
  static func configured(_ context: CommandContext) throws -> String? {
    guard let remote = context.configuration.string(.exportRemote) else { return nil }
    if let problem = Rclone.problem(with: remote) {
      throw GymError(
        .configuration,
        "export.remote '\(ErrorReporting.oneLine(remote))' \(problem); set an rclone remote such as nas:gym")
    }
    return remote
  }
}
