import GymCLI
import GymCore

/// The library's export row parsers (Goodreads, StoryGraph) for `make fuzz`.
public enum LibraryFuzzing {
  public static func goodreads(_ bytes: [UInt8]) {
    Fuzzing.csvRows(bytes, columns: GoodreadsFormat.columns) { _ = try GoodreadsFormat.book($0) { _ in } }
  }

  public static func storygraph(_ bytes: [UInt8]) {
    Fuzzing.csvRows(bytes, columns: StoryGraphFormat.columns) { _ = try StoryGraphFormat.book($0) { _ in } }
  }
}
