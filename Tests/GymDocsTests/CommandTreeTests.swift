import ArgumentParser
import Testing

@testable import gym

/// gym finds its commands by their configured names (public API): every command must set one, and
/// no two siblings may share a word.
@Suite struct CommandTreeTests {
  func walk(_ command: any ParsableCommand.Type, path: String, _ visit: (any ParsableCommand.Type, String) -> Void) {
    visit(command, path)
    for sub in command.configuration.subcommands {
      walk(sub, path: path + " " + (sub.configuration.commandName ?? "?"), visit)
    }
  }

  @Test func everyCommandSetsItsNameAndSiblingsDiffer() {
    var count = 0
    walk(Gym.self, path: "gym") { command, path in
      count += 1
      #expect(command.configuration.commandName != nil, "\(path) (\(command)) sets no commandName")
      let words = command.configuration.subcommands.flatMap {
        [$0.configuration.commandName ?? ""] + $0.configuration.aliases
      }
      #expect(Set(words).count == words.count, "\(path): two subcommands share a name: \(words)")
    }
    #expect(count > 40)
  }
}
