import ArgumentParser
import Foundation

/// `gym config`: the effective configuration.
public struct ConfigCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "config", abstract: "Show the effective configuration.", subcommands: [Show.self],
    defaultSubcommand: Show.self)

  public init() {}

  /// `gym config show`: every key, its value, and where the value came from.
  public struct Show: GymCommand {
    public static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Print every configuration key, its value and where it came from.")

    @OptionGroup public var global: GlobalOptions
    @OptionGroup var formatting: FormatOptions
    /// Not `output.format`: this output is meant for a pipe or a person as it is.
    var format: OutputFormat { formatting.format ?? .table }

    public init() {}

    public func run(context: CommandContext) throws {
      let writer = RecordWriter(format: format, columns: ["key", "value", "source"])
      for key in ConfigKey.all {
        if key.kind == .numbers {
          for (name, entry) in (context.configuration.mappings[key.name] ?? [:]).sorted(by: { $0.key < $1.key }) {
            writer.write([.text(key.name + "." + name), .text(entry.value), .text(entry.source)])
          }
          continue
        }
        let entry = context.configuration.entry(key)
        let value = key.kind == .list ? context.configuration.list(key).joined(separator: ", ") : entry?.value ?? ""
        if entry == nil, let effective = Self.effectiveDefault(key, context) {
          writer.write([.text(key.name), .text(effective), .text("default")])
          continue
        }
        writer.write([.text(key.name), .text(value), .text(entry?.source ?? "default")])
      }
      writer.finish(next: nil)
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
