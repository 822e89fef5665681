import Foundation
import Testing

/// `use --spoiled` and `staples stats` through the binary: what was used, cooked and spoiled per
/// item, worked out from the takings made here.
@Suite struct PantryStatsTests {
  func rows(_ gym: GymProcess, _ arguments: [String] = []) throws -> [[String]] {
    let result = try gym.run(["staples", "stats", "-f", "csv"] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdoutLines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
  }

  @Test func usedCookedAndSpoiledAddUpPerItem() throws {
    let gym = try GymProcess()
    for arguments in [
      ["buy", "Milk", "2", "l", "--category", "Dairy"], ["buy", "Bread", "2", "--category", "Bakery"],
      ["recipe", "add", "Latte", "--servings", "1", "--ingredient", "Milk:250 ml"],
    ] {
      let result = try gym.run(["staples"] + arguments + ["-q"])
      #expect(result.status == 0, "\(arguments) \(result.stderr)")
    }
    let spoiled = try gym.run(["staples", "use", "Milk", "0.2", "l", "--spoiled"])
    #expect(spoiled.status == 0 && spoiled.stderr == "spoiled 0.2 l of Milk; 1.8 l left\n", "\(spoiled.stderr)")
    #expect(try gym.run(["staples", "use", "Milk", "300", "ml", "-q"]).status == 0)
    #expect(try gym.run(["staples", "cook", "Latte", "-q"]).status == 0)
    #expect(try gym.run(["staples", "cook", "Latte", "-q"]).status == 0)
    #expect(try gym.run(["staples", "use", "Bread", "1", "--spoiled", "-q"]).status == 0)
    // A count that corrects the stock is not a use: Bread 1 → 0 leaves its figures alone.
    #expect(try gym.run(["staples", "set", "Bread", "--quantity", "0", "-q"]).status == 0)
    // Milk: used 0.3 l, cooked 2 × 0.25 = 0.5 l, spoiled 0.2 l; 0.2 / (0.3 + 0.5 + 0.2) = 20 %.
    // Bread: spoiled 1 of 1 taken = 100 %, so it comes first (most spoiled first).
    let table = try rows(gym)
    #expect(table.first == ["item", "category", "unit", "used", "cooked", "spoiled", "spoiledPercent"])
    #expect(table.count == 3)
    #expect(table[1] == ["Bread", "Bakery", "", "0", "0", "1", "100"])
    #expect(table[2].prefix(3) == ["Milk", "Dairy", "l"])
    let milk = table[2].dropFirst(3).compactMap(Double.init)
    #expect(milk.count == 4 && abs(milk[0] - 0.3) < 1e-9 && abs(milk[1] - 0.5) < 1e-9)
    #expect(abs(milk[2] - 0.2) < 1e-9 && milk[3] == 20)
    // Nothing was taken before yesterday's start or after now.
    #expect(try rows(gym, ["--until", "2020-01-01"]).count == 1)
  }
}
