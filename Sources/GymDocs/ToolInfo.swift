/// The part of swift-argument-parser's `--experimental-dump-help` JSON the reference is made from
/// (its own `ToolInfoV0` types are not a public product).
public struct ToolInfo: Decodable, Sendable {
  public let command: CommandInfo
}

public struct CommandInfo: Decodable, Sendable {
  public let commandName: String
  public let abstract: String?
  public let discussion: String?
  public let shouldDisplay: Bool?
  public let superCommands: [String]?
  public let defaultSubcommand: String?
  public let arguments: [ArgumentInfo]?
  public let subcommands: [CommandInfo]?

  /// `gym history list`
  public var fullName: String { ((superCommands ?? []) + [commandName]).joined(separator: " ") }
  /// `gym-history-list`
  public var pageName: String { ((superCommands ?? []) + [commandName]).joined(separator: "-") }
  /// Without swift-argument-parser's own `help` command.
  public var visibleSubcommands: [CommandInfo] {
    (subcommands ?? []).filter { ($0.shouldDisplay ?? true) && $0.commandName != "help" }
  }
  public var visibleArguments: [ArgumentInfo] {
    (arguments ?? []).filter { ($0.shouldDisplay ?? true) && !["help", "version"].contains($0.preferredName?.name) }
  }

  /// The discussion without its examples, and the examples: gym's help ends a discussion with
  /// `Examples:` and one indented command line each (GymCLI's `HelpExamples` writes them).
  public var prose: String {
    let lines = (discussion ?? "").split(separator: "\n", omittingEmptySubsequences: false)
    let end = lines.firstIndex(of: "Examples:") ?? lines.endIndex
    return lines[..<end].joined(separator: "\n").trimmingTrailingNewlines
  }

  public var examples: [String] {
    let lines = (discussion ?? "").split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "Examples:") else { return [] }
    return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
  }

  /// This command and every visible one below it, depth first.
  public var all: [CommandInfo] { [self] + visibleSubcommands.flatMap(\.all) }
}

public struct ArgumentInfo: Decodable, Sendable {
  public struct Name: Decodable, Sendable {
    public let kind: String
    public let name: String

    /// `--limit`, `-n`
    public var spelled: String { kind == "short" ? "-" + name : "--" + name }
  }

  public let kind: String
  public let names: [Name]?
  public let preferredName: Name?
  public let valueName: String?
  public let abstract: String?
  public let defaultValue: String?
  public let allValues: [String]?
  public let isOptional: Bool?
  public let isRepeating: Bool?
  public let shouldDisplay: Bool?
  /// The heading of the option group it belongs to (`Common options`); nil for the command's own.
  public let sectionTitle: String?

  public var isCommon: Bool { sectionTitle != nil }

  /// `--limit <limit>`, `--verbose`, `<file>`
  public var synopsis: String {
    switch kind {
    case "positional": return "<\(valueName ?? "value")>" + (isRepeating == true ? " …" : "")
    case "flag": return (names ?? []).map(\.spelled).joined(separator: ", ")
    default:
      return (names ?? []).map(\.spelled).joined(separator: ", ") + " <\(valueName ?? "value")>"
        + (isRepeating == true ? " …" : "")
    }
  }
}

extension String {
  fileprivate var trimmingTrailingNewlines: String {
    var text = self
    while text.last == "\n" { text.removeLast() }
    return text
  }
}
