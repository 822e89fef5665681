/// Other apps' exports, told apart by the columns of their header (English, as they export), so
/// that a command given one says what it read it as, and one given another's file says which
/// command reads it.
public enum KnownExport: String, CaseIterable, Sendable {
  case strong, hevy, appleHealth, goodreads, storygraph

  public var name: String {
    switch self {
    case .strong: "Strong"
    case .hevy: "Hevy"
    case .appleHealth: "Apple Health"
    case .goodreads: "Goodreads"
    case .storygraph: "StoryGraph"
    }
  }

  /// The command that imports this export.
  public func command(for file: String) -> String {
    // A path that starts with `-` would be read as an option: `./` keeps it a path.
    let operand = ShellWord.plainOrQuoted(file.hasPrefix("-") && file != "-" ? "./" + file : file)
    return switch self {
    case .strong: "gym history import \(operand) --from strong"
    case .hevy: "gym history import \(operand) --from hevy"
    case .appleHealth: "gym history import-health \(operand)"
    case .goodreads: "gym library import goodreads \(operand)"
    case .storygraph: "gym library import storygraph \(operand)"
    }
  }

  /// `file: this is a Goodreads export; import it with 'gym library import goodreads file'`.
  public func misdirected(_ file: String) -> String {
    "this is \(self == .appleHealth ? "an" : "a") \(name) export; import it with '\(command(for: file))'"
  }

  /// Columns each export always has, and no other export here has all of.
  static let signatures: [(KnownExport, [[String]])] = [
    (.strong, [["Exercise Name"], ["Set Order"], ["Workout Name"]]),
    (.hevy, [["exercise_title"], ["start_time"], ["set_type"]]),
    (.goodreads, [["Book Id"], ["Exclusive Shelf"]]),
    (.storygraph, [["Title"], ["Authors", "Author"], ["Read Status"]]),
  ]

  public static func recognise(columns: [String]) -> KnownExport? {
    let present = Set(columns)
    return signatures.first { $0.1.allSatisfy { group in group.contains(where: present.contains) } }?.0
  }

  /// A header line's column names: split at the delimiter, trimmed, unquoted (Hevy quotes every
  /// name). A name holding the delimiter inside quotes is not one these exports have.
  public static func columns(ofHeader line: some Collection<UInt8>, delimiter: UInt8) -> [String] {
    line.split(separator: delimiter, omittingEmptySubsequences: false).map { field in
      var name = Substring(String(decoding: field, as: UTF8.self)).trimmingWhitespace()
      if name.count >= 2, name.first == "\"", name.last == "\"" { name = name.dropFirst().dropLast() }
      return String(name)
    }
  }
}

extension Substring {
  fileprivate func trimmingWhitespace() -> Substring {
    guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
      return self[endIndex...]
    }
    return self[first...last]
  }
}
