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
}
