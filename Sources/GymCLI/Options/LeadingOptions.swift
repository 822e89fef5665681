import ArgumentParser

/// What a command line says before its subcommand, as git and kubectl read it: the common options
/// (`gym --database X history count`, `gym -q …`) and `-C DIR` (run as if started in DIR).
public struct LeadingOptions: Equatable {
  /// The arguments with the leading common options moved after the subcommand's words.
  public var arguments: [String]
  /// `-C DIR`, in order: each is relative to the one before, as in git.
  public var directories: [String]

  /// Options that take a value, and flags, of `GlobalOptions`.
  static let valued: Set<String> = ["--database", "--config"]
  static let flags: Set<String> = ["--verbose", "--quiet", "-q"]

  public init(_ arguments: [String]) throws {
    var rest = arguments[...]
    var hoisted: [String] = []
    var directories: [String] = []
    while let first = rest.first {
      if first == "-C" {
        guard rest.count >= 2 else { throw ValidationError("-C needs a directory") }
        directories.append(rest[rest.startIndex + 1])
        rest = rest.dropFirst(2)
      } else if Self.flags.contains(first) || Self.valued.contains(where: { first.hasPrefix($0 + "=") }) {
        hoisted.append(first)
        rest = rest.dropFirst()
      } else if Self.valued.contains(first) {
        guard rest.count >= 2 else { throw ValidationError("\(first) needs a value") }
        hoisted += [first, rest[rest.startIndex + 1]]
        rest = rest.dropFirst(2)
      } else {
        break
      }
    }
    // After the command's own arguments, but before a `--` that ends the options.
    var tail = Array(rest)
    let end = tail.firstIndex(of: "--") ?? tail.endIndex
    // Given twice (before the command, after it, or both), one would silently win: which database a
    // write goes to must never be a guess.
    for option in Self.valued {
      let given = (hoisted + tail[..<end]).filter { $0 == option || $0.hasPrefix(option + "=") }.count
      if given > 1 { throw ValidationError("\(option) is given \(given) times; give it once") }
    }
    tail.insert(contentsOf: hoisted, at: end)
    self.arguments = tail
    self.directories = directories
  }
}

/// The nearest subcommand to a word that names none, at any depth of the tree.
public enum CommandSuggestion {
  /// For `gym history lsit`: the unknown word, the path that was understood, and the nearest name.
  public static func unknownWord(in arguments: [String], root: any ParsableCommand.Type) -> (
    word: String, path: String, nearest: String?
  )? {
    var command = root
    var path = [root.configuration.commandName ?? "gym"]
    for word in arguments {
      guard !word.hasPrefix("-") else { return nil }
      let names = command.configuration.subcommands.compactMap { $0.configuration.commandName }
      guard !names.isEmpty else { return nil }
      guard let next = CommandNames.subcommand(of: command, named: word) else {
        return (word, path.joined(separator: " "), Suggestions.nearest(to: word, in: names).first)
      }
      path.append(word)
      command = next
    }
    return nil
  }
}
