/// One exercise whatever the spelling: `Bench Press (Barbell)`, `bench press (barbell)` and
/// `Bench  Press (Barbell) ` are one lift. The key is the name in lower case (ASCII, as SQLite's
/// `lower`), trimmed, runs of spaces and tabs made one space — the expression `history/009` indexes.
enum ExerciseKey {
  /// The key of a name-valued SQL expression (a column, or `?` for a name the user gave).
  static func sql(_ name: String) -> String {
    "lower(trim(replace(replace(replace(replace(\(name), char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' ')))"
  }
}
