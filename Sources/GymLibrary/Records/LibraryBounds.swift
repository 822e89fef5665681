import ArgumentParser

/// What a book's numbers can be, wherever they come from: `library add` and `set` refuse what the
/// importers refuse, so what gym writes it imports back (gym's own format and Goodreads').
enum LibraryBounds {
  /// An edition's pages, and pages read.
  static let pages: ClosedRange<Int64> = 0...1_000_000
  static let ownedCopies: ClosedRange<Int64> = 0...1_000_000
  /// An edition's year: clay tablets to the calendar's last.
  static let year: ClosedRange<Int64> = -5000...9999

  /// "--pages must be from 0 to 1000000" when `value` is outside `bounds`.
  static func check(_ value: Int?, _ bounds: ClosedRange<Int64>, option: String) throws(ValidationError) {
    guard let value, !bounds.contains(Int64(value)) else { return }
    throw ValidationError("\(option) must be from \(bounds.lowerBound) to \(bounds.upperBound)")
  }
}

extension ClosedRange<Int64> {
  /// The same bounds for a reader of `Int`s (a spreadsheet's columns).
  var ofInt: ClosedRange<Int> { Int(lowerBound)...Int(upperBound) }
}
