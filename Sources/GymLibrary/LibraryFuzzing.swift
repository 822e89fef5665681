import GymCLI
import GymCore

/// The library's Goodreads row parser for `make fuzz`.
public enum LibraryFuzzing {
  public static func goodreads(_ bytes: [UInt8]) {
    Fuzzing.csvRows(bytes, columns: GoodreadsFormat.columns) { _ = try GoodreadsFormat.book($0) { _ in } }
  }
}
