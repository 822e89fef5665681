import Foundation
import Testing

/// Numbers from the command line that no command can use are refused in one line (exit 64) before
/// anything is written: nothing past what the store keeps, what gym's importers read back, or what
/// arithmetic on them can hold.
@Suite struct OptionBoundsTests {
  @Test func numbersPastWhatGymKeepsAreRefused() throws {
    let gym = try GymProcess()
    // 9,223,372,036,854,775,807 days trapped an overflow; 10,000,000 wrote years gym's import refuses.
    for days in ["9223372036854775807", "10000000", "36501"] {
      let sample = try gym.run(["history", "sample", "--count", "1", "--days", days])
      #expect(sample.status == 64 && sample.stderr.contains("--days must be from 1 to 36500"), "\(sample.stderr)")
    }
    #expect(try gym.run(["history", "sample", "--count", "1", "--days", "36500"]).status == 0)
    // A recipe for more servings than cooking takes.
    let recipe = try gym.run([
      "staples", "recipe", "add", "Soup", "--servings", "9223372036854775807", "--ingredient", "Salt:1 g",
    ])
    #expect(recipe.status == 64 && recipe.stderr.contains("--servings must be from 1 to 10000"), "\(recipe.stderr)")
    // A conversion so small that 1 g would be infinitely many pieces.
    #expect(try gym.run(["staples", "add", "Bolt", "--category", "Hardware", "--unit", "pieces", "-q"]).status == 0)
    let tiny = try gym.run(["staples", "set", "Bolt", "--unit-weight", "Bolt: 1 piece = 4.9e-324 g"])
    #expect(tiny.status == 64 && tiny.stderr.contains("each amount at least 1e-06"), "\(tiny.stderr)")
    #expect(try gym.run(["staples", "set", "Bolt", "--unit-weight", "Bolt: 1 piece = 0.000001 g", "-q"]).status == 0)
    // The smallest conversion still gives a finite amount: 1 g = 1 / 0.000001 = 1,000,000 pieces.
    #expect(try gym.run(["staples", "buy", "Bolt", "1", "g", "-q"]).status == 0)
    let stock = try gym.run(["staples", "stock", "-f", "csv"]).stdoutLines
    #expect(stock.contains { $0.hasPrefix("Bolt,Hardware,1000000,") }, "\(stock)")
    let quantity = try gym.run(["staples", "set", "Bolt", "--quantity", "1e30"])
    #expect(quantity.status == 64 && quantity.stderr.contains("from 0 to below 1e12"), "\(quantity.stderr)")
  }
}
