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

  @Flag(name: [.customShort("q"), .long], help: "No progress or notes on stderr; errors and warnings still print.")
  public var quiet = false

  public init() {}

  /// The `--database` and `--config` that `words` give (`--database X` or `--database=X`, before or
  /// after a command's name), parsed alone: for work that reads a command line gym does not parse
  /// itself (completion, a `gym-NAME` command's `GYM_DATABASE`).
  public static func named(in words: [String]) throws -> GlobalOptions {
    var given: [String] = []
    for (i, word) in words.enumerated() {
      if ["--database", "--config"].contains(word), i + 1 < words.count { given += [word, words[i + 1]] }
      if word.hasPrefix("--database=") || word.hasPrefix("--config=") { given.append(word) }
    }
    return try parse(given)
  }
}

/// How records are written: `--format` and `--fields`.
/// `--format`: how a command writes what it prints. Every command that prints records takes it
/// from here; one that does not print csv (a nested graph, a summary) says so when it is asked.
public struct FormatOptions: ParsableArguments {
  @Option(name: [.customShort("f"), .long], help: "Output format (default: output.format).")
  public var format: OutputFormat?

  public init() {}
}

public struct OutputOptions: ParsableArguments {
  @OptionGroup public var formatting: FormatOptions
  public var format: OutputFormat? { formatting.format }

  @Flag(help: "Only each record's identifier, one per line (what show, set and remove take), as `docker ps -q`.")
  public var ids = false

  @Option(
    help: ArgumentHelp("Fields to show, in order, comma-separated; only these are read.", valueName: "a,b,c"),
    completion: .custom(DynamicCompletion.fields))
  public var fields: String?

  public init() {}

  /// The first name given a second time, if any.
  static func firstRepeated(_ names: [String]) -> String? {
    var seen: Set<String> = []
    return names.first { !seen.insert($0).inserted }
  }

  public var fieldList: [String] {
    fields?.split(separator: ",").map(\.trimmed).filter { !$0.isEmpty } ?? []
  }

  /// More than any list has: a bound, so a generated line cannot reach SQLite's column limit.
  static let maximumFields = 64

  public func validate() throws {
    if fields != nil && fieldList.isEmpty { throw ValidationError("--fields needs at least one field name") }
    if fieldList.count > Self.maximumFields {
      throw ValidationError("--fields names \(fieldList.count) fields; a list has at most \(Self.maximumFields)")
    }
    if let twice = Self.firstRepeated(fieldList) {
      throw ValidationError("--fields names '\(twice)' twice; name each field once")
    }
    if ids && (fields != nil || format != nil) {
      throw ValidationError("--ids prints identifiers only: drop --fields and --format")
    }
  }
}

/// `-n`/`--limit`, the one way to say how many rows: a page of a list, or the rows a computed
/// answer (records, periods, search results) shows.
public struct LimitOptions: ParsableArguments {
  // `.unconditional`: `--limit -1` is a value to refuse in words, not an unknown option `-1`.
  @Option(
    name: [.customShort("n"), .long], parsing: .unconditional,
    help: "At most this many rows (a page of a list); 0 means no limit (default: the command's own).")
  public var limit: Int?

  public init() {}

  public func validate() throws {
    if let limit, limit < 0 { throw ValidationError("--limit must be 0 (no limit) or more") }
  }

  /// How many rows to show of `count`: all of them without `--limit` or with 0.
  public func rows(of count: Int) -> Int { limit.flatMap { $0 == 0 ? nil : min($0, count) } ?? count }
}

/// Paging: `--limit` (0 means all; default: every record, or output.page_size in a table),
/// `--offset`, `--after` a cursor.
public struct PagingOptions: ParsableArguments {
  @OptionGroup public var rows: LimitOptions
  public var limit: Int? { rows.limit }

  @Option(help: "Records to skip first (keyset paging with --after is faster for deep pages).")
  public var offset: Int = 0

  @Option(help: ArgumentHelp("Start after this cursor (printed as 'next page: --after …').", valueName: "cursor"))
  public var after: String?

  public init() {}

  public func validate() throws {
    if offset < 0 { throw ValidationError("--offset must be 0 or more") }
  }
}

