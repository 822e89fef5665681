import Foundation
import GRDB
import Testing

/// Text holding a NUL or an escape character, as an import can bring it: stored whole, shown
/// escaped, written whole by every format, and read back whole by every import.
@Suite struct ControlCharacterTests {
  static let id = "6f9619ff-8b86-d011-b42d-00c04fc964ff"
  /// `A`, NUL, `B` and ESC `[31m` (a terminal colour) as UTF-8, in hexadecimal as SQLite's `hex()` writes it.
  static let titleHex = "410042"
  static let notesHex = "781B5B33316D"

  func importedWorkout() throws -> GymProcess {
    let gym = try GymProcess()
    let record =
      #"{"id":"\#(Self.id)","completedAt":"2026-01-01T00:00:00Z","status":"completed","planTitle":"A\u0000B","#
      + #""focus":"push","durationMinutes":30,"intensity":"low","notes":"x\u001b[31m"}"#
    let result = try gym.run(["history", "import", "-"], stdin: record + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    return gym
  }

  /// The stored bytes of the workout's title and notes, read by SQLite itself.
  func storedHex(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    let row = try queue.read { try Row.fetchOne($0, sql: "SELECT hex(planTitle), hex(notes) FROM workout") }
    return try [#require(row)[0], #require(row)[1]]
  }

  @Test func storedWholeAndShownEscaped() throws {
    let gym = try importedWorkout()
    #expect(try storedHex(gym.databasePath) == [Self.titleHex, Self.notesHex])
    for command in [["history", "list", "--fields", "planTitle,notes"], ["history", "show", Self.id]] {
      let table = try gym.run(command)
      #expect(table.status == 0, "\(table.stderr)")
      #expect(table.stdout.contains(#"A\x00B"#), "\(command): \(table.stdout)")
      #expect(table.stdout.contains(#"x\x1B[31m"#), "\(command): \(table.stdout)")
      #expect(!table.stdout.utf8.contains(where: { $0 == 0 || $0 == 0x1B }), "\(command)")
    }
    let json = try gym.run(["history", "list", "--format", "json", "--fields", "planTitle,notes"])
    #expect(json.stdout == #"{"items":[{"planTitle":"A\u0000B","notes":"x\u001b[31m"}],"next":null}"# + "\n")
  }

  @Test(arguments: ["ndjson", "csv", "sqlite"])
  func everyExportFormatRestoresAndMergesItWhole(format: String) throws {
    let gym = try importedWorkout()
    let exported = try gym.run(["export", "--format", format, "--out", gym.directory + "/exports"])
    #expect(exported.status == 0, "\(exported.stderr)")
    let path = exported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(try gym.run(["export", "verify", path]).status == 0)

    let restored = gym.directory + "/restored.sqlite"
    let restore = try gym.run(["import", path, "--database", restored])
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(try storedHex(restored) == [Self.titleHex, Self.notesHex])

    // Merged into a database that has other data: the row is added whole.
    let merged = gym.directory + "/merged.sqlite"
    #expect(try gym.run(["library", "add", "Dune", "--database", merged]).status == 0)
    let merge = try gym.run(["import", "--merge", path, "--database", merged])
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(try storedHex(merged) == [Self.titleHex, Self.notesHex])
  }

  @Test(arguments: ["csv", "ndjson"])
  func aListingImportsBackWhole(format: String) throws {
    let gym = try importedWorkout()
    let listing = try gym.run(["history", "list", "--format", format])
    #expect(listing.status == 0, "\(listing.stderr)")
    let copy = gym.directory + "/copy.sqlite"
    let imported = try gym.run(["history", "import", "-", "--database", copy], stdin: listing.stdout)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try storedHex(copy) == [Self.titleHex, Self.notesHex])
  }

  /// Words the command line brings are data too: an unknown command, a `-C` directory, a file named
  /// on the line, each with a line break in it, still give one line on stderr; swift-argument-parser's
  /// own list of values is joined into it.
  @Test func whatTheCommandLineBringsStaysOneLine() throws {
    let gym = try GymProcess()
    let cases: [([String], Int32, String)] = [
      (["foo\nbar"], 64, "unknown command 'foo?bar'"),
      (["history", "lsit\nx"], 64, "has no command 'lsit?x'"),
      (["help", "history", "lsit\nx"], 64, "has no command 'lsit?x'"),
      (["-C", "/no\nx", "version"], 66, "-C '/no?x'"),
      (["history", "add", "--plan-title", "x", "--focus", "nope"], 64, "one of the following: - fullBody - upper"),
    ]
    for (arguments, status, expected) in cases {
      let result = try gym.run(arguments)
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
    }
    let long = try gym.run([String(repeating: "x", count: 5000)])
    #expect(long.stderr.count < 700, "cut to one screen line's worth: \(long.stderr.count)")
  }

  /// A note that names what a command wrote stays one line, whatever the name holds: `added 'Oat
  /// milk'` over two lines read as two notes to a script reading stderr by line. The break is shown
  /// as `\x0A`, not made a space: a space would name another item (or file).
  @Test func aNoteNamingDataStaysOneLine() throws {
    let gym = try GymProcess()
    let added = try gym.run(["staples", "add", "Oat\nmilk", "--category", "Dairy\tcold"])
    #expect(added.status == 0, "\(added.stderr)")
    // Two notes, two lines: the database made, and the item added with its line break shown.
    #expect(added.stderr.split(separator: "\n").count == 2, "\(added.stderr)")
    #expect(added.stderr.contains("added 'Oat\\x0Amilk'"), "\(added.stderr)")
  }
}
