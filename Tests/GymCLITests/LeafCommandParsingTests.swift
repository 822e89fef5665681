import ArgumentParser
import Testing

@testable import GymCLI

/// A tree shaped like gym's: a root, groups without options, leaves with option groups, flags,
/// enums and validation, and a group with a default subcommand.
private struct Root: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "root", version: "1.0", subcommands: [Group.self, Settings.self, Solo.self])
}

private struct Group: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "group", subcommands: [Leaf.self, Other.self])
}

private struct Settings: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "settings", subcommands: [Leaf.self], defaultSubcommand: Leaf.self)
}

private struct Shared: ParsableArguments {
  @Option var database: String?
  @Flag var verbose = false
}

private enum Shape: String, ExpressibleByArgument { case round, square }

private struct Leaf: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "leaf")
  @OptionGroup var shared: Shared
  @Option var limit: Int?
  @Option var shape: Shape = .round
  @Argument var names: [String] = []

  func validate() throws {
    if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
  }
}

private struct Other: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "other")
  @Flag var force = false
}

private struct Solo: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "solo")
  @Option var count = 1
}

@Suite struct LeafCommandParsingTests {
  /// What the full parse makes of the arguments: the command, or the error and its exit code.
  func outcome(_ parse: () throws -> any ParsableCommand) -> String {
    do {
      var text = ""
      dump(try parse(), to: &text)
      return text
    } catch {
      return "\(Root.exitCode(for: error).rawValue): \(Root.fullMessage(for: error))"
    }
  }

  static let arguments: [[String]] = [
    ["group", "leaf"],
    ["group", "leaf", "--limit", "5", "--shape", "square", "a", "b", "--database", "x.sqlite", "--verbose"],
    ["group", "leaf", "--", "--limit"],
    ["group", "other", "--force"],
    ["solo", "--count", "3"],
    ["group", "leaf", "--help"],
    ["group", "leaf", "-h"],
    ["group", "leaf", "--version"],
    ["group", "leaf", "--limit", "-1"],
    ["group", "leaf", "--limit", "x"],
    ["group", "leaf", "--shape", "oval"],
    ["group", "leaf", "--unknown"],
    ["group", "leaf", "help"],
    ["group", "other", "extra"],
    ["group", "leaf", "--generate-completion-script", "bash"],
    ["group", "leaf", "--experimental-dump-help"],
    ["group", "--verbose", "leaf"],
    ["group"],
    ["settings"],
    ["settings", "--limit", "2"],
    ["settings", "leaf", "--limit", "2"],
    ["help", "group", "leaf"],
    ["--version"],
    [],
  ]

  @Test(arguments: arguments) func sameAsTheFullParse(_ arguments: [String]) {
    #expect(
      outcome { try LeafCommandParsing.parse(Root.self, arguments) } == outcome { try Root.parseAsRoot(arguments) })
  }

  /// The short way is taken for leaves named by the leading words, and only for them.
  @Test func leavesAreFoundByTheirLeadingWords() throws {
    let found = try #require(LeafCommandParsing.leaf(of: Root.self, in: ["group", "leaf", "--limit", "5"]))
    #expect(found.0 == Leaf.self && found.1 == 2)
    #expect(LeafCommandParsing.leaf(of: Root.self, in: ["solo"])?.1 == 1)
    #expect(LeafCommandParsing.leaf(of: Root.self, in: ["group"]) == nil)
    #expect(LeafCommandParsing.leaf(of: Root.self, in: ["settings", "--limit", "2"]) == nil)
    #expect(LeafCommandParsing.leaf(of: Root.self, in: ["group", "--verbose", "leaf"]) == nil)
    #expect(LeafCommandParsing.leaf(of: Root.self, in: []) == nil)
  }
}
