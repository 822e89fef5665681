import Testing

@testable import GymCLI

/// The sparkline: eight levels between the lowest and highest value, labelled, fitted to the width.
@Suite struct SparklineTests {
  @Test func levelsFromTheDefinition() {
    // (v − low) / (high − low) × 7, rounded: 0 → 0, 50 → 3.5 → 4, 100 → 7.
    #expect(Sparkline.level(0, low: 0, high: 100) == 0)
    #expect(Sparkline.level(50, low: 0, high: 100) == 4)
    #expect(Sparkline.level(100, low: 0, high: 100) == 7)
    #expect(Sparkline.level(5, low: 5, high: 5) == 7)
  }

  @Test func blocksPlainGapsAndWidth() {
    let values: [Double?] = [0, 50, nil, 100]
    #expect(Sparkline(label: "kg", ascii: false).render(values, width: 80) == "kg  0 ▁▅ █ 100")
    #expect(Sparkline(label: "kg", ascii: true).render(values, width: 80) == "kg  0 _+ @ 100")
    // Room for 4 glyphs: "kg" 2 + "0" 1 + "100" 3 + 5 spaces = 11, so width 15 shows the last 4 of 6.
    let many: [Double?] = [100, 100, 0, 50, nil, 100]
    #expect(Sparkline(label: "kg", ascii: true).render(many, width: 15) == "kg  0 _+ @ 100")
    #expect(Sparkline(label: "kg", ascii: true).render(many, width: 14) == nil)
    #expect(Sparkline(label: "kg", ascii: true).render([nil, nil], width: 80) == nil)
  }
}
