import ArgumentParser

/// Parses `gym <group> <command> <options>` as swift-argument-parser does, a millisecond sooner
/// (`history list --limit 20`: parsing 4.1 → 3.1 ms, the whole run 7.6 → 6.5 ms; uprobes, same hour).
///
/// The parser reflects on every command on the way down (`gym`, then `history`, then `list`),
/// several times each, and the Swift runtime's first-time type work in that is most of a short
/// command's start-up. gym's groups have no options of their own, so when the leading words name
/// a command without subcommands, parsing the rest as that command alone gives the same command.
/// Anything else — help, `--version`, an error, a hidden flag of the parser's — goes through the
/// full parse, so what users see is the parser's own output, word for word.
public enum LeafCommandParsing {
  public static func parse(_ root: any ParsableCommand.Type, _ arguments: [String]) throws -> any ParsableCommand {
    if let (leaf, depth) = leaf(of: root, in: arguments),
      let command = try? leaf.parseAsRoot(Array(arguments.dropFirst(depth))),
      type(of: command) == leaf
    {
      return command
    }
    return try root.parseAsRoot(arguments)
  }

  /// The command the leading words name, and how many words that took, when it has no subcommands.
  static func leaf(of root: any ParsableCommand.Type, in arguments: [String]) -> (any ParsableCommand.Type, Int)? {
    var command = root
    var depth = 0
    while depth < arguments.count,
      let next = CommandNames.subcommand(of: command, named: arguments[depth])
    {
      command = next
      depth += 1
    }
    return depth > 0 && command.configuration.subcommands.isEmpty ? (command, depth) : nil
  }
}
