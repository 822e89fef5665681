import ArgumentParser

/// `gym completions bash|zsh|fish`: the shell completion script, from swift-argument-parser.
public struct CompletionsCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "completions",
    abstract: "Print a shell completion script.",
    discussion: HelpExamples.discussion(
      """
      bash: gym completions bash > ~/.local/share/bash-completion/completions/gym
      zsh:  gym completions zsh > "${fpath[1]}/_gym"
      fish: gym completions fish > ~/.config/fish/completions/gym.fish
      """,
      examples: [
        "gym completions bash > gym.bash",
        "gym completions zsh > _gym",
      ]))

  /// Set by the executable: the root command whose script to print.
  nonisolated(unsafe) public static var root: any ParsableCommand.Type = CompletionsCommand.self

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The shell.") var shell: CompletionShell

  public init() {}

  public func run() throws {
    let out = BufferedOutput.standardOutput()
    out.write(Self.root.completionScript(for: shell))
    out.flush()
  }
}

extension CompletionShell: @retroactive ExpressibleByArgument {}
