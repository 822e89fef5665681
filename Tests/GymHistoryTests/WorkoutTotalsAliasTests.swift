import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymHistory

/// `history show`'s totals read a set's exercise through the aliases, as `prs` does.
@Suite struct WorkoutTotalsAliasTests {
  @Test func twoSpellingsMergedAreOneExercise() throws {
    let store = try TrainingTests.store([
      (1, "2026-02-02", "Squat", "normal", 100, 5), (1, "2026-02-02", "Squat (Barbell)", "normal", 110, 5),
    ])
    try store.write { try ExerciseAliases.alias($0, "Squat", to: "Squat (Barbell)") }
    let sets: [[Cell]] = [
      [.integer(0), .text("Squat"), .text("normal"), .real(100), .integer(5)],
      [.integer(1), .text("Squat (Barbell)"), .text("normal"), .real(110), .integer(5)],
    ]
    let totals = try store.read { try WorkoutTotals.compute($0, workout: 1, sets: sets) }
    // One exercise; its one session volume record: 100 × 5 + 110 × 5 = 1050 kg.
    #expect(totals.exercises == 1)
    #expect(totals.volumeKg == 1050)
    #expect(totals.sessionRecords == ["Squat (Barbell) sessionVolume"])
    // The heaviest set of the merged exercise is the 110 kg one, at position 1.
    #expect(totals.setRecords[1]?.contains("heaviest") == true, "\(totals.setRecords)")
  }
}