/// `--where`, a predicate expression over the command's fields.
public struct FilterOptions: ParsableArguments {
  @Option(
    name: [.customShort("w"), .customLong("where")],
    help: ArgumentHelp(
      "A filter over this list's fields: == != < <= > >=, contains, hasPrefix, in [...], nil, && || ! "
        + "(see the README's filter section).", valueName: "expression"))
  public var expression: String?

  public init() {}

  /// The expression as a predicate over `table`, nil without `--where`: the one step from the option
  /// to SQL that every filtered command takes.
  public func predicate(for table: TableSchema) throws -> RecordFilter? {
    try expression.map { try WhereParser.parse($0, table: table) }
  }
}

/// `--sort`: the order of a list, by declared fields, done in SQL.
public struct SortOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Order by these fields, comma-separated; 'field:desc' (or '--sort=-field') for descending.",
      valueName: "field[:desc],…"),
    completion: .custom(DynamicCompletion.fields))
  public var sort: String?

  public init() {}

  /// The sort keys, or nil when `--sort` was not given (the list's own order then).
  public var keys: [SortKey]? {
    guard let sort else { return nil }
    return sort.split(separator: ",").map { part in
      var text = part.trimmed
      var descending = false
      if text.hasPrefix("-") {
        descending = true
        text = String(text.dropFirst())
      }
      for (suffix, isDescending) in [(":desc", true), (" desc", true), (":asc", false), (" asc", false)]
      where text.lowercased().hasSuffix(suffix) {
        text = String(text.dropLast(suffix.count)).trimmed
        descending = isDescending
      }
      return SortKey(text, descending: descending)
    }
  }

  /// Keys past the first that orders every row change nothing: a bound well above any real order.
  static let maximumKeys = 16

  public func validate() throws {
    if let keys, keys.isEmpty || keys.contains(where: { $0.field.isEmpty }) {
      throw ValidationError("--sort needs field names, such as --sort title or --sort rating:desc,title")
    }
    if let keys, keys.count > Self.maximumKeys {
      throw ValidationError("--sort names \(keys.count) keys; an order has at most \(Self.maximumKeys)")
    }
    if let keys, let twice = OutputOptions.firstRepeated(keys.map(\.field)) {
      throw ValidationError("--sort names '\(twice)' twice; name each field once")
    }
  }
}

/// How a command that prints a series draws it above its table (never in the machine formats):
/// `--chart`, else `output.chart`, else the command's own style.
public struct ChartOptions: ParsableArguments {
  public enum Style: String, CaseIterable, ExpressibleByArgument, Sendable { case none, bars, spark }

  @Option(help: "The chart above the table (default: output.chart, else the command's own).")
  public var chart: Style?
  @Flag(help: "Plain characters in the chart, for a terminal without block elements (default: by the locale).")
  public var ascii = false

  public init() {}

  public var usesASCII: Bool { ascii || !Sparkline.terminalIsUTF8 }

  public func style(_ context: CommandContext, default own: Style) -> Style {
    chart ?? context.configuration.string(.chart).flatMap(Style.init(rawValue:)) ?? own
  }

  /// The style a command's own series takes by default: bars for a short one (a line each), a
  /// sparkline for a long one.
  public static func ownStyle(points: Int) -> Style { points <= 14 ? .bars : .spark }

  /// The series, one labelled value per period, as a chart and a blank line before a table: only in
  /// the table format; nothing when there is nothing to draw. Bars follow the rows' order; a sparkline
  /// runs oldest to newest, so rows listed newest first are turned round for it.
  public func draw(
    _ rows: [(label: String, value: Double?)], title: String, default own: Style, context: CommandContext,
    format: OutputFormat, to out: BufferedOutput, newestFirst: Bool = false
  ) {
    guard format == .table else { return }
    let width = out.terminalWidth ?? 80
    var lines: [String]?
    switch style(context, default: own) {
    case .none: return
    case .spark:
      let values = rows.map(\.value)
      lines = Sparkline(label: title, ascii: usesASCII).render(newestFirst ? values.reversed() : values, width: width)
        .map { [$0] }
    case .bars: lines = BarChart(title: title, ascii: usesASCII).render(rows, width: width)
    }
    guard let lines else { return }
    out.write(lines.map(\.withoutTrailingSpaces).joined(separator: "\n") + "\n\n")
  }
}
