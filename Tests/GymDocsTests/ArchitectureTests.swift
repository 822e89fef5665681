import Foundation
import Testing

/// Docs/Architecture.md draws the module graph Package.swift declares, and the graph keeps the house
/// rule: no cross-cutting module depends on a feature module, directly or through another.
@Suite struct ArchitectureTests {
  static let root = ReferenceDocsTests.package

  /// Each gym target's dependencies among gym's own targets, read from Package.swift's text: its
  /// `.target(` and `.executableTarget(` calls, products left out, `+ featureModules` expanded.
  static func declared() throws -> (graph: [String: Set<String>], features: Set<String>) {
    let text = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
    func quoted(_ text: Substring) -> [String] {
      text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
        .map { String($0.element) }
    }
    func balanced(_ text: Substring, open: Character, close: Character) -> Substring {
      var depth = 1
      var end = text.startIndex
      while depth > 0, end < text.endIndex {
        if text[end] == open { depth += 1 } else if text[end] == close { depth -= 1 }
        end = text.index(after: end)
      }
      return text[text.startIndex..<text.index(before: end)]
    }
    let featureList = text.range(of: "let featureModules: [Target.Dependency] = [")!
    let features = quoted(balanced(text[featureList.upperBound...], open: "[", close: "]"))
    var graph: [String: Set<String>] = [:]
    for call in [".target(", ".executableTarget("] {
      var rest = text[...]
      while let found = rest.range(of: call) {
        let body = balanced(rest[found.upperBound...], open: "(", close: ")")
        rest = rest[body.endIndex...]
        let name = quoted(body[body.range(of: "name: ")!.upperBound...])[0]
        guard name.lowercased().hasPrefix("gym"), name != "GymDocs", name != "gym-docs" else { continue }
        var dependencies: [String] = []
        if let list = body.range(of: "dependencies: [") {
          let array = balanced(body[list.upperBound...], open: "[", close: "]")
          // `.product(name: "GRDB", …)` names another package's product, not a target.
          var own = String(array)
          while let product = own.range(of: ".product(") {
            own.removeSubrange(product.lowerBound..<own[product.upperBound...].firstIndex(of: ")")!)
          }
          dependencies = quoted(own[...])
          if body[array.endIndex...].drop(while: { $0 == "]" || $0 == " " }).hasPrefix("+ featureModules") {
            dependencies += features
          }
        }
        graph[name] = Set(dependencies.filter { $0.lowercased().hasPrefix("gym") })
      }
    }
    return (graph, Set(features))
  }

  /// The lines of Architecture.md's `module-graph` block.
  static func drawn() throws -> [String: Set<String>] {
    let text = try String(contentsOfFile: root + "/Docs/Architecture.md", encoding: .utf8)
    let block = text.components(separatedBy: "```module-graph\n")[1].components(separatedBy: "```")[0]
    var graph: [String: Set<String>] = [:]
    for line in block.split(separator: "\n") {
      let sides = line.components(separatedBy: "→")
      let name = sides[0].trimmingCharacters(in: .whitespaces)
      graph[name] = Set(
        sides[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
    return graph
  }

  @Test func theDrawnGraphIsThePackagesGraph() throws {
    let declared = try Self.declared().graph
    #expect(declared.count == 12)  // gym, gym-fuzz, GymModules, 3 features, 4 cross-cutting, GymCLI, GymCore
    #expect(try Self.drawn() == declared)
  }

  @Test func noCrossCuttingModuleReachesAFeatureModule() throws {
    let (graph, features) = try Self.declared()
    #expect(features == ["GymHistory", "GymLibrary", "GymStaples"])
    #expect(graph["GymModules"].map { features.isSubset(of: $0) } == true)
    // Every other library target is cross-cutting or below (the executables and the list reach them).
    let others = Set(graph.keys).subtracting(features).subtracting(["GymModules", "gym", "gym-fuzz"])
    #expect(others.isSuperset(of: ["GymReport", "GymExport", "GymBench", "GymMigrate", "GymCLI", "GymCore"]))
    for module in others.sorted() {
      var reached: Set<String> = []
      var frontier = graph[module] ?? []
      while let next = frontier.popFirst() {
        guard reached.insert(next).inserted else { continue }
        frontier.formUnion(graph[next] ?? [])
      }
      #expect(reached.isDisjoint(with: features), "\(module) reaches \(reached.intersection(features).sorted())")
      #expect(!reached.contains("GymModules"), "\(module)")
    }
  }
}
