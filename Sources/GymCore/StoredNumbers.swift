import GRDB

/// Numbers read back from the database as a reader can trust them. A column's type affinity does
/// not stop text or 1e300 arriving by another program's hand; GRDB's typed subscripts stop the
/// process on a value they cannot convert. These give nil instead, so a reader survives any stored
/// value, and `gym doctor` names what is out of range.
extension Row {
  /// The column as a finite number (within `bounds`, when given); nil when it is NULL, not a
  /// number, or outside them.
  public func number(at index: Int, within bounds: ClosedRange<Double>? = nil) -> Double? {
    guard let value = Double.fromDatabaseValue(self[index] as DatabaseValue), value.isFinite,
      bounds?.contains(value) ?? true
    else { return nil }
    return value
  }

  /// The column as a whole number within `range`; nil otherwise.
  public func whole(at index: Int, in range: ClosedRange<Double>) -> Int? {
    guard let value = number(at: index), range.contains(value) else { return nil }
    return Int(exactly: value.rounded(.towardZero))
  }
}

/// A total as a whole number to show, or an error naming it: a sum over values no import accepts
/// (a duration of 9.3e18 minutes written by hand) is reported, never a trap or a wrapped number.
public enum StoredTotal {
  public static func whole(_ total: Double, _ what: String) throws -> Int {
    guard total.isFinite, abs(total) < 1e15 else {
      throw StoreError.outOfRange(
        "\(what) come to \(total), more than any real record: a stored value is out of range; "
          + "'gym doctor' names it")
    }
    return Int(total.rounded())
  }
}
