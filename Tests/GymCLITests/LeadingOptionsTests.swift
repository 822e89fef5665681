import Testing

@testable import GymCLI

@Suite struct LeadingOptionsTests {
  @Test func commonOptionsMoveAfterTheCommandAndBeforeDoubleDash() throws {
    let moved = try LeadingOptions(["--database", "x.sqlite", "-q", "history", "list", "--", "-v"])
    #expect(moved.arguments == ["history", "list", "--database", "x.sqlite", "-q", "--", "-v"])
    #expect(moved.directories.isEmpty)
    let directories = try LeadingOptions(["-C", "a", "-C", "b", "--config=c.yaml", "count"])
    #expect(directories.arguments == ["count", "--config=c.yaml"])
    #expect(directories.directories == ["a", "b"])
    // Only leading options move: the same words after the command are the command's.
    #expect(try LeadingOptions(["history", "--verbose", "list"]).arguments == ["history", "--verbose", "list"])
    #expect(throws: (any Error).self) { try LeadingOptions(["--database"]) }
    #expect(throws: (any Error).self) { try LeadingOptions(["-C"]) }
  }

  /// `--database` (or `--config`) given twice: before the command and again after it the one before
  /// won without a word, twice on one side the last. Refused; once on either side, or after a `--`
  /// (an argument, not the option), it runs.
  @Test func aDatabaseGivenOnBothSidesIsRefused() throws {
    for arguments in [
      ["--database", "a.sqlite", "history", "add", "--database", "b.sqlite"],
      ["--database=a.sqlite", "history", "count", "--database=b.sqlite"],
      ["--config", "a.yaml", "history", "count", "--config=b.yaml"],
      ["--database", "a.sqlite", "--database", "b.sqlite", "history", "count"],
      ["history", "count", "--database", "a.sqlite", "--database=b.sqlite"],
    ] {
      #expect(throws: (any Error).self, "\(arguments)") { try LeadingOptions(arguments) }
    }
    #expect(
      try LeadingOptions(["--database", "a.sqlite", "history", "count", "--", "--database"]).arguments
        == ["history", "count", "--database", "a.sqlite", "--", "--database"])
    #expect(try LeadingOptions(["history", "count", "--database", "b.sqlite"]).arguments.count == 4)
  }
}
