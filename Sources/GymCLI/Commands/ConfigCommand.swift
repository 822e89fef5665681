import ArgumentParser
import Foundation

/// `gym config`: the effective configuration.
public struct ConfigCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "config", abstract: "Show the effective configuration.",
    discussion: HelpExamples.discussion(examples: [
      "gym config show"
    ]), subcommands: [Show.self],
    defaultSubcommand: Show.self)

  public init() {}

  /// `gym config show`: every key, its value, and where the value came from.
  public struct Show: GymCommand {
    public static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Print every configuration key, its value and where it came from.",
      discussion: HelpExamples.discussion(examples: [
        "gym config show",
        "gym config show -f json",
      ]))

    @OptionGroup(title: "Common options") public var global: GlobalOptions
    @OptionGroup var formatting: FormatOptions
    /// Not `output.format`: this output is meant for a pipe or a person as it is.
    var format: OutputFormat { formatting.format ?? .table }

    public init() {}

    public func run(context: CommandContext) throws {
      let writer = RecordWriter(format: format, columns: ["key", "value", "source"])
      for key in ConfigKey.all {
        if key.kind == .numbers {
          for (name, entry) in (context.configuration.mappings[key.name] ?? [:]).sorted(by: { $0.key < $1.key }) {
            writer.write([.text(key.name + "." + name), Self.typed(entry.value, .numbers), .text(entry.source)])
          }
          continue
        }
        let entry = context.configuration.entry(key)
        let value = key.kind == .list ? context.configuration.list(key).joined(separator: ", ") : entry?.value ?? ""
        if entry == nil, let effective = Self.effectiveDefault(key, context) {
          writer.write([.text(key.name), .text(effective), .text("default")])
          continue
        }
        writer.write([.text(key.name), Self.typed(value, key.kind), .text(entry?.source ?? "default")])
      }
      writer.finish(next: nil)
    }

    /// A value as the type its key holds, so JSON says `5000` and `true`, not `"5000"` and `"true"`.
    static func typed(_ value: String, _ kind: ConfigKey.Kind) -> Cell {
      switch kind {
      case .integer: Int64(value).map(Cell.integer) ?? .text(value)
      case .numbers:
        Double(value).map { $0 == $0.rounded() && abs($0) < 1e15 ? .integer(Int64($0)) : .real($0) } ?? .text(value)
      case .bool: value == "true" ? .bool(true) : value == "false" ? .bool(false) : .text(value)
      default: value.isEmpty ? .null : .text(value)
      }
    }

    /// What a key without a value means in effect, for the keys whose default is not a constant.
    static func effectiveDefault(_ key: ConfigKey, _ context: CommandContext) -> String? {
      switch key.name {
      case ConfigKey.exportDirectory.name: context.exportDirectory
      case ConfigKey.timeZone.name: "the system's (\(TimeZone.current.identifier))"
      case ConfigKey.healthSources.name: "Apple Watch devices, then iPhones, then the others by name"
      default: nil
      }
    }
  }
}
