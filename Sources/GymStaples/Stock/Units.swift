import GymCLI
import GymCore

/// Units of amounts in the pantry, by dimension: mass (grams), volume (millilitres) and count
/// (pieces). Amounts convert within a dimension; across dimensions only through an item's own
/// conversion (`1 piece = 60 g`). The factors are in Docs/Staples/Units.md.
enum PantryUnit {
  enum Dimension: String, Equatable {
    case mass, volume, count
  }

  /// Each spelling gym reads, to its dimension and its size in the dimension's base unit. Spoons and
  /// cups are the US customary measures (a cup is 236.5882365 ml), as recipe sites in English use.
  static let known: [String: (Dimension, Double)] = {
    var table: [String: (Dimension, Double)] = [:]
    func add(_ names: [String], _ dimension: Dimension, _ size: Double) {
      for name in names { table[name] = (dimension, size) }
    }
    add(["mg"], .mass, 0.001)
    add(["g", "gram", "grams"], .mass, 1)
    add(["kg", "kilogram", "kilograms"], .mass, 1000)
    add(["oz", "ounce", "ounces"], .mass, 28.349523125)
    add(["lb", "lbs", "pound", "pounds"], .mass, 453.59237)
    add(["ml", "millilitre", "millilitres", "milliliter", "milliliters"], .volume, 1)
    add(["cl"], .volume, 10)
    add(["dl"], .volume, 100)
    add(["l", "litre", "litres", "liter", "liters"], .volume, 1000)
    add(["tsp", "teaspoon", "teaspoons"], .volume, 4.92892159375)
    add(["tbsp", "tablespoon", "tablespoons"], .volume, 14.78676478125)
    add(["cup", "cups"], .volume, 236.5882365)
    add(["fl oz", "floz"], .volume, 29.5735295625)
    add(["piece", "pieces", "pc", "pcs", "ea", "each", "x"], .count, 1)
    return table
  }()

  /// A unit as written (`L`, ` ml `); nil (no unit) is a count of pieces.
  static func lookup(_ unit: String?) -> (Dimension, Double)? {
    guard let unit else { return (.count, 1) }
    let key = unit.trimmed.lowercased()
    return key.isEmpty ? (.count, 1) : known[key]
  }

  /// How a unit is shown: as written, or "pieces" for none.
  static func name(_ unit: String?) -> String {
    guard let unit, !unit.trimmed.isEmpty else { return "pieces" }
    return unit
  }

  /// An amount with its unit, as a sentence says it: `1 piece`, `2 pieces`, `0.5 l`. A count of
  /// pieces (no unit, or piece/pieces/pc/pcs) agrees with its number; other units stay as written.
  static func amount(_ value: Double, _ unit: String?) -> String {
    let counted = ["", "piece", "pieces", "pc", "pcs"].contains(unit?.trimmed.lowercased() ?? "")
    let shown = counted ? (value == 1 ? "piece" : "pieces") : name(unit)
    return "\(Quantity.text(value)) \(shown)"
  }
}

/// An item's own conversion across dimensions: `1 piece = 60 g` (an egg), `1 cup = 120 g` (flour).
struct UnitConversion: Equatable {
  var fromAmount: Double
  var fromUnit: String
  var toAmount: Double
  var toUnit: String

  /// The smallest amount a side may give: a millionth (of a gram, a piece …).
  static let smallest = 0.000_001

  /// `egg: 1 piece = 60 g`, `1 cup = 120 g`; the item's name before the colon is optional, and
  /// returned when given.
  static func parse(_ text: String) throws(GymError) -> (item: String?, conversion: UnitConversion) {
    let usage = "write ITEM: AMOUNT UNIT = AMOUNT UNIT, such as 'Egg: 1 piece = 60 g'"
    var rest = Substring(text)
    var item: String?
    if let colon = rest.firstIndex(of: ":") {
      item = String(rest[..<colon]).trimmed
      rest = rest[rest.index(after: colon)...]
    }
    let sides = rest.split(separator: "=", omittingEmptySubsequences: false)
    guard sides.count == 2, let from = PantryAmount(parsing: String(sides[0])),
      let to = PantryAmount(parsing: String(sides[1])), from.amount >= Self.smallest, to.amount >= Self.smallest
    else { throw GymError.usage("--unit-weight '\(text)': \(usage), each amount at least \(Self.smallest)") }
    for unit in [from.unit, to.unit] where PantryUnit.lookup(unit) == nil {
      throw GymError.usage("--unit-weight '\(text)': unknown unit '\(unit ?? "")'; see 'gym staples buy --help'")
    }
    guard PantryUnit.lookup(from.unit)!.0 != PantryUnit.lookup(to.unit)!.0 else {
      throw GymError.usage(
        "--unit-weight '\(text)': both sides are \(PantryUnit.lookup(from.unit)!.0.rawValue), which gym converts already"
      )
    }
    return (
      item?.isEmpty == false ? item : nil,
      UnitConversion(
        fromAmount: from.amount, fromUnit: PantryUnit.name(from.unit), toAmount: to.amount,
        toUnit: PantryUnit.name(to.unit))
    )
  }
}

