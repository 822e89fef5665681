import Foundation
import Testing

/// Readings through the binary: start, progress, finish, a re-read, abandon, and a Goodreads export
/// imported again after reading in gym.
@Suite struct ReadingCommandTests {
  func readings(_ gym: GymProcess, _ work: String? = nil) throws -> [String] {
    let result = try gym.run(
      ["library", "readings"] + (work.map { [$0] } ?? []) + [
        "-f", "csv", "--fields", "workId,status,started,finished,pages,percent", "--sort", "id",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdoutLines.dropFirst().map(String.init)
  }

  @Test func startProgressFinishRereadAbandon() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["library", "add", "Piranesi", "--author", "Susanna Clarke", "--pages", "272"]).status == 0)
    let start = try gym.run(["library", "start", "1", "--date", "2026-01-02"])
    #expect(start.status == 0)
    #expect(start.stdoutLines == ["1"])
    // Starting again says so and changes nothing.
    let again = try gym.run(["library", "start", "1", "--date", "2026-01-05"])
    #expect(again.status == 0)
    #expect(again.stderr.contains("already being read (since 2026-01-02); nothing changed"))
    #expect(try readings(gym) == ["1,reading,2026-01-02,,,"])
    #expect(try gym.run(["library", "progress", "1", "120"]).status == 0)
    #expect(try readings(gym) == ["1,reading,2026-01-02,,120,"])
    #expect(try gym.run(["library", "progress", "1", "45%"]).status == 0)
    #expect(try readings(gym) == ["1,reading,2026-01-02,,,45"])
    // Past the last page, not a number, a finish before the start: refused, nothing changed.
    let past = try gym.run(["library", "progress", "1", "273"])
    #expect(past.status == 64 && past.stderr.contains("page 273 is past the end of 'Piranesi' (272 pages"))
    #expect(try gym.run(["library", "progress", "1", "101%"]).status == 64)
    let early = try gym.run(["library", "finish", "1", "--date", "2026-01-01"])
    #expect(early.status == 64 && early.stderr.contains("was started on 2026-01-02, after 2026-01-01"))
    #expect(try readings(gym) == ["1,reading,2026-01-02,,,45"])
    let finish = try gym.run(["library", "finish", "1", "--date", "2026-01-20"])
    #expect(finish.status == 0 && finish.stdoutLines == ["1"])
    #expect(!finish.stderr.contains("re-read"))
    // Finishing again, with nothing in progress, is a re-read.
    let reread = try gym.run(["library", "finish", "1", "--date", "2026-06-01"])
    #expect(reread.stderr.contains("a re-read, read twice now"))
    #expect(try readings(gym) == ["1,read,2026-01-02,2026-01-20,,45", "1,read,,2026-06-01,,"])
    let list = try gym.run(["library", "list", "-f", "csv", "--fields", "status,dateStarted,dateFinished,readCount"])
    // The latest reading is the re-read (no start date); the last finish and two reads.
    #expect(list.stdoutLines == ["status,dateStarted,dateFinished,readCount", "read,,2026-06-01,2"])
    let nothing = try gym.run(["library", "abandon", "1"])
    #expect(nothing.status == 65 && nothing.stderr.contains("'Piranesi' is not being read; nothing to abandon"))
    #expect(try gym.run(["library", "start", "1", "--date", "2026-09-01"]).status == 0)
    #expect(try gym.run(["library", "abandon", "1", "--date", "2026-09-10"]).status == 0)
    #expect(try readings(gym, "1").last == "1,abandoned,2026-09-01,2026-09-10,,")
    let shelf = try gym.run(["library", "list", "-f", "csv", "--fields", "status,readCount"])
    #expect(shelf.stdoutLines == ["status,readCount", "abandoned,2"])
    // The shared list options; newest recorded first by default.
    let read = try gym.run(["library", "readings", "-w", "status == \"read\"", "-f", "csv", "--fields", "id"])
    #expect(read.stdoutLines == ["id", "2", "1"])
  }

  /// A Goodreads export imported again after a re-read in gym: nothing duplicated, nothing lost.
  @Test func reimportingAnExportKeepsTheReadingsRecordedInGym() throws {
    let gym = try GymProcess()
    let export = LibraryCommandTests.goodreads
    let path = try gym.write("goodreads.csv", export)
    #expect(try gym.run(["library", "import", "goodreads", path, "-q"]).status == 0)
    // Gideon: read once, on 2020/01/15. The Odyssey: on a shelf of the user's own (to read), no reading.
    #expect(try readings(gym) == ["1,read,,2020-01-15,,"])
    #expect(try gym.run(["library", "finish", "1", "--date", "2026-11-20"]).status == 0)
    #expect(try gym.run(["library", "import", "goodreads", path, "-q"]).status == 0)
    #expect(try readings(gym) == ["1,read,,2020-01-15,,", "1,read,,2026-11-20,,"])
    // A newer export that knows of the re-read (Read Count 2, the last Date Read) adds nothing either.
    let newer = export.replacingOccurrences(of: "2020/01/15,2019/12/01", with: "2026/11/20,2019/12/01")
      .replacingOccurrences(of: ",read,\"Bones.", with: ",read,\"Bones.").replacingOccurrences(
        of: "great.\",,,1,1", with: "great.\",,,2,1")
    #expect(newer != export)
    let newerPath = try gym.write("newer.csv", newer)
    #expect(try gym.run(["library", "import", "goodreads", newerPath, "-q"]).status == 0)
    #expect(try readings(gym) == ["1,read,,2020-01-15,,", "1,read,,2026-11-20,,"])
  }
}
