import ArgumentParser

/// The word that names a subcommand on the command line, from the parser's public configuration:
/// its `commandName` or one of its aliases. Every gym command sets its name (a test walks the tree),
/// so no name has to be derived from a type name.
public enum CommandNames {
  public static func matches(_ command: any ParsableCommand.Type, _ word: String) -> Bool {
    command.configuration.commandName == word || command.configuration.aliases.contains(word)
  }

  /// The subcommand of `command` that `word` names.
  public static func subcommand(of command: any ParsableCommand.Type, named word: String)
    -> (any ParsableCommand.Type)?
  {
    command.configuration.subcommands.first { matches($0, word) }
  }
}
