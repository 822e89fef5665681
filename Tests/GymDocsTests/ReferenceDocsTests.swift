import Foundation
import GymDocs
import Testing

/// Docs/Reference/ is what gym says about itself now: regenerate it with `make docs` when a
/// command, an option or Config/gym.yaml changes.
@Suite struct ReferenceDocsTests {
  static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
  static let gym = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("gym").path

  @Test func committedPagesMatchWhatGymSaysNow() throws {
    let pages = try ReferenceWriter.pages(gym: Self.gym, package: Self.package)
    let directory = Self.package + "/Docs/Reference"
    let committed = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
    #expect(committed == Set(pages.keys), "Docs/Reference/ is out of date: run make docs")
    for (name, text) in pages.sorted(by: { $0.key < $1.key }) {
      let current = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
      #expect(current == text, "Docs/Reference/\(name) is out of date: run make docs")
    }
  }

  @Test func everyCommandHasAPageAndTheConfigurationEveryKey() throws {
    let pages = try ReferenceWriter.pages(gym: Self.gym, package: Self.package)
    for name in [
      "gym.md", "gym-history-list.md", "gym-library-import.md", "gym-migrate-up.md", "gym-export-schedule.md",
    ] {
      #expect(pages[name] != nil, "\(name)")
    }
    let configuration = try #require(pages["configuration.md"])
    for key in [
      "database.path", "database.busy_timeout", "database.backups.keep", "output.page_size", "export.directory",
    ] {
      #expect(configuration.contains("`\(key)`"), "\(key)")
    }
    #expect(pages["gym-history-list.md"]?.contains("`-n, --limit <limit>`") == true)
    #expect(pages["gym.1"]?.hasPrefix(".\\\" Generated") == true)
  }
}
