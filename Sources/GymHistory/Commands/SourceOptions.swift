import ArgumentParser
import GymCLI

/// `--source NAME` / `--all-sources`: which sources a health figure counts (every command that
/// totals samples takes this group).
struct SourceOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Only this source's samples (see 'gym history samples sources').", valueName: "name"))
  var source: String?
  @Flag(help: "The plain sum of every source, even where they record the same moment.")
  var allSources = false

  func validate() throws {
    if source != nil && allSources { throw ValidationError("--source and --all-sources cannot be used together") }
  }

  /// The default: each moment once, from the highest-priority source (`health.sources`).
  func selection(_ context: CommandContext) -> SampleSelection {
    if let source { return .source(source) }
    if allSources { return .allSources }
    return .deduplicated(SourcePriority(patterns: context.configuration.list(.healthSources)))
  }
}
