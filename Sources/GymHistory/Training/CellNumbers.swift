import GymCLI

/// A stored number as a set's weight, reps or a record's value reads it: integer or real alike;
/// nil for anything else (null, text).
extension Cell {
  var integerValue: Int64? {
    switch self {
    case .integer(let value): value
    case .real(let value): Int64(exactly: value.rounded(.towardZero))
    default: nil
    }
  }

  var numberValue: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .real(let value): value
    default: nil
    }
  }
}
