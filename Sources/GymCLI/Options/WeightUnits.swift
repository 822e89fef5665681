import ArgumentParser

/// `--unit kg|lb`: the unit weights are printed in (`units.weight` by default). They are stored in
/// kilograms whatever it says.
public struct WeightUnitOptions: ParsableArguments {
  public enum Unit: String, CaseIterable, ExpressibleByArgument, Sendable {
    case kg, lb
  }

  @Option(help: "Print weights in kg or lb (default: units.weight; they are stored in kg).")
  public var unit: Unit?

  public init() {}

  /// `--unit`, else `units.weight`, for the weight columns named.
  public func display(_ context: CommandContext, columns: Set<String>) -> WeightDisplay {
    WeightDisplay(
      unit: unit ?? Unit(rawValue: context.configuration.string(.weightUnit) ?? "kg") ?? .kg, columns: columns)
  }
}

/// Weight columns as the chosen unit prints them: in pounds, each value converted (1 lb is
/// 0.45359237 kg exactly) and shown to 0.1, each column's `Kg` suffix made `Lb`.
public struct WeightDisplay: Sendable {
  public static let kilogramsPerPound = 0.453_592_37

  public let unit: WeightUnitOptions.Unit
  /// The columns that hold kilograms.
  public let columns: Set<String>

  public init(unit: WeightUnitOptions.Unit, columns: Set<String>) {
    self.unit = unit
    self.columns = columns
  }

  /// `weightKg` → `weightLb` in pounds; any name as it is in kilograms.
  public func name(_ column: String) -> String {
    guard unit == .lb, columns.contains(column), column.hasSuffix("Kg") else { return column }
    return String(column.dropLast(2)) + "Lb"
  }

  /// A value in kilograms, in the unit.
  public func value(_ kilograms: Double) -> Double {
    unit == .kg ? kilograms : (kilograms / Self.kilogramsPerPound * 10).rounded() / 10
  }

  /// A row's weight columns converted; `names` are the row's columns as stored (in kg).
  public func cells(_ cells: [Cell], names: [String]) -> [Cell] {
    guard unit == .lb else { return cells }
    return zip(cells, names).map { cell, name in
      guard columns.contains(name), case .real(let kilograms) = cell else {
        if columns.contains(name), case .integer(let whole) = cell { return .real(value(Double(whole))) }
        return cell
      }
      return .real(value(kilograms))
    }
  }
}
