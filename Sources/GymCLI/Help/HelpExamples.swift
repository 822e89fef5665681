import GymCore

/// The examples in a command's help: the last part of its discussion, so that the generated
/// reference shows them and a test runs every one (against a sample database, in a shell).
public enum HelpExamples {
  public static let heading = "Examples:"

  /// `text`, then the examples under their heading, one command line each.
  public static func discussion(_ text: String = "", examples: [String]) -> String {
    (text.isEmpty ? "" : text + "\n\n") + heading + "\n" + examples.map { "  " + $0 }.joined(separator: "\n")
  }

  /// The command lines of a discussion's examples.
  public static func examples(in discussion: String) -> [String] {
    let lines = discussion.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: Substring(heading)) else { return [] }
    return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
  }
}

/// The line a list's help gives its fields, from the table itself, so it names exactly what
/// `--fields`, `--where` and `--sort` accept.
public enum FieldHelp {
  public static func line(_ table: TableSchema) -> String {
    line(table.fieldNames, for: "--fields, --where and --sort")
  }

  /// A computed list's fields, for the options that take them.
  public static func line(_ names: [String], for options: String) -> String {
    "Fields (for \(options)): " + names.joined(separator: ", ") + "."
  }
}
