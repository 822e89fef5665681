import Testing

@testable import GymCLI

/// The sparkline: eight levels between the lowest and highest value, the first and last value at its
/// ends and the lowest and highest after, fitted to the width.
@Suite struct SparklineTests {
  @Test func levelsFromTheDefinition() {
    // (v − low) / (high − low) × 7, rounded: 0 → 0, 50 → 3.5 → 4, 100 → 7.
    #expect(Sparkline.level(0, low: 0, high: 100) == 0)
    #expect(Sparkline.level(50, low: 0, high: 100) == 4)
    #expect(Sparkline.level(100, low: 0, high: 100) == 7)
    // A series that never changes is a flat line of the lowest level, never full blocks.
    #expect(Sparkline.level(5, low: 5, high: 5) == 0)
    #expect(Sparkline.level(0, low: 0, high: 0) == 0)
  }

  @Test func blocksPlainGapsAndWidth() {
    let values: [Double?] = [0, 50, nil, 100]
    #expect(Sparkline(label: "kg", ascii: false).render(values, width: 80) == "kg  0 ▁▅ █ 100  (min 0, max 100)")
    #expect(Sparkline(label: "kg", ascii: true).render(values, width: 80) == "kg  0 _+ @ 100  (min 0, max 100)")
    // The last 4 of 6: "kg" 2 + 2 spaces + "0" 1 + 1 + 4 glyphs + 1 + "100" 3 + "  (min 0, max 100)" 18 = 32.
    // The last 5 would start at 100: 2 + 2 + 3 + 1 + 5 + 1 + 3 + 18 = 35.
    let many: [Double?] = [100, 100, 0, 50, nil, 100]
    #expect(Sparkline(label: "kg", ascii: true).render(many, width: 32) == "kg  0 _+ @ 100  (min 0, max 100)")
    #expect(Sparkline(label: "kg", ascii: true).render(many, width: 31) == nil)
    #expect(Sparkline(label: "kg", ascii: true).render([nil, nil], width: 80) == nil)
  }

  /// A lift that went 114 → 80 reads that way: first value left, last value right.
  @Test func theEndsAreTheFirstAndLastValue() {
    let falling: [Double?] = [114, 122.5, 100, 80]
    // Levels: (v − 80) / 42.5 × 7: 114 → 5.6 → 6, 122.5 → 7, 100 → 3.3 → 3, 80 → 0.
    #expect(
      Sparkline(label: "e1RM (kg)", ascii: false).render(falling, width: 80)
        == "e1RM (kg)  114 ▇█▄▁ 80  (min 80, max 122.5)")
    // All zero: the lowest level, no range to tell.
    #expect(Sparkline(label: "steps", ascii: false).render([0, 0, 0, 0], width: 80) == "steps  0 ▁▁▁▁ 0")
  }
}