/// `2 l`, `300ml`, `3`: an amount with an optional unit.
struct PantryAmount: Equatable {
  var amount: Double
  var unit: String?

  /// Amounts from outside are below this (a trillion grams is no one's pantry).
  static let limit = 1e12

  init(amount: Double, unit: String?) {
    self.amount = amount
    self.unit = unit
  }

  /// `2`, `0.5`, `1,5` (a decimal comma), `1e3`, then the unit: after a space any word (`2 cloves`),
  /// joined to the number only one gym knows (`300ml`). Nil for anything else, so nothing is read
  /// as another amount: `1e30` is not 1 of a unit `e30`, `0x10` not 16, `½` not a digit; `1,000`
  /// is 1000 in one language and 1.0 in another, so a comma before exactly three digits is refused.
  init?(parsing text: String) {
    let bytes = Array(text.trimmed.utf8)
    func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 48 && bytes[at] <= 57 }
    var end = 0
    while isDigit(end) || (end < bytes.count && (bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ","))) {
      end += 1
    }
    // An exponent only when digits follow the `e` (a unit may start with one: `2 each`).
    if end > 0, end < bytes.count, bytes[end] | 0x20 == UInt8(ascii: "e") {
      var after = end + 1
      if after < bytes.count, bytes[after] == UInt8(ascii: "+") || bytes[after] == UInt8(ascii: "-") { after += 1 }
      if isDigit(after) {
        while isDigit(after) { after += 1 }
        end = after
      }
    }
    var number = bytes[..<end]
    if let comma = number.firstIndex(of: UInt8(ascii: ",")) {
      let whole = number[..<comma]
      let fraction = number[(comma + 1)...].prefix { $0 >= 48 && $0 <= 57 }
      guard fraction.count != 3 || whole.allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
      number[comma] = UInt8(ascii: ".")
    }
    guard let value = number.withUnsafeBufferPointer({ DecimalNumber.parse($0) }), value >= 0, value < Self.limit else {
      return nil
    }
    let rest = bytes[end...]
    let unit = String(decoding: rest, as: UTF8.self).trimmed
    if let first = rest.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") {
      guard PantryUnit.known[unit.lowercased()] != nil else { return nil }
    }
    self.init(amount: value, unit: unit.isEmpty ? nil : unit)
  }
}

/// Converts amounts into one item's unit, with the item's own conversions for other dimensions.
struct ItemUnits {
  let item: String
  /// The item's unit; nil: pieces.
  let unit: String?
  var conversions: [UnitConversion] = []

  /// `amount` in `from`, in the item's unit; an error naming both units when they cannot meet, or
  /// when what comes out is no amount a lot can hold (a conversion of `1 piece = 4.9e-324 g` made
  /// 1 g infinitely many pieces).
  func convert(_ amount: Double, from: String?) throws(GymError) -> Double {
    let result = try converted(amount, from: from)
    guard result.isFinite, amount == 0 || result > 0 else {
      throw GymError.usage(
        "\(amount) \(PantryUnit.name(from)) of \(item) is no amount in \(PantryUnit.name(unit)) gym can keep; "
          + "check its --unit-weight")
    }
    return result
  }

  private func converted(_ amount: Double, from: String?) throws(GymError) -> Double {
    // No unit means the item's; the item's own unit matches, known to gym or not (a "clove").
    guard let from, !from.trimmed.isEmpty else { return amount }
    if from.trimmed.lowercased() == unit?.trimmed.lowercased() { return amount }
    guard let source = PantryUnit.lookup(from) else {
      throw GymError.usage("unknown unit '\(from)' for \(item); units: g, kg, ml, l, tsp, tbsp, cup, pieces …")
    }
    guard let target = PantryUnit.lookup(unit) else {
      // An item in a unit gym does not know (a "bunch"): only that very unit matches.
      throw GymError.usage("cannot convert \(PantryUnit.name(from)) to \(PantryUnit.name(unit)) for \(item)")
    }
    if source.0 == target.0 { return amount * source.1 / target.1 }
    for conversion in conversions {
      guard let left = PantryUnit.lookup(conversion.fromUnit), let right = PantryUnit.lookup(conversion.toUnit) else {
        continue
      }
      // amount in source → the conversion's side of the same dimension → the other side → target.
      if left.0 == source.0 && right.0 == target.0 {
        let sides = amount * source.1 / (conversion.fromAmount * left.1)
        return sides * conversion.toAmount * right.1 / target.1
      }
      if right.0 == source.0 && left.0 == target.0 {
        let sides = amount * source.1 / (conversion.toAmount * right.1)
        return sides * conversion.fromAmount * left.1 / target.1
      }
    }
    throw GymError.usage(
      "cannot convert \(PantryUnit.name(from)) to \(PantryUnit.name(unit)) for \(item); "
        + "give it a --unit-weight such as '\(item): 1 \(PantryUnit.name(from)) = … \(PantryUnit.name(unit))'")
  }
}
