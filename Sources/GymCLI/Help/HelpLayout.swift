/// A command's help with its own options first and the common ones (`--database`, `--config` …)
/// after them, under their own heading. swift-argument-parser puts titled groups before the
/// untitled OPTIONS section, so the sections are reordered in the printed text.
public enum HelpLayout {
  /// The title every command gives its `GlobalOptions` group.
  public static let commonOptionsHeading = "COMMON OPTIONS:"

  /// Also moves the discussion's examples to an EXAMPLES section at the end, as `gh` and man pages
  /// place them.
  public static func ownOptionsFirst(_ help: String) -> String {
    var sections = split(help)
    if let common = sections.firstIndex(where: { $0.first == commonOptionsHeading }) {
      let moved = sections.remove(at: common)
      let options = sections.lastIndex { $0.first == "OPTIONS:" } ?? sections.count - 1
      sections.insert(moved, at: options + 1)
    }
    if let start = sections[0].firstIndex(of: HelpExamples.heading) {
      var end = start + 1
      var examples: [String] = []
      // Each example is indented; a line that is not continues the one before it: swift-argument-parser
      // wrapped a long example at a space, and it is joined back so it reads (and copies) whole.
      while end < sections[0].count, !sections[0][end].isEmpty {
        let line = sections[0][end]
        if line.hasPrefix("  ") || examples.isEmpty {
          examples.append(line)
        } else {
          examples[examples.count - 1] += " " + line
        }
        end += 1
      }
      sections[0].removeSubrange(start..<end)
      // The blank line that stood before the examples, when it now doubles another.
      if start > 0, sections[0][start - 1].isEmpty, start == sections[0].count || sections[0][start].isEmpty {
        sections[0].remove(at: start - 1)
      }
      let trailer =
        sections[sections.count - 1].last?.hasPrefix("  See '") == true
        ? sections[sections.count - 1].removeLast() : nil
      sections.append(["EXAMPLES:"] + examples)
      if let trailer { sections.append([trailer]) }
    }
    // Sections are separated by one blank line, wherever they now stand.
    return sections.map { section in
      var lines = section
      while lines.last?.isEmpty == true { lines.removeLast() }
      return lines.joined(separator: "\n")
    }.joined(separator: "\n\n")
  }

  /// The text before the first heading, then each heading with its lines up to the next one.
  private static func split(_ help: String) -> [[String]] {
    var sections: [[String]] = [[]]
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if isHeading(line) { sections.append([]) }
      sections[sections.count - 1].append(String(line))
    }
    return sections
  }

  /// `OPTIONS:`, `COMMON OPTIONS:`, `SUBCOMMANDS:`: upper-case words at the margin, then a colon.
  private static func isHeading(_ line: Substring) -> Bool {
    line.count > 1 && line.last == ":" && line.first?.isUppercase == true
      && line.dropLast().allSatisfy { $0.isUppercase || $0 == " " }
  }
}
