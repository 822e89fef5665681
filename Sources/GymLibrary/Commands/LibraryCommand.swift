import ArgumentParser
import GymCLI
import GymCore

/// `gym library`: works, authors, editions and reading entries. Bare `gym library` lists works.
public struct LibraryCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "library",
    abstract: "Books: works with their authors and editions, your shelves and readings; Goodreads import.",
    discussion: HelpExamples.discussion(examples: [
      "gym library --status reading",
      "gym library start 9781250313195",
      "gym library import goodreads goodreads_library_export.csv",
    ]),
    subcommands: [
      LibraryList.self, LibraryCount.self, LibraryShow.self, LibrarySearch.self, LibraryAuthors.self,
      LibraryAdd.self, LibrarySet.self, LibraryRemove.self, LibraryStart.self, LibraryFinish.self,
      LibraryAbandon.self, LibraryProgress.self, LibraryReadingsList.self, LibraryStats.self, LibraryGoal.self,
      LibraryImport.self,
      LibraryExport.self,
    ],
    defaultSubcommand: LibraryList.self)

  public init() {}
}

/// `--status` and `--author`, shared by `list` and `count`.
struct LibraryFilterOptions: ParsableArguments {
  @Option(help: "Only works with this reading status.")
  var status: ReadingStatus?
  @Option(help: "Only works by an author whose name contains this text (any case).") var author: String?
  @OptionGroup var filter: FilterOptions

  func predicates() throws -> [RecordFilter] {
    var filters = LibraryQueries.listFilters(status: status, author: author)
    if let predicate = try filter.predicate(for: LibrarySchema.list) { filters.append(predicate) }
    return filters
  }
}
