/// One exercise whatever the spelling: `Bench Press (Barbell)`, `bench press (barbell)` and
/// `Bench  Press (Barbell) ` are one lift. The key is the name in lower case (ASCII, as SQLite's
/// `lower`), trimmed, runs of spaces and tabs made one space — the expression `history/009` indexes.
enum ExerciseKey {
  /// The key of a name-valued SQL expression (a column, or `?` for a name the user gave).
  static func sql(_ name: String) -> String {
    "lower(trim(replace(replace(replace(replace(\(name), char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))"
  }

  /// The same key in Swift, step by step as the SQL: tab to space, four spaces to one, then two to
  /// one twice (so a run of 11, 14, 15 or 17 and more spaces keeps two or more, as it does in SQL),
  /// spaces trimmed, ASCII letters lowered.
  static func swift(_ name: String) -> String {
    // On scalars, as SQLite works on characters: a combining mark after a space is not part of it.
    var scalars = name.unicodeScalars.map { $0 == "\t" ? " " : $0 }
    for run in [4, 2, 2] {
      var replaced: [Unicode.Scalar] = []
      var index = 0
      while index < scalars.count {
        if index + run <= scalars.count, scalars[index..<index + run].allSatisfy({ $0 == " " }) {
          replaced.append(" ")
          index += run
        } else {
          replaced.append(scalars[index])
          index += 1
        }
      }
      scalars = replaced
    }
    while scalars.first == " " { scalars.removeFirst() }
    while scalars.last == " " { scalars.removeLast() }
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 })
    return String(text)
  }
}
