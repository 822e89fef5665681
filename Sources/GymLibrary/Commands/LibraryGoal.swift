import ArgumentParser
import GymCLI
import GymCore

/// `gym library goal 24 --year 2026`: a year's reading goal, as Goodreads' reading challenge.
struct LibraryGoal: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "goal",
    abstract: "Set a year's reading goal (books), clear it, or list the goals.",
    discussion: HelpExamples.discussion(
      """
      A year without a goal of its own takes library.goal. 'gym library stats --year Y' shows the year's \
      goal and where the year stands; so does the report for this year.
      """,
      examples: [
        "gym library goal 24",
        "gym library goal 30 --year 2027",
        "gym library goal --clear --year 2027",
        "gym library goal",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "Books to read that year (1 to 100000); left out, the goals are listed.") var books: Int?
  @Option(help: "The year (default: this year, local time).") var year: Int?
  @Flag(help: "Remove the year's own goal (library.goal applies again).") var clear = false
  @OptionGroup var formatting: FormatOptions

  func validate() throws {
    if let year, !(1...9999).contains(year) { throw ValidationError("--year must be from 1 to 9999") }
    if let books, !ReadingGoal.books.contains(books) {
      throw ValidationError("the goal must be from 1 to 100000 books")
    }
    if clear && books != nil { throw ValidationError("give a number of books or --clear, not both") }
  }

  func run(context: CommandContext) throws {
    let year = self.year ?? Int(CalendarDay.today().civil.year)
    guard books != nil || clear else {
      let fallback = context.configuration.string(.readingGoal)
      let goals = try context.openStore().read { try ReadingGoal.all($0) }
      let writer = RecordWriter(format: context.format(formatting), columns: ["year", "books"])
      for goal in goals { writer.write([.integer(Int64(goal.year)), .integer(Int64(goal.books))]) }
      writer.finish(next: nil)
      let note =
        fallback.map { "library.goal, \($0) book\($0 == "1" ? "" : "s")" } ?? "no goal (library.goal is not set)"
      printNote("other years: " + note, isResult: true)
      return
    }
    try context.openStore().write { try ReadingGoal.set(books, year: year, $0) }
    printNote(books.map { "goal \(year): \($0) books" } ?? "goal \(year) cleared")
  }
}
