import Foundation
import Testing

/// Every row of Docs/Reliability.md names the tests that hold it, and each name is a test that
/// exists: `Suite.function` (a suite declared or extended under Tests/ with that function), or a
/// path under the package.
@Suite struct ReliabilityTableTests {
  static let root = ReferenceDocsTests.package

  /// The "where" cells of the table, each with its row's first words.
  static func rows() throws -> [(guarantee: String, where: String)] {
    let text = try String(contentsOfFile: root + "/Docs/Reliability.md", encoding: .utf8)
    let table = text.split(separator: "\n").filter {
      $0.hasPrefix("| ") && !$0.hasPrefix("| guarantee") && !$0.hasPrefix("| ---")
    }
    return table.map { line in
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
      return (String(cells[1].prefix(70)), String(cells[cells.count - 2]))
    }
  }

  /// Every Swift file under Tests/, by its name, read once.
  static func testSources() throws -> [(name: String, text: String)] {
    let base = root + "/Tests"
    let files = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
    return try files.filter { $0.hasSuffix(".swift") }.map {
      (($0 as NSString).lastPathComponent, try String(contentsOfFile: base + "/" + $0, encoding: .utf8))
    }
  }

  /// The backticked names in a cell: `Suite.function`, `Suite` or a path.
  static func names(in cell: String) -> [String] {
    cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }

  @Test func everyRowNamesTestsThatExist() throws {
    let rows = try Self.rows()
    #expect(rows.count > 60)
    let sources = try Self.testSources()
    func declares(_ suite: String, _ text: String) -> Bool {
      text.contains("struct \(suite) ") || text.contains("extension \(suite) ")
    }
    for row in rows {
      let names = Self.names(in: row.where)
      #expect(!names.isEmpty, "no test named for: \(row.guarantee)")
      for name in names {
        if name.contains("/") {  // a path in the package
          let trimmed = name.hasSuffix("/") ? String(name.dropLast()) : name
          let found = trimmed.contains("*") || FileManager.default.fileExists(atPath: Self.root + "/" + trimmed)
          #expect(found, "\(name) (for: \(row.guarantee))")
        } else if name.hasSuffix(".swift") {  // a test file by its name
          #expect(sources.contains { $0.name == name }, "\(name) (for: \(row.guarantee))")
        } else if let dot = name.firstIndex(of: ".") {  // Suite.function
          let suite = String(name[..<dot])
          let function = String(name[name.index(after: dot)...])
          let defined = sources.contains { declares(suite, $0.text) && $0.text.contains("func \(function)(") }
          #expect(defined, "\(name) (for: \(row.guarantee))")
        } else {  // a suite
          #expect(sources.contains { declares(name, $0.text) }, "\(name) (for: \(row.guarantee))")
        }
      }
    }
  }
}
