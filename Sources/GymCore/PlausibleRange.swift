/// What a person could mean by a number, for each kind of quantity gym stores. Importers refuse a
/// value outside (exit 65, naming the line and the bound), so every sum a reader makes stays a
/// number it can show: a week of minutes, not 9.3e18. Wide enough for any real record.
public enum PlausibleRange {
  /// Minutes of one workout: up to a week.
  public static let minutes: ClosedRange<Double> = 0...10_080
  /// Seconds of one set or effort: up to a week.
  public static let seconds: ClosedRange<Double> = 0...604_800
  /// A set's load in kilograms; negative is assistance (a counterweight on a pull-up machine).
  public static let kilograms: ClosedRange<Double> = -10_000...10_000
  /// Kilometres of one workout or set.
  public static let kilometres: ClosedRange<Double> = 0...100_000
  /// Kilocalories of one workout.
  public static let kilocalories: ClosedRange<Double> = 0...100_000
  /// Repetitions of one set.
  public static let reps: ClosedRange<Double> = 0...1_000_000
  /// Rate of perceived exertion.
  public static let rpe: ClosedRange<Double> = 0...10
  /// A health sample's value, whatever its unit (steps, metres, beats per minute, kilograms…).
  public static let sampleValue: ClosedRange<Double> = -1e12...1e12

  /// `0 to 10080`: a bound as a message gives it.
  public static func describe(_ range: ClosedRange<Double>) -> String {
    func number(_ value: Double) -> String {
      value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
    return "from \(number(range.lowerBound)) to \(number(range.upperBound))"
  }

  /// Refuses `value` outside `range`, naming the line, what it is and the bound.
  public static func check(_ value: Double?, _ range: ClosedRange<Double>, _ what: String, line: Int)
    throws(InputError)
  {
    guard let value, !range.contains(value) else { return }
    throw InputError(line: line, message: "\(what) \(value) is out of range: give a number \(describe(range))")
  }
}
