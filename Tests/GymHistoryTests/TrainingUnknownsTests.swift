import Foundation
import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymHistory

/// Reps an export did not give are unknown, never 0; an assisted exercise's weight is no load; an
/// exercise done with and without a weight keeps its most reps. Expected values from the definitions
/// (Docs/History/Training.md).
@Suite struct TrainingUnknownsTests {
  /// (workout, date, exercise, kind, weight, reps), in set order.
  static let sets: [(Int, String, String, String, Double?, Int?)] = [
    (1, "2026-01-05", "Squat (Barbell)", "normal", 120, nil),
    (1, "2026-01-05", "Assisted Pull Up", "normal", 20, 8),
    (1, "2026-01-05", "Pull Up", "normal", nil, 10),
    (2, "2026-01-12", "Squat (Barbell)", "normal", 100, 5),
    (2, "2026-01-12", "Squat (Barbell)", "normal", 100, nil),
    (2, "2026-01-12", "Pull Up", "normal", 10, 6),
    (3, "2026-01-19", "Pull Up", "normal", nil, 15),
  ]

  static func store() throws -> Store { try TrainingTests.store(sets) }

  func progress(_ store: Store, _ exercise: String) throws -> [String] {
    try store.read {
      try TrainingProgress.fetch($0, exercise: exercise, by: .week, since: nil, formula: .epley)
    }.map { $0.map { $0.plainText(localTime: false) }.joined(separator: " ") }
  }

  /// Columns: period bestE1RM topKg topReps sets reps volumeKg.
  @Test func progressLeavesUnknownRepsUnknown() throws {
    let store = try Self.store()
    #expect(
      try progress(store, "Squat (Barbell)") == [
        // Week 1: one set of 120 kg, reps unknown: no e1RM, top 120 with its reps unknown, 1 set, reps
        // and volume unknown.
        "2026-01-05  120  1  ",
        // Week 2: 100×5 and 100×? — top 100×5 (unknown reps count as fewer); e1RM Epley 100 × (1 + 5/30)
        // = 116.67 → 116.7; reps 5 (the known); volume 100 × 5 = 500.
        "2026-01-12 116.7 100 5 2 5 500",
      ])
    // Assisted: its weight helps, so no e1RM, top weight or volume; one set of 8 reps.
    #expect(try progress(store, "Assisted Pull Up") == ["2026-01-05    1 8 "])
  }

  /// Pull Up: 10 reps without a weight (w1), 10 kg × 6 (w2), 15 without (w3). Its weighted records
  /// come from w2; its most reps in a set without a weight is 15 (w3), listed beside them.
  @Test func mostRepsWithoutAWeightStaysBesideTheWeightedRecords() throws {
    let store = try Self.store()
    let records = try store.read { try TrainingRecords.fetch($0, exercise: "Pull Up", since: nil, formula: .epley) }
      .map { ($0[1].plainText(localTime: false), $0[2].plainText(localTime: false)) }
    // heaviest 10; e1RM 10 × (1 + 6/30) = 12; set volume 10 × 6 = 60; session volume 60; most reps 15;
    // and, for one exercise, the most reps at each weight: 6 at 10 kg.
    #expect(records.map(\.0) == ["heaviest", "e1RM", "setVolume", "sessionVolume", "mostReps", "mostRepsAt"])
    #expect(records.map(\.1) == ["10", "12", "60", "60", "15", "6"])
  }
}
