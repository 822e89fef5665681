import Foundation
import Testing

/// The main lifts have muscles under every name they go by: Strong's older names without equipment
/// (`Squat`, `Deadlift`), and a rename to a name of one's own keeps the muscles of what it renamed;
/// `gym doctor` names the exercises with sets that no muscle group counts.
@Suite struct MuscleCoverageTests {
  @Test func oldNamesAndRenamesKeepTheirMuscles() throws {
    let gym = try GymProcess()
    let sets = [
      ("Squat", 100, 5), ("Deadlift", 140, 3), ("Bench Press (Barbell)", 80, 8), ("Bench Press (Barbell)", 80, 6),
      ("Zercher Thing", 60, 5),
    ].enumerated().map { index, set in
      #"{"position":\#(index + 1),"exercise":"\#(set.0)","kind":"normal","weightKg":\#(set.1),"reps":\#(set.2)}"#
    }
    let workout =
      #"{"id":"00000000-0000-4000-8000-000000000001","completedAt":"2026-11-20T10:00:00Z","planTitle":"Lift","sets":[\#(sets.joined(separator: ","))]}"#
    #expect(try gym.run(["history", "import", "-", "-q"], stdin: workout + "\n").status == 0)
    #expect(try gym.run(["history", "exercises", "rename", "Bench Press (Barbell)", "My Press", "-q"]).status == 0)
    let volume = try gym.run(["history", "volume", "--since", "2026-11-01", "-f", "csv"])
    #expect(volume.status == 0, "\(volume.stderr)")
    // muscles.yaml: squat (barbell) quads, glutes | adductors, lower back; deadlift (barbell) glutes,
    // hamstrings, lower back | quads, traps, forearms; bench press (barbell) chest | triceps, front delts.
    // A set is 1 for a primary group, 0.5 for a secondary one; reps and tonnage (kg × reps) likewise.
    // quads: squat 1 (5 reps, 500 kg) + deadlift 0.5 (1.5 reps, 210 kg) = 1.5 sets, 6.5 reps, 710 kg.
    // glutes: 1 + 1 = 2 sets, 5 + 3 = 8 reps, 500 + 420 = 920 kg. chest: 2 sets, 14 reps, 640 + 480 = 1120 kg.
    let expected = [
      "2026-11-16,adductors,0.5,2.5,250", "2026-11-16,chest,2,14,1120", "2026-11-16,forearms,0.5,1.5,210",
      "2026-11-16,front delts,1,7,560", "2026-11-16,glutes,2,8,920", "2026-11-16,hamstrings,1,3,420",
      "2026-11-16,lower back,1.5,5.5,670", "2026-11-16,quads,1.5,6.5,710", "2026-11-16,traps,0.5,1.5,210",
      "2026-11-16,triceps,1,7,560",
    ]
    #expect(volume.stdoutLines.dropFirst().map(String.init) == expected, "\(volume.stdout)")
    let doctor = try gym.run(["doctor", "-f", "csv"])
    #expect(
      doctor.stdout.contains("exercises,note,1 exercise with sets in no muscle group's volume ('Zercher Thing')"),
      "\(doctor.stdout)")
  }
}
