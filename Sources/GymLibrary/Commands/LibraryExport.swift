import ArgumentParser
import GymCLI
import GymCore

/// `gym library export goodreads > goodreads_library_export.csv`: the library in another app's layout.
struct LibraryExport: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write the library in Goodreads' export layout, which Goodreads and other trackers import.",
    discussion: HelpExamples.discussion(
      """
      goodreads: the 24 columns of Goodreads' library export, one row per work, on stdout: ISBNs as \
      ="…", dates YYYY/MM/DD, the last finish date and the read count, the shelves. Start dates, earlier \
      finish dates (still counted), progress and a series not in the title are not part of the layout. \
      'gym library import goodreads' reads it back.
      """,
      examples: [
        "gym library export goodreads > goodreads_library_export.csv",
        "gym library export goodreads | head -3",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: "The layout.") var layout: Layout

  enum Layout: String, CaseIterable, ExpressibleByArgument { case goodreads }

  func run(context: CommandContext) throws {
    let out = BufferedOutput.standardOutput()
    let count = try context.openStore().read { db in try GoodreadsExport.write(db, to: out) }
    out.flush()
    printNote("wrote \(count) works")
  }
}
