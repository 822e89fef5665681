import ArgumentParser
import GymCore

/// Where the data is and how to read the configuration: every command takes these.
public struct GlobalOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The database file.", valueName: "path"))
  public var database: String?

  @Option(help: ArgumentHelp("A YAML configuration file (see Config/gym.yaml).", valueName: "path"))
  public var config: String?

  @Flag(help: "Print details with errors.")
  public var verbose = false

  public init() {}
}

/// How records are written: `--format` and `--fields`.
public struct OutputOptions: ParsableArguments {
  @Option(help: "Output format: table, json, ndjson or csv (default: output.format).")
  public var format: OutputFormat?

  @Option(help: ArgumentHelp("Fields to show, in order, comma-separated; only these are read.", valueName: "a,b,c"))
  public var fields: String?

  public init() {}

  public var fieldList: [String] {
    fields?.split(separator: ",").map(\.trimmed).filter { !$0.isEmpty } ?? []
  }

  public func validate() throws {
    if fields != nil && fieldList.isEmpty { throw ValidationError("--fields needs at least one field name") }
  }
}

/// Paging: `--limit` (0 means all), `--offset`, `--after` a cursor.
public struct PagingOptions: ParsableArguments {
  @Option(help: "Records per page; 0 means no limit (default: output.page_size, 20).")
  public var limit: Int?

  @Option(help: "Records to skip first (keyset paging with --after is faster for deep pages).")
  public var offset: Int = 0

  @Option(help: ArgumentHelp("Start after this cursor (printed as 'next page: --after …').", valueName: "cursor"))
  public var after: String?

  public init() {}

  public func validate() throws {
    if let limit, limit < 0 { throw ValidationError("--limit must be 0 (no limit) or more") }
    if offset < 0 { throw ValidationError("--offset must be 0 or more") }
  }
}

/// `--where`, a predicate expression over the command's fields.
public struct FilterOptions: ParsableArguments {
  @Option(
    name: .customLong("where"),
    help: ArgumentHelp(
      "A filter such as 'status == \"completed\" && durationMinutes >= 30'.", valueName: "expression"))
  public var expression: String?

  public init() {}
}
