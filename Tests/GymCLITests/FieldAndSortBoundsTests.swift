import ArgumentParser
import Testing

@testable import GymCLI

/// `--fields` and `--sort` name each field once, and a bounded number of them: 2,001 fields reached
/// SQLite's column limit after the CSV header was written, and duplicates printed JSON objects with
/// a key twice.
@Suite struct FieldAndSortBoundsTests {
  func refusal(_ type: (some ParsableArguments).Type, _ arguments: [String]) -> String? {
    do {
      _ = try type.parse(arguments)
      return nil
    } catch {
      return type.message(for: error)
    }
  }

  @Test func eachFieldOnceAndAtMost64() {
    #expect(refusal(OutputOptions.self, ["--fields", "id,title"]) == nil)
    #expect(refusal(OutputOptions.self, ["--fields", "id,title,id"])?.contains("names 'id' twice") == true)
    let names = (1...64).map { "f\($0)" }
    #expect(refusal(OutputOptions.self, ["--fields", names.joined(separator: ",")]) == nil)
    #expect(
      refusal(OutputOptions.self, ["--fields", (names + ["f65"]).joined(separator: ",")])?
        .contains("names 65 fields; a list has at most 64") == true)
  }

  @Test func eachSortKeyOnceAndAtMost16() {
    #expect(refusal(SortOptions.self, ["--sort", "rating:desc,title"]) == nil)
    // The same field in both directions is still the same field.
    #expect(refusal(SortOptions.self, ["--sort", "title,-title"])?.contains("names 'title' twice") == true)
    let keys = (1...16).map { "f\($0)" }
    #expect(refusal(SortOptions.self, ["--sort", keys.joined(separator: ",")]) == nil)
    #expect(
      refusal(SortOptions.self, ["--sort", (keys + ["f17"]).joined(separator: ",")])?
        .contains("names 17 keys; an order has at most 16") == true)
  }
}
